import { LIMITS } from '../../shared/spec';
import {
	DAY,
	HOUR,
	expectRefusal,
	expectSuccess,
	iso,
	startHarness,
	type Harness,
} from './harness';
import type { AssetSummary } from '../../simulator';

let h: Harness;
let now: number;
const START = Date.parse('2026-06-15T08:00:00Z');

beforeAll(async () => {
	h = await startHarness({ startTime: START, seed: 7 });
	now = h.sim.clock.now();
});
afterAll(() => h.close());

const drive = (level: string, family = 'ACS880'): AssetSummary =>
	h.asset(
		(a) =>
			a.assetType === 'Drive' &&
			a.level === level &&
			a.modelType.startsWith(family) &&
			a.gatewayType === 'IOTPanel' &&
			a.powerTrainId === null &&
			Date.parse(a.createdOn) < now - 300 * DAY,
		`${level} ${family} drive`,
	);
const motor = (level: string): AssetSummary =>
	h.asset(
		(a) => a.assetType === 'Motor' && a.level === level && a.powerTrainId === null,
		`${level} motor`,
	);
const events = (a: AssetSummary, start: number, end: number) =>
	h.api(a.orgId, 'GET', `/assetdata/${a.id}/event?startTime=${iso(start)}&endTime=${iso(end)}`);
const series = (a: AssetSummary, start: number, end: number, parameters = ['01.01']) =>
	h.api(a.orgId, 'POST', '/assetdata/asset/trendsignal/data', {
		assetId: a.id,
		parameters,
		startTime: iso(start),
		endTime: iso(end),
	});

describe('E14 list events', () => {
	test('lists events of the window oldest first with every field', async () => {
		const list = expectSuccess(await events(drive('Premium'), now - 7 * DAY, now));
		for (const e of list)
			expect(Object.keys(e).sort()).toEqual(
				[
					'closeAt',
					'closeReason',
					'content',
					'deviceWorkStatus',
					'eventCode',
					'eventDateTime',
					'eventStatus',
					'eventType',
					'id',
					'isHasEventLogger',
				].sort(),
			);
		const times = list.map((e: { eventDateTime: string }) => Date.parse(e.eventDateTime));
		expect(times).toEqual([...times].sort((a, b) => a - b));
	});

	test('the past year holds events of every type and status', async () => {
		const seen = new Set<string>();
		for (const a of [drive('Premium'), drive('Standard'), motor('Premium')]) {
			for (let start = now - 364 * DAY; start < now; start += 7 * DAY) {
				for (const e of expectSuccess(await events(a, start, start + 7 * DAY)))
					seen.add(`${e.eventType}/${e.eventStatus}`);
			}
		}
		expect([...seen].sort()).toEqual([
			'Fault/Close',
			'Fault/Open',
			'Notification/Close',
			'Notification/Open',
			'Warning/Close',
			'Warning/Open',
		]);
	});

	test('an interval over 7 days is cut to start plus 7 days', async () => {
		const a = drive('Premium');
		const start = now - 60 * DAY;
		const long = expectSuccess(await events(a, start, now));
		const week = expectSuccess(await events(a, start, start + LIMITS.eventWindowDays * DAY));
		expect(long).toEqual(week);
		expect(
			long.every((e: { eventDateTime: string }) => Date.parse(e.eventDateTime) < start + 7 * DAY),
		).toBe(true);
	});

	test('history range: Entry and Basic reach 90 days, 91 days back gives 102403', async () => {
		for (const level of ['Entry', 'Basic']) {
			expectSuccess(await events(drive(level), now - 89 * DAY, now - 88 * DAY));
			expectRefusal(await events(drive(level), now - 91 * DAY, now - 88 * DAY), 102403);
		}
	});

	test('history range: Standard and Premium reach 365 days, 366 days back gives 102403', async () => {
		for (const level of ['Standard', 'Premium']) {
			expectSuccess(await events(drive(level), now - 364 * DAY, now - 363 * DAY));
			expectRefusal(await events(drive(level), now - 366 * DAY, now - 363 * DAY), 102403);
		}
	});

	test('expired subscription gives 102205; PowerTrain 102202', async () => {
		expectRefusal(
			await events(
				h.asset((a) => a.level === 'expired', 'expired asset'),
				now - DAY,
				now,
			),
			102205,
		);
		expectRefusal(
			await events(
				h.asset((a) => a.assetType === 'PowerTrain', 'PowerTrain'),
				now - DAY,
				now,
			),
			102202,
		);
	});

	test('bad or reversed times give 100400 naming the field', async () => {
		const a = drive('Premium');
		const bad = await h.api(
			a.orgId,
			'GET',
			`/assetdata/${a.id}/event?startTime=yesterday&endTime=${iso(now)}`,
		);
		expectRefusal(bad, 100400);
		expect(bad.body.message).toMatch(/startTime/);
		expectRefusal(await events(a, now, now - DAY), 100400);
		expectRefusal(await h.api(a.orgId, 'GET', `/assetdata/${a.id}/event`), 100400);
	});
});

describe('E15 event logger files and temporary links (A7)', () => {
	const loggedEvent = async (a: AssetSummary): Promise<number> => {
		for (let start = now - 7 * DAY; start > now - 364 * DAY; start -= 7 * DAY) {
			const found = expectSuccess(await events(a, start, start + 7 * DAY)).find(
				(e: { isHasEventLogger: boolean }) => e.isHasEventLogger,
			);
			if (found) return found.id;
		}
		throw new Error('no event with a logger file');
	};

	test('Standard and Premium get a link that downloads a CSV of the event', async () => {
		for (const level of ['Standard', 'Premium']) {
			const a = drive(level);
			const eventId = await loggedEvent(a);
			const files = expectSuccess(
				await h.api(a.orgId, 'GET', `/assetdata/${a.id}/event/${eventId}/eventlogger/file`),
			);
			expect(files).toEqual([
				{
					loggerId: expect.stringMatching(/^[0-9a-f-]{36}$/),
					loggerFile: expect.stringContaining(h.sim.info.baseUrl),
				},
			]);
			const res = await fetch(files[0].loggerFile);
			expect(res.status).toBe(200);
			expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
			expect(res.headers.get('content-disposition')).toBe(
				`attachment; filename="event-${eventId}-logger.csv"`,
			);
			const text = await res.text();
			expect(text).toContain(`event ${eventId}`);
			expect(text).toMatch(/^time,motor_speed_rpm/m);
		}
	});

	test('Entry and Basic are denied with 102403', async () => {
		for (const level of ['Entry', 'Basic']) {
			const a = drive(level);
			expectRefusal(
				await h.api(a.orgId, 'GET', `/assetdata/${a.id}/event/1/eventlogger/file`),
				102403,
			);
		}
	});

	test('an event of another asset gives 100400', async () => {
		const a = drive('Premium');
		const b = drive('Standard');
		const eventId = await loggedEvent(b);
		expectRefusal(
			await h.api(a.orgId, 'GET', `/assetdata/${a.id}/event/${eventId}/eventlogger/file`),
			100400,
		);
	});

	test('a link expires after 10 minutes and a tampered link is refused, both 403 plain text', async () => {
		const a = drive('Premium');
		const [{ loggerFile }] = expectSuccess(
			await h.api(
				a.orgId,
				'GET',
				`/assetdata/${a.id}/event/${await loggedEvent(a)}/eventlogger/file`,
			),
		);
		const tampered = loggerFile.replace(
			/expires=(\d+)/,
			(_m: string, n: string) => `expires=${Number(n) + 60_000}`,
		);
		const refused = await fetch(tampered);
		expect(refused.status).toBe(403);
		expect(await refused.text()).toMatch(/signature/);
		h.sim.clock.advance(LIMITS.temporaryLinkMinutes * 60_000 - 5_000);
		expect((await fetch(loggerFile)).status).toBe(200);
		h.sim.clock.advance(10_000);
		const expired = await fetch(loggerFile);
		expect(expired.status).toBe(403);
		expect(expired.headers.get('content-type')).toMatch(/^text\/plain/);
		expect(await expired.text()).toMatch(/expired/);
		now = h.sim.clock.now();
	});
});

describe('E16 and E17 trends and signals', () => {
	test('config lists Trends and Signals with name, code, label, unit', async () => {
		const a = drive('Basic');
		const config = expectSuccess(
			await h.api(a.orgId, 'GET', `/assetdata/${a.id}/trendsignal/config`),
		);
		expect(config.trends.length).toBeGreaterThan(0);
		expect(config.signals.length).toBeGreaterThan(0);
		expect(Object.keys(config.trends[0]).sort()).toEqual(['code', 'label', 'name', 'unit']);
		const m = motor('Basic');
		expect(
			expectSuccess(
				await h.api(m.orgId, 'GET', `/assetdata/${m.id}/trendsignal/config`),
			).trends.map((t: { code: string }) => t.code),
		).toContain('VIB_RMS');
	});

	test('an hour or less returns raw points (30 s apart) with epoch-millisecond numerals (A6)', async () => {
		const end = now - DAY;
		const [data] = expectSuccess(await series(drive('Premium'), end - HOUR, end)).paramDatas;
		expect(data.config.code).toBe('01.01');
		const stamps = data.timestamp.map(Number);
		expect(data.timestamp.every((t: string) => /^\d+$/.test(t))).toBe(true);
		expect(stamps[1] - stamps[0]).toBe(30_000);
		expect(stamps.length).toBeGreaterThanOrEqual(120);
		for (const key of ['avg', 'max', 'min', 'value']) expect(data[key]).toHaveLength(stamps.length);
	});

	test('over one hour returns 5-minute aggregates with min <= avg <= max', async () => {
		const end = now - DAY;
		const [data] = expectSuccess(
			await series(drive('Premium'), end - HOUR - 60_000, end),
		).paramDatas;
		const stamps = data.timestamp.map(Number);
		expect(stamps[1] - stamps[0]).toBe(LIMITS.aggregateStepMinutes * 60_000);
		data.avg.forEach((avg: number | string, i: number) => {
			if (avg !== '-') expect(data.min[i] <= avg && avg <= data.max[i]).toBe(true);
		});
	});

	test('an interval over 30 days is cut to start plus 30 days', async () => {
		const start = now - 80 * DAY;
		const [data] = expectSuccess(
			await series(drive('Premium'), start, start + 45 * DAY),
		).paramDatas;
		expect(Number(data.timestamp.at(-1))).toBeLessThanOrEqual(
			start + LIMITS.trendSignalWindowDays * DAY,
		);
		expect(Number(data.timestamp.at(-1))).toBeGreaterThan(start + 29 * DAY);
	});

	test("collection points without a value are '-'", async () => {
		const [data] = expectSuccess(
			await series(drive('Premium'), now - 40 * DAY, now - 10 * DAY),
		).paramDatas;
		expect(data.avg).toContain('-');
		expect(data.avg.some((v: unknown) => typeof v === 'number')).toBe(true);
		const young = h.asset(
			(a) => a.assetType === 'Drive' && Date.parse(a.createdOn) > now - 7 * DAY,
			'recently added drive',
		);
		const [before] = expectSuccess(
			await series(
				young,
				Date.parse(young.createdOn) - HOUR,
				Date.parse(young.createdOn) - HOUR / 2,
			),
		).paramDatas;
		expect(new Set(before.value)).toEqual(new Set(['-']));
	});

	test('history: Basic 91 days back gives 102403; Standard 300 days back passes', async () => {
		expectRefusal(await series(drive('Basic'), now - 91 * DAY, now - 90 * DAY), 102403);
		expectSuccess(await series(drive('Standard'), now - 300 * DAY, now - 299 * DAY));
	});

	test('an unknown parameter code gives 100400 naming it', async () => {
		const answer = await series(drive('Premium'), now - HOUR, now, ['01.01', 'NOPE']);
		expectRefusal(answer, 100400);
		expect(answer.body.message).toMatch(/NOPE/);
	});
});

describe('E18 health conditions filtered by level', () => {
	test.each([
		['Entry', ['Overall']],
		['Basic', ['Overall', 'Availability', 'Environment', 'Reliability']],
		['Standard', ['Overall', 'Availability', 'Environment', 'Reliability', 'Stress']],
		['Premium', ['Overall', 'Availability', 'Environment', 'Reliability', 'Stress']],
	])('%s gets %j', async (level, types) => {
		const a = drive(level);
		const conditions = expectSuccess(await h.api(a.orgId, 'GET', `/assetdata/${a.id}/condition`));
		expect(conditions.map((c: { type: string }) => c.type)).toEqual(types);
		for (const c of conditions)
			expect(['Unknown', 'Good', 'Tolerable', 'Poor']).toContain(c.status);
	});

	test('control.setCondition shows in E18', async () => {
		const a = drive('Premium');
		h.sim.control.setCondition(a.id, 'Stress', 'Poor');
		expect(
			expectSuccess(await h.api(a.orgId, 'GET', `/assetdata/${a.id}/condition`)),
		).toContainEqual({ type: 'Stress', status: 'Poor' });
	});
});

describe('E19 and E20 CBM', () => {
	test('Standard and Premium drives of both CBM families get Fan, Capacitor and IGBT with 30 daily KPIs (UTC+8 dates)', async () => {
		for (const [level, family] of [
			['Standard', 'ACS880'],
			['Premium', 'ACS580'],
		]) {
			const a = drive(level, family);
			const cbm = expectSuccess(await h.api(a.orgId, 'GET', `/assetdata/${a.id}/cbm`));
			expect(cbm.map((u: { deviceUnitType: string }) => u.deviceUnitType).sort()).toEqual([
				'Capacitor',
				'Fan',
				'IGBT',
			]);
			for (const unit of cbm) {
				expect(['Gray', 'Good', 'Yellow', 'Red']).toContain(unit.deviceUnitStatus);
				expect(unit.predictedRunPlanDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
				expect(unit.deviceDayKPIs).toHaveLength(30);
				expect(unit.deviceDayKPIs.at(-1).date).toBe(
					new Date(now + 8 * HOUR).toISOString().slice(0, 10),
				);
				for (const k of unit.deviceDayKPIs) expect([0, 0.01, 0.5, 1]).toContain(k.kpi);
			}
		}
	});

	test('Entry and Basic are denied with 102403', async () => {
		for (const level of ['Entry', 'Basic']) {
			const a = drive(level);
			expectRefusal(await h.api(a.orgId, 'GET', `/assetdata/${a.id}/cbm`), 102403);
			expectRefusal(
				await h.api(a.orgId, 'PUT', '/assetdata/asset/cbm/unit', {
					assetId: a.id,
					deviceUnitType: 1,
					commissioningdate: iso(now - DAY),
				}),
				102403,
			);
		}
	});

	test('drives of other families and motors give 102202 (CBM supports two drive families)', async () => {
		const other = drive('Premium', 'ACS380');
		expectRefusal(await h.api(other.orgId, 'GET', `/assetdata/${other.id}/cbm`), 102202);
		const m = motor('Premium');
		expectRefusal(await h.api(m.orgId, 'GET', `/assetdata/${m.id}/cbm`), 102202);
	});

	test('E20 echoes the body and moves the predicted dates; a bad unit type or future date gives 100400', async () => {
		const a = drive('Premium');
		const commissioned = iso(now - 30 * DAY);
		const echo = expectSuccess(
			await h.api(a.orgId, 'PUT', '/assetdata/asset/cbm/unit', {
				assetId: a.id,
				deviceUnitType: 1,
				commissioningdate: commissioned,
			}),
		);
		expect(echo).toEqual({ assetId: a.id, deviceUnitType: 1, commissioningdate: commissioned });
		const fan = expectSuccess(await h.api(a.orgId, 'GET', `/assetdata/${a.id}/cbm`)).find(
			(u: { deviceUnitType: string }) => u.deviceUnitType === 'Fan',
		);
		expect(fan.predictedRunPlanDate).toBe(
			new Date(now - 30 * DAY + 6 * 365 * DAY + 8 * HOUR).toISOString().slice(0, 10),
		);
		expect(fan.deviceUnitStatus).toBe('Good');
		expectRefusal(
			await h.api(a.orgId, 'PUT', '/assetdata/asset/cbm/unit', {
				assetId: a.id,
				deviceUnitType: 4,
				commissioningdate: commissioned,
			}),
			100400,
		);
		expectRefusal(
			await h.api(a.orgId, 'PUT', '/assetdata/asset/cbm/unit', {
				assetId: a.id,
				deviceUnitType: 2,
				commissioningdate: iso(now + DAY),
			}),
			100400,
		);
	});

	test('control.setCbmUnit changes E19 and announces cbm.daily on the bus', async () => {
		const a = drive('Standard');
		const seen: number[] = [];
		const off = h.sim.bus.on('cbm.daily', (e) => seen.push(e.assetId));
		h.sim.control.setCbmUnit(a.id, 'IGBT', 'Red');
		off();
		expect(seen).toEqual([a.id]);
		const cbm = expectSuccess(await h.api(a.orgId, 'GET', `/assetdata/${a.id}/cbm`));
		expect(cbm.find((u: { deviceUnitType: string }) => u.deviceUnitType === 'IGBT')).toMatchObject({
			deviceUnitStatus: 'Red',
		});
	});
});

describe('E21 to E23 reports', () => {
	const utc8 = (ms: number): string => new Date(ms + 8 * HOUR).toISOString().slice(0, 10);
	const create = (a: AssetSummary, overrides: Record<string, unknown> = {}) =>
		h.api(a.orgId, 'POST', '/assetdata/asset/report', {
			assetIds: [a.id],
			title: 'Pump report',
			subTitle: 'October',
			reportType: 1,
			startDateTime: utc8(now - 40 * DAY),
			endDateTime: utc8(now - 10 * DAY),
			...overrides,
		});

	test('a report is created as Creating, becomes Created on the clock, is announced, listed and downloads a PDF naming the asset and period', async () => {
		const a = drive('Basic');
		const finished: number[] = [];
		const off = h.sim.bus.on('report.finished', (e) => finished.push(Number(e.report.id)));
		const report = expectSuccess(await create(a));
		expect(report).toMatchObject({
			status: 'Creating',
			reportType: 'UserDriveReport',
			title: 'Pump report',
			subTitle: 'October',
			startDateTime: expect.stringMatching(/T16:00:00Z$/),
		});
		const pending = expectSuccess(
			await h.api(a.orgId, 'GET', `/assetdata/${a.id}/report/download/${report.id}`),
		);
		expect(pending).toEqual({ id: report.id, fileTemplink: null, status: 'Creating' });
		h.sim.clock.advance(60_000);
		off();
		expect(finished).toEqual([report.id]);
		const listed = expectSuccess(await h.api(a.orgId, 'GET', `/assetdata/${a.id}/report`));
		expect(listed.find((r: { id: number }) => r.id === report.id)).toMatchObject({
			status: 'Created',
		});
		const download = expectSuccess(
			await h.api(a.orgId, 'GET', `/assetdata/${a.id}/report/download/${report.id}`),
		);
		expect(download).toMatchObject({
			id: report.id,
			status: 'Created',
			fileTemplink: expect.stringContaining('/files/report/'),
		});
		const res = await fetch(download.fileTemplink);
		expect(res.headers.get('content-type')).toBe('application/pdf');
		expect(res.headers.get('content-disposition')).toBe(
			`attachment; filename="report-${report.id}.pdf"`,
		);
		const pdf = Buffer.from(await res.arrayBuffer()).toString('latin1');
		expect(pdf.startsWith('%PDF-1.4')).toBe(true);
		expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
		// A valid file: the cross-reference table points at each object, the stream length is exact.
		const xrefAt = Number(/startxref\n(\d+)/.exec(pdf)?.[1]);
		expect(pdf.slice(xrefAt, xrefAt + 4)).toBe('xref');
		const offsets = [...pdf.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) =>
			Number(m[1]),
		);
		expect(offsets.length).toBeGreaterThanOrEqual(5);
		offsets.forEach((offset, i) =>
			expect(pdf.slice(offset, offset + 10)).toMatch(new RegExp(`^${i + 1} 0 obj`)),
		);
		const stream = /<< \/Length (\d+) >>\nstream\n/.exec(pdf)!;
		expect(
			pdf.slice(
				stream.index + stream[0].length + Number(stream[1]),
				stream.index + stream[0].length + Number(stream[1]) + 10,
			),
		).toBe('\nendstream');
		expect(pdf).toContain(a.name);
		expect(pdf).toContain(`${utc8(now - 40 * DAY)} to ${utc8(now - 10 * DAY)}`);
		now = h.sim.clock.now();
	});

	test('failure rule: a period before the assets existed ends Failed, with no link', async () => {
		const a = drive('Premium');
		const created = Date.parse(a.createdOn);
		const report = expectSuccess(
			await create(a, {
				startDateTime: utc8(created - 40 * DAY),
				endDateTime: utc8(created - 20 * DAY),
			}),
		);
		h.sim.clock.advance(60_000);
		expect(
			expectSuccess(await h.api(a.orgId, 'GET', `/assetdata/${a.id}/report/download/${report.id}`)),
		).toEqual({ id: report.id, fileTemplink: null, status: 'Failed' });
		now = h.sim.clock.now();
	});

	test('control.finishReport ends a report at once', async () => {
		const a = drive('Standard');
		const report = expectSuccess(await create(a));
		expect(h.sim.control.finishReport(report.id, 'Failed', 'operator')).toMatchObject({
			status: 'Failed',
		});
	});

	test('UserFleetReport takes several assets; UserDriveReport with two assets gives 100400', async () => {
		const a = drive('Basic');
		const same = h.asset(
			(x) =>
				x.orgId === a.orgId &&
				x.id !== a.id &&
				x.assetType === 'Drive' &&
				['Basic', 'Standard', 'Premium'].includes(x.level) &&
				Date.parse(x.createdOn) < now - 30 * DAY,
			'second reportable drive of the organization',
		);
		expect(
			expectSuccess(await create(a, { assetIds: [a.id, same.id], reportType: 2 })),
		).toMatchObject({ reportType: 'UserFleetReport' });
		expectRefusal(await create(a, { assetIds: [a.id, same.id], reportType: 1 }), 100400);
	});

	test(`interval limits: ${LIMITS.reportIntervalMinDays} and ${LIMITS.reportIntervalMaxDays} days pass, 6 and 91 give 100400`, async () => {
		const a = drive('Premium');
		const end = now - 2 * DAY;
		expectSuccess(await create(a, { startDateTime: utc8(end - 7 * DAY), endDateTime: utc8(end) }));
		expectSuccess(await create(a, { startDateTime: utc8(end - 90 * DAY), endDateTime: utc8(end) }));
		expectRefusal(
			await create(a, { startDateTime: utc8(end - 6 * DAY), endDateTime: utc8(end) }),
			100400,
		);
		expectRefusal(
			await create(a, { startDateTime: utc8(end - 91 * DAY), endDateTime: utc8(end) }),
			100400,
		);
	});

	test(`title and subtitle limits: ${LIMITS.reportTitleMax + 1} characters give 100400`, async () => {
		const a = drive('Premium');
		expectSuccess(
			await create(a, {
				title: 't'.repeat(LIMITS.reportTitleMax),
				subTitle: 's'.repeat(LIMITS.reportSubTitleMax),
			}),
		);
		expectRefusal(await create(a, { title: 't'.repeat(LIMITS.reportTitleMax + 1) }), 100400);
		expectRefusal(await create(a, { subTitle: 's'.repeat(LIMITS.reportSubTitleMax + 1) }), 100400);
	});

	test('an asset added less than 7 days ago cannot be reported (100400)', async () => {
		const young = h.asset(
			(a) =>
				a.assetType === 'Drive' && Date.parse(a.createdOn) > now - 7 * DAY && a.level !== 'expired',
			'recently added drive',
		);
		const answer = await create(young);
		expectRefusal(answer, 100400);
		expect(answer.body.message).toMatch(/7 days after it was added/);
	});

	test('Entry is denied reports: create, list and download give 102403', async () => {
		const a = drive('Entry');
		expectRefusal(await create(a), 102403);
		expectRefusal(await h.api(a.orgId, 'GET', `/assetdata/${a.id}/report`), 102403);
		expectRefusal(await h.api(a.orgId, 'GET', `/assetdata/${a.id}/report/download/1`), 102403);
	});

	test('E22 lists only reports of the last 7 days', async () => {
		const withSeeded = h.sim.fleet
			.assets()
			.filter((a) => a.level !== 'Entry' && a.level !== 'expired' && a.assetType !== 'PowerTrain');
		for (const a of withSeeded.slice(0, 3)) {
			for (const r of expectSuccess(await h.api(a.orgId, 'GET', `/assetdata/${a.id}/report`))) {
				expect(Date.parse(r.createdOn)).toBeGreaterThanOrEqual(
					now - LIMITS.reportListingDays * DAY,
				);
			}
		}
		const listed = expectSuccess(
			await h.api(withSeeded[0].orgId, 'GET', `/assetdata/${withSeeded[0].id}/report`),
		);
		expect(listed.length).toBeGreaterThan(0);
	});

	test('E23: an unknown report, or one of another asset, gives 107201', async () => {
		const a = drive('Premium');
		expectRefusal(await h.api(a.orgId, 'GET', `/assetdata/${a.id}/report/download/999999`), 107201);
		const other = drive('Basic');
		const report = expectSuccess(await create(other));
		expectRefusal(
			await h.api(a.orgId, 'GET', `/assetdata/${a.id}/report/download/${report.id}`),
			107201,
		);
	});
});

describe('E24 and E25 parameter backups', () => {
	const list = (a: AssetSummary, start: number, end: number) =>
		h.api(
			a.orgId,
			'GET',
			`/assetdata/${a.id}/parameterbackup/list?startUTCTime=${iso(start)}&endUTCTime=${iso(end)}`,
		);

	test('drives of any level list backups with UTC+8 times; content has groups of string parameters', async () => {
		for (const level of ['Entry', 'Premium']) {
			const a = drive(level);
			const items = expectSuccess(await list(a, now - 365 * DAY, now));
			expect(items.length).toBeGreaterThan(0);
			expect(items[0].backupTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
			const content = expectSuccess(
				await h.api(a.orgId, 'GET', `/assetdata/${a.id}/parameterbackup/${items[0].id}`),
			);
			expect(content[0]).toMatchObject({ title: expect.any(String) });
			expect(Object.keys(content[0].parameters[0]).sort()).toEqual([
				'maximum',
				'minimum',
				'name',
				'paraId',
				'unit',
				'value',
			]);
			for (const p of content[0].parameters)
				for (const v of Object.values(p)) expect(typeof v).toBe('string');
		}
	});

	test('no earliest date: a window two years back is answered', async () => {
		const a = h.sim.fleet
			.assets()
			.filter((x) => x.assetType === 'Drive')
			.sort((x, y) => Date.parse(x.createdOn) - Date.parse(y.createdOn))[0];
		expect(
			expectSuccess(
				await list(a, Date.parse(a.createdOn) - DAY, Date.parse(a.createdOn) + 30 * DAY),
			).length,
		).toBeGreaterThan(0);
	});

	test('a span over 365 days gives 100400', async () => {
		expectRefusal(await list(drive('Premium'), now - 366 * DAY, now), 100400);
	});

	test('motors give 102202 on both endpoints; an unknown backup id 100400', async () => {
		const m = motor('Premium');
		expectRefusal(await list(m, now - DAY, now), 102202);
		expectRefusal(await h.api(m.orgId, 'GET', `/assetdata/${m.id}/parameterbackup/PB-1-1`), 102202);
		const a = drive('Premium');
		expectRefusal(await h.api(a.orgId, 'GET', `/assetdata/${a.id}/parameterbackup/PB-1-1`), 100400);
	});
});
