// The node as n8n's AI tool (the `…Tool` type n8n generates from usableAsTool), run in n8n's engine
// against the simulator: read answers are compact and bounded, and the full data stays one option away.
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { addToolType, NODE_TYPE, startFixture, TOOL_TYPE, type Fixture } from './fixture';
import type { WorkflowJson } from '../helpers/n8n/engine';

const DAY = 24 * 60 * 60 * 1000;

let f: Fixture;
beforeAll(async () => {
	f = await startFixture();
	addToolType(f.engine);
});
afterAll(async () => await f.close());

function workflow(type: string, parameters: INodeParameters): WorkflowJson {
	const json = f.engine.readWorkflow('single-operation.json');
	json.nodes[1] = { ...json.nodes[1], type, parameters };
	return json;
}

async function answer(type: string, parameters: INodeParameters): Promise<IDataObject[]> {
	const result = await f.engine.run(workflow(type, parameters));
	expect(result.nodeError('Drive Monitoring')).toBeUndefined();
	return result.output('Drive Monitoring')!.map((item) => item.json);
}

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

describe('trend and signal data as a tool', () => {
	let drive: { id: number };
	let trend: (options?: INodeParameters) => INodeParameters;
	beforeAll(async () => {
		drive = f.asset((a) => a.assetType === 'Drive' && a.level === 'Premium', 'Premium drive');
		const config = await f.direct.assetData.getTrendSignalConfig({ assetId: drive.id });
		const now = f.sim.clock.now();
		trend = (options = {}) => ({
			resource: 'trendSignal',
			operation: 'getData',
			asset: { __rl: true, mode: 'id', value: drive.id },
			parameters: config.trends.slice(0, 2).map((t) => t.code),
			startTime: new Date(now - 45 * DAY).toISOString(),
			endTime: new Date(now).toISOString(),
			output: 'parameter',
			simplify: true,
			options,
		});
	});

	test('a 45-day trend is summarized per signal under 16 KB, with the statistics of the full data', async () => {
		const full = await answer(NODE_TYPE, trend());
		const compact = await answer(TOOL_TYPE, trend());
		expect(bytes(full)).toBeGreaterThan(100_000);
		expect(bytes(compact)).toBeLessThanOrEqual(16_000);
		expect(compact).toHaveLength(full.length);
		for (const [index, series] of full.entries()) {
			const values = (series.points as Array<{ value: number | null }>)
				.map((p) => p.value)
				.filter((v): v is number => typeof v === 'number');
			const summary = compact[index];
			expect(summary.code).toBe(series.code);
			expect(summary).toHaveProperty('unit', series.unit);
			expect(summary.min).toBe(Math.min(...values));
			expect(summary.max).toBe(Math.max(...values));
			expect(summary.mean as number).toBeCloseTo(
				values.reduce((s, v) => s + v, 0) / values.length,
				2,
			);
			expect((summary.last as IDataObject).value).toBe(values[values.length - 1]);
			// At most 100 means of equal time buckets from the first point to the last, no timestamp per value.
			const buckets = summary.series as {
				from: string;
				to: string;
				bucketMinutes: number;
				bucketMeans: Array<number | null>;
			};
			expect(buckets.bucketMeans.length).toBeLessThanOrEqual(100);
			expect(Date.parse(buckets.from)).toBe(
				Date.parse(String((series.points as IDataObject[])[0].timestamp)),
			);
			expect(Date.parse(buckets.to)).toBe(
				Date.parse(String((series.points as IDataObject[]).at(-1)!.timestamp)),
			);
			expect(buckets.bucketMinutes * buckets.bucketMeans.length).toBeCloseTo(
				(Date.parse(buckets.to) - Date.parse(buckets.from)) / 60_000,
				0,
			);
			for (const mean of buckets.bucketMeans)
				if (mean !== null) expect(mean).toBeGreaterThanOrEqual(summary.min as number);
			expect(summary.points).toBeUndefined();
		}
	});

	test('the Full Data option gives the tool the whole answer; a lower bound is kept', async () => {
		const full = await answer(NODE_TYPE, trend());
		const asTool = await answer(TOOL_TYPE, trend({ toolFullData: true }));
		expect(asTool).toEqual(full);
		const small = await answer(TOOL_TYPE, trend({ toolAnswerBytes: 4000 }));
		expect(bytes(small)).toBeLessThanOrEqual(4000);
		expect(small[0].min).toBeDefined();
	});
});

test('a long event list as a tool: the newest 20 with the total and how to get more', async () => {
	const drive = f.asset((a) => a.assetType === 'Drive' && a.level === 'Premium', 'Premium drive');
	const now = f.sim.clock.now();
	const parameters: INodeParameters = {
		resource: 'event',
		operation: 'getMany',
		asset: { __rl: true, mode: 'id', value: drive.id },
		startTime: new Date(now - 300 * DAY).toISOString(),
		endTime: new Date(now).toISOString(),
		returnAll: true,
		filters: {},
		options: {},
	};
	const full = await answer(NODE_TYPE, parameters);
	expect(full.length).toBeGreaterThan(20);
	const [compact, ...rest] = await answer(TOOL_TYPE, parameters);
	expect(rest).toHaveLength(0);
	expect(compact.total).toBe(full.length);
	const entries = compact.entries as IDataObject[];
	expect(entries).toHaveLength(20);
	expect(compact.more).toMatch(/newest 20 of \d+.*Full Data/);
	expect(bytes(compact)).toBeLessThanOrEqual(16_000);
	// Newest first, and every entry is one of the full list's events.
	const ids = new Set(full.map((e) => e.id));
	for (const entry of entries) expect(ids.has(entry.id)).toBe(true);
});

test('a date in words from a model fails with a message that says what to send', async () => {
	const drive = f.asset((a) => a.assetType === 'Drive' && a.level === 'Premium', 'Premium drive');
	const result = await f.engine.run(
		workflow(TOOL_TYPE, {
			resource: 'event',
			operation: 'getMany',
			asset: { __rl: true, mode: 'id', value: drive.id },
			startTime: 'two weeks ago',
			endTime: '2026-01-01T00:00:00Z',
			returnAll: true,
			filters: {},
			options: {},
		}),
	);
	// n8n's agent hands the model only the message, so the message itself names the format.
	expect(result.nodeError('Drive Monitoring')?.message).toMatch(
		/^Start Time: "two weeks ago" is not a date; send an ISO 8601 date-time such as \d{4}-/,
	);
});

test('a logger file as a tool: named, sized and typed, with no bytes in the answer', async () => {
	const drive = f.asset(
		(a) => a.assetType === 'Drive' && a.level === 'Premium' && a.cbmCapable,
		'Premium CBM drive',
	);
	const now = f.sim.clock.now();
	const events = await f.direct.ranges.events({
		assetId: drive.id,
		startTime: new Date(now - 60 * DAY),
		endTime: new Date(now),
	});
	const withLogger = events.find((e) => e.isHasEventLogger);
	expect(withLogger).toBeDefined();
	const parameters: INodeParameters = {
		resource: 'event',
		operation: 'getLoggerFile',
		asset: { __rl: true, mode: 'id', value: drive.id },
		eventId: String(withLogger!.id),
		linkOnly: false,
		binaryPropertyName: 'logger',
	};
	const asWorkflow = (await f.engine.run(workflow(NODE_TYPE, parameters))).output(
		'Drive Monitoring',
	)!;
	const file = asWorkflow[0].binary!.logger;
	const result = await f.engine.run(workflow(TOOL_TYPE, parameters));
	expect(result.nodeError('Drive Monitoring')).toBeUndefined();
	const [item] = result.output('Drive Monitoring')!;
	expect(item.binary).toBeUndefined();
	expect(item.json.files).toEqual([
		{
			binaryProperty: 'logger',
			fileName: file.fileName,
			fileSize: file.fileSize,
			mimeType: file.mimeType,
		},
	]);
	expect(JSON.stringify(item.json)).not.toContain(file.data.slice(0, 40));
});
