// Event, Trend and Signal, Health, CBM, Report listing and Parameter Backup operations, run from
// test/workflows/asset-data.json in n8n's engine against the simulator over HTTP.
import { startFixture, type Fixture } from './fixture';

const DAY = 24 * 60 * 60 * 1000;

let f: Fixture;
beforeAll(async () => {
	f = await startFixture();
});
afterAll(async () => await f.close());

test('every asset data operation runs in the engine; files arrive as binary data with the right bytes', async () => {
	const drive = f.asset(
		(a) => a.assetType === 'Drive' && a.level === 'Premium' && a.cbmCapable,
		'Premium CBM drive',
	);
	const now = f.sim.clock.now();
	// Test data looked up with the core directly: an event that has a logger file, two trend codes.
	const events = await f.direct.ranges.events({
		assetId: drive.id,
		startTime: new Date(now - 60 * DAY),
		endTime: new Date(now),
	});
	const withLogger = events.find((e) => e.isHasEventLogger);
	expect(withLogger).toBeDefined();
	const config = await f.direct.assetData.getTrendSignalConfig({ assetId: drive.id });
	const codes = config.trends.slice(0, 2).map((t) => t.code);
	expect(codes).toHaveLength(2);

	const input = {
		driveId: drive.id,
		// 20 days: the node splits it into three 7-day queries.
		eventsFrom: new Date(now - 20 * DAY).toISOString(),
		eventsTo: new Date(now).toISOString(),
		loggerEventId: String(withLogger!.id),
		codes,
		seriesFrom: new Date(now - 3 * 60 * 60 * 1000).toISOString(),
		seriesTo: new Date(now).toISOString(),
		commissioningDate: '2026-01-15T00:00:00Z',
		backupsFrom: new Date(now - 300 * DAY).toISOString(),
		backupsTo: new Date(now).toISOString(),
	};
	f.sim.requests.clear();
	const result = await f.engine.run(f.engine.readWorkflow('asset-data.json'), {
		input: [{ json: input }],
	});
	expect(result.run.data.resultData.error).toBeUndefined();
	const eventQueries = f.sim.requests.api('E14').length;

	// Events: one item per event, all inside the range, fetched in 7-day windows.
	const got = result.output('Get Events')!.map((i) => i.json);
	const expected = await f.direct.ranges.events({
		assetId: drive.id,
		startTime: input.eventsFrom,
		endTime: input.eventsTo,
	});
	expect(got.map((e) => e.id)).toEqual(expected.map((e) => e.id));
	expect(eventQueries).toBe(3);

	// Logger file: binary data with the link's bytes, file name and MIME type.
	const logger = result.output('Get Logger File')!;
	expect(logger.length).toBeGreaterThan(0);
	const binary = logger[0].binary!.logger;
	const files = await f.direct.assetData.getEventLoggerFiles({
		assetId: drive.id,
		eventId: input.loggerEventId,
	});
	const reference = await f.direct.files.download(files[0].loggerFile!);
	expect(Buffer.from(binary.data, 'base64').equals(reference.data)).toBe(true);
	expect(binary.fileName).toBe(reference.fileName);
	expect(binary.mimeType).toBe(reference.mimeType);
	expect(logger[0].json).toMatchObject({
		assetId: drive.id,
		eventId: input.loggerEventId,
		fileName: reference.fileName,
	});

	const parameters = result.output('Get Trend Configuration')!.map((i) => i.json);
	expect(parameters.filter((p) => p.kind === 'trend')).toHaveLength(config.trends.length);
	expect(parameters.filter((p) => p.kind === 'signal')).toHaveLength(config.signals.length);

	// Time series: one item per point with a column per parameter, named as people read it
	// ("Motor current (A)"), the codes kept beside (5-minute points over 3 hours) ...
	const points = result.output('Get Trend Data By Point')!.map((i) => i.json);
	expect(points.length).toBeGreaterThan(30);
	const chosen = codes.map((code) => config.trends.find((t) => t.code === code)!);
	const columns = chosen.map((t) => `${t.name} (${t.unit})`);
	expect(Object.keys(points[0]).sort()).toEqual(['timestamp', 'parameterCodes', ...columns].sort());
	expect(points[0].parameterCodes).toEqual(
		Object.fromEntries(columns.map((column, i) => [column, codes[i]])),
	);
	expect(points.map((p) => p.timestamp)).toEqual(
		[...points.map((p) => p.timestamp as string)].sort(),
	);
	// ... or one item per parameter with every point in full.
	const perParameter = result.output('Get Trend Data By Parameter')!.map((i) => i.json);
	expect(perParameter.map((p) => p.code)).toEqual(codes);
	const firstPoints = perParameter[0].points as Array<Record<string, unknown>>;
	expect(firstPoints).toHaveLength(points.length);
	expect(Object.keys(firstPoints[0]).sort()).toEqual(['avg', 'max', 'min', 'timestamp', 'value']);

	const conditions = result.output('Get Conditions')!.map((i) => i.json);
	expect(conditions.map((c) => c.type).sort()).toEqual([
		'Availability',
		'Environment',
		'Overall',
		'Reliability',
		'Stress',
	]);

	// CBM, simplified: one row per component, latest KPI instead of 30 days.
	const cbm = result.output('Get CBM Results')!.map((i) => i.json);
	expect(cbm.map((c) => c.deviceUnitType).sort()).toEqual(['Capacitor', 'Fan', 'IGBT']);
	expect(cbm.every((c) => !('deviceDayKPIs' in c) && typeof c.latestKpi === 'number')).toBe(true);
	// Beside each UTC+8 date the platform sends, its UTC instant (the day begins 16:00 UTC the day before).
	for (const c of cbm) {
		for (const [date, at] of [
			['predictedRunPlanDate', 'predictedRunPlanAt'],
			['latestKpiDate', 'latestKpiAt'],
		]) {
			if (typeof c[date] !== 'string' || c[date] === '') expect(c[at]).toBeNull();
			else
				expect(c[at]).toBe(
					new Date(Date.parse(`${c[date] as string}T00:00:00+08:00`))
						.toISOString()
						.replace('.000Z', 'Z'),
				);
		}
	}
	expect(cbm.some((c) => typeof c.predictedRunPlanAt === 'string')).toBe(true);

	expect(result.output('Set Commissioning Date')![0].json).toMatchObject({
		assetId: drive.id,
		deviceUnitType: 'Fan',
	});
	expect(Array.isArray(result.output('Get Reports'))).toBe(true);

	const backups = result.output('Get Parameter Backups')!.map((i) => i.json);
	expect(backups.length).toBeGreaterThan(0);
	for (const b of backups)
		expect(b.backupAt).toBe(
			new Date(Date.parse(`${(b.backupTime as string).replace(' ', 'T')}+08:00`))
				.toISOString()
				.replace('.000Z', 'Z'),
		);
	// Get Content ran once per backup (chained), one item per parameter, paired with its backup.
	const content = result.output('Get Backup Content')!;
	expect(content.length).toBeGreaterThan(backups.length);
	expect(content[0].json).toEqual(
		expect.objectContaining({
			group: expect.any(String),
			paraId: expect.anything(),
			value: expect.anything(),
		}),
	);
	const pairedBackups = new Set(content.map((i) => (i.pairedItem as { item: number }).item));
	expect(pairedBackups.size).toBe(backups.length);
});

test('Trend and Signal > Get Data can name its columns by code', async () => {
	const drive = f.asset((a) => a.assetType === 'Drive' && a.level === 'Premium', 'Premium drive');
	const config = await f.direct.assetData.getTrendSignalConfig({ assetId: drive.id });
	const codes = config.trends.slice(0, 2).map((t) => t.code);
	const now = f.sim.clock.now();
	const result = await f.engine.run(f.engine.readWorkflow('single-operation.json'), {
		input: [{ json: {} }],
		parameters: {
			'Drive Monitoring': {
				resource: 'trendSignal',
				operation: 'getData',
				asset: { __rl: true, mode: 'id', value: drive.id },
				parameters: codes,
				startTime: new Date(now - 3 * 60 * 60 * 1000).toISOString(),
				endTime: new Date(now).toISOString(),
				output: 'point',
				columnNames: 'code',
				simplify: true,
				options: {},
			},
		},
	});
	const points = result.output('Drive Monitoring')!.map((i) => i.json);
	expect(points.length).toBeGreaterThan(30);
	expect(Object.keys(points[0]).sort()).toEqual(['timestamp', ...codes].sort());
});
