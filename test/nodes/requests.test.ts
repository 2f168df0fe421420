// What the node sends and how many at once: Options > Parallel Requests (requests in flight
// across items and the pieces of a long range, counted where they arrive, the simulator, which
// answers slowly here so that requests sent together overlap), 429s, one token per execution
// even when it is refused mid-way (H2), and the level of the history check reused (H3).
import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { DriveMonitoring } from '../../nodes/DriveMonitoring/DriveMonitoring.node';
import { DEFAULT_PARALLEL_REQUESTS } from '../../nodes/DriveMonitoring/actions/common';
import { resources } from '../../nodes/DriveMonitoring/actions/resources';
import { startFixture, type Fixture } from './fixture';

let f: Fixture;
beforeAll(async () => {
	f = await startFixture();
});
afterAll(async () => await f.close());
afterEach(() => f.sim.faults.clear());

const rl = (value: string | number) => ({ __rl: true, mode: 'id', value });
const DAY = 86_400_000;

async function run(parameters: INodeParameters, input: Array<Record<string, unknown>>) {
	const workflow = f.engine.readWorkflow('single-operation.json');
	return await f.engine.run(workflow, {
		input: input.map((json) => ({ json: json as never })),
		parameters: { 'Drive Monitoring': parameters },
	});
}

function drives(count: number) {
	const all = f.sim.fleet
		.assets()
		.filter((a) => a.orgId === f.euOrgId && a.assetType !== 'PowerTrain');
	return Array.from({ length: count }, (_, i) => ({ assetId: all[i % all.length].id }));
}

const assetGet = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'asset',
	operation: 'get',
	asset: rl('={{ $json.assetId }}'),
	simplify: true,
	options,
});

test(`by default a year of events (53 seven-day pieces) goes out in one round: ${DEFAULT_PARALLEL_REQUESTS} requests may be in flight`, async () => {
	const drive = f.asset((a) => a.assetType === 'Drive' && a.level === 'Premium', 'Premium drive');
	const end = new Date(f.sim.clock.now());
	const start = new Date(end.getTime() - 365 * DAY + 60_000);
	f.sim.faults.set({ paths: ['/event'], latencyMs: 1500 });
	f.sim.requests.clear();
	const result = await run(
		{
			resource: 'event',
			operation: 'getMany',
			asset: rl(drive.id),
			startTime: start.toISOString(),
			endTime: end.toISOString(),
			returnAll: true,
			filters: {},
		},
		[{}],
	);
	expect(result.run.status).toBe('success');
	expect(f.sim.requests.api('E14')).toHaveLength(53);
	expect(f.sim.requests.peakInFlight).toBe(53);
	f.sim.faults.clear();
	const expected = await f.direct.ranges.events({
		assetId: drive.id,
		startTime: start,
		endTime: end,
	});
	expect(result.output('Drive Monitoring')!.map((item) => item.json.id)).toEqual(
		expected.map((e) => e.id),
	);
});

test(`items: at most ${DEFAULT_PARALLEL_REQUESTS} requests in flight by default, each output paired with its item`, async () => {
	const input = drives(DEFAULT_PARALLEL_REQUESTS + 6);
	f.sim.faults.set({ paths: ['/assetmanagement/asset/'], latencyMs: 1000 });
	f.sim.requests.clear();
	const result = await run(assetGet(), input);
	expect(result.run.status).toBe('success');
	const output = result.output('Drive Monitoring')!;
	expect(output.map((item) => [item.json.id, item.pairedItem])).toEqual(
		input.map((json, i) => [json.assetId, { item: i }]),
	);
	expect(f.sim.requests.peakInFlight).toBe(DEFAULT_PARALLEL_REQUESTS);
});

test('Parallel Requests set to 3: never more than 3 requests in flight, for items and for the pieces of a range', async () => {
	f.sim.faults.set({ paths: ['/assetmanagement/asset/', '/event'], latencyMs: 150 });
	f.sim.requests.clear();
	const items = await run(assetGet({ parallelRequests: 3 }), drives(20));
	expect(items.run.status).toBe('success');
	expect(items.output('Drive Monitoring')).toHaveLength(20);
	expect(f.sim.requests.peakInFlight).toBe(3);

	const drive = f.asset((a) => a.assetType === 'Drive' && a.level === 'Premium', 'Premium drive');
	const end = new Date(f.sim.clock.now());
	f.sim.requests.clear();
	const range = await run(
		{
			resource: 'event',
			operation: 'getMany',
			asset: rl(drive.id),
			startTime: new Date(end.getTime() - 68 * DAY).toISOString(),
			endTime: end.toISOString(),
			returnAll: true,
			filters: {},
			options: { parallelRequests: 3 },
		},
		[{}],
	);
	expect(range.run.status).toBe('success');
	expect(f.sim.requests.api('E14')).toHaveLength(10);
	expect(f.sim.requests.peakInFlight).toBe(3);
});

test('requests the platform refuses as too many (429) are sent again after its Retry-After: every item succeeds, none is sent twice', async () => {
	f.sim.faults.set({
		paths: ['/assetmanagement/asset/'],
		rateLimitRate: 1,
		retryAfterSec: 1,
		times: 3,
	});
	f.sim.requests.clear();
	const result = await run(assetGet(), drives(12));
	expect(result.nodeError('Drive Monitoring')?.message).toBeUndefined();
	expect(result.run.status).toBe('success');
	expect(result.output('Drive Monitoring')).toHaveLength(12);
	const e8 = f.sim.requests.entries.filter((r) => r.path.includes('/assetmanagement/asset/'));
	expect(e8.filter((r) => r.status === 429)).toHaveLength(3);
	expect(e8.filter((r) => r.status === 200)).toHaveLength(12);
});

test('a Parallel Requests value that is not a whole number from 1 to 100 is refused before any request', async () => {
	for (const value of [0, 2.5, 101]) {
		const before = f.sim.requests.count;
		const result = await run(assetGet({ parallelRequests: '={{ $json.parallel }}' }), [
			{ ...drives(1)[0], parallel: value },
		]);
		const error = result.nodeError('Drive Monitoring');
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe(`Parallel Requests: ${value} is not a whole number from 1 to 100`);
		expect(f.sim.requests.count).toBe(before);
	}
});

test('every read operation offers Parallel Requests under Options (default stated); operations that change something do not', () => {
	const properties = new DriveMonitoring().description.properties;
	const optionsOf = (resource: string, operation: string) =>
		properties.filter(
			(p) =>
				p.name === 'options' &&
				p.displayOptions?.show?.resource?.includes(resource) &&
				p.displayOptions?.show?.operation?.includes(operation),
		);
	for (const resource of resources) {
		for (const operation of resource.operations) {
			const parallel = optionsOf(resource.value, operation.option.value as string)
				.flatMap((p) => (p.options ?? []) as INodeProperties[])
				.filter((o) => o.name === 'parallelRequests');
			expect([`${resource.value}.${operation.option.value}`, parallel.length]).toEqual([
				`${resource.value}.${operation.option.value}`,
				operation.readOnly ? 1 : 0,
			]);
			if (operation.readOnly) {
				expect(parallel[0].default).toBe(DEFAULT_PARALLEL_REQUESTS);
				expect(parallel[0].description).toContain(`default ${DEFAULT_PARALLEL_REQUESTS}`);
			}
		}
	}
});

describe('the level read for the history check (E9)', () => {
	const yearOfEvents = (assetId: number, days: number): INodeParameters => {
		const end = f.sim.clock.now();
		return {
			resource: 'event',
			operation: 'getMany',
			asset: rl(assetId),
			startTime: new Date(end - days * DAY + 60_000).toISOString(),
			endTime: new Date(end).toISOString(),
			returnAll: true,
			filters: {},
		};
	};

	test('is reused by the next executions with the same credential when the range fits it', async () => {
		// Not the Premium drive of the tests above: its level may already have been read.
		const drive = f.asset(
			(a) => a.assetType === 'Drive' && a.level === 'Standard',
			'Standard drive',
		);
		f.sim.requests.clear();
		for (let run = 0; run < 3; run++) {
			const result = await run_(yearOfEvents(drive.id, 365));
			expect(result.run.status).toBe('success');
		}
		expect(f.sim.requests.api('E14')).toHaveLength(3 * 53);
		expect(f.sim.requests.api('E9').filter((r) => r.path.endsWith(`/${drive.id}`))).toHaveLength(1);
	});

	test('a reused level never refuses on its own: a range past it reads the level again, and only that answer refuses', async () => {
		const basic = f.asset((a) => a.assetType === 'Drive' && a.level === 'Basic', 'Basic drive');
		f.sim.requests.clear();
		expect((await run_(yearOfEvents(basic.id, 80))).run.status).toBe('success');
		expect(f.sim.requests.api('E9')).toHaveLength(0);
		for (let run = 0; run < 2; run++) {
			const result = await run_(yearOfEvents(basic.id, 200));
			expect(result.nodeError('Drive Monitoring')?.message).toMatch(
				/history range of a Basic asset.*90 days/,
			);
		}
		expect(f.sim.requests.api('E9')).toHaveLength(2);
		expect(f.sim.requests.api('E14')).toHaveLength(12);
	});
});

async function run_(parameters: INodeParameters) {
	return await run(parameters, [{}]);
}

test('a token refused in the middle of an execution is fetched again once; every later request of the execution sends the new one', async () => {
	// A token the simulator never issued: refused (401) as an expired one would be.
	const stale = ['stale', 'token', 'of', 'yesterday'].join('.');
	f.engine.addCredential({
		id: 'refresh',
		name: 'refreshed in flight',
		type: 'driveMonitoringApi',
		data: { ...f.euCredential, accessToken: stale },
	});
	const workflow = f.engine.readWorkflow('single-operation.json');
	workflow.nodes[1].credentials = {
		driveMonitoringApi: { id: 'refresh', name: 'refreshed in flight' },
	};
	f.sim.requests.clear();
	const result = await f.engine.run(workflow, { input: drives(40).map((json) => ({ json })) });
	expect(result.run.status).toBe('success');
	expect(result.output('Drive Monitoring')).toHaveLength(40);
	expect(f.engine.credentialsHelper.preAuthenticationCalls.get('refresh')).toBe(1);
	// A refused request is logged without its endpoint (the token is checked first): by path.
	const e8 = f.sim.requests.entries.filter((r) => r.path.includes('/assetmanagement/asset/'));
	expect(e8.filter((r) => r.status === 401)).toHaveLength(1);
	expect(e8.filter((r) => r.status === 200)).toHaveLength(40);
});
