// What users see when something is wrong: bad parameters refused before any request, level
// denials explained with the asset's level, PowerTrain refusals, Continue On Fail, expired
// tokens refreshed, and no secret in any output or error.
import type { INodeParameters } from 'n8n-workflow';
import { CODE_INFO } from '../../shared/errorCatalog';
import { startFixture, type Fixture } from './fixture';

let f: Fixture;
beforeAll(async () => {
	f = await startFixture();
});
afterAll(async () => await f.close());

// A token the simulator never issued: it answers 401, as for an expired one.
const STALE_TOKEN = ['stale', 'token', 'from', 'yesterday'].join('.');

const rl = (value: string | number) => ({ __rl: true, mode: 'id', value });

async function runOne(parameters: INodeParameters, input: Array<Record<string, unknown>> = [{}]) {
	const workflow = f.engine.readWorkflow('single-operation.json');
	return await f.engine.run(workflow, {
		input: input.map((json) => ({ json: json as never })),
		parameters: { 'Drive Monitoring': parameters },
	});
}

describe('bad parameters are refused before any request is sent', () => {
	// Values arrive through expressions (from the input item), as in real workflows: the node
	// itself must refuse them. Fixed invalid values are already refused by the engine's checks.
	const cases: Array<[string, INodeParameters, unknown, RegExp]> = [
		[
			'an empty asset (names are resolved: see names.test.ts)',
			{ resource: 'asset', operation: 'get', asset: rl('={{ $json.value }}'), simplify: true },
			'  ',
			/Asset: " {2}" is not a valid ID/,
		],
		[
			'an asset group name over 20 characters',
			{
				resource: 'assetGroup',
				operation: 'create',
				organization: rl(13),
				name: '={{ $json.value }}',
			},
			'A very long asset group name',
			/name.*20 characters/i,
		],
		[
			'an empty new name',
			{ resource: 'asset', operation: 'rename', asset: rl(100029), newName: '={{ $json.value }}' },
			'  ',
			/New Name is empty/,
		],
		[
			'a start time that is not a date',
			{
				resource: 'event',
				operation: 'getMany',
				asset: rl(100029),
				startTime: '={{ $json.value }}',
				endTime: '2026-01-01T00:00:00Z',
				returnAll: true,
				filters: {},
				options: {},
			},
			'yesterday',
			/Start Time: "yesterday" is not a date/,
		],
		[
			'a report interval under 7 days',
			{
				resource: 'report',
				operation: 'create',
				reportType: 'UserDriveReport',
				asset: rl(100029),
				title: 'Short',
				startDate: '2026-11-01',
				endDate: '={{ $json.value }}',
				waitUntilReady: false,
			},
			'2026-11-03',
			/report interval must be 7 to 90 days/,
		],
		[
			'no trend codes',
			{
				resource: 'trendSignal',
				operation: 'getData',
				asset: rl(100029),
				parameters: '={{ $json.value }}',
				startTime: '2026-11-01T00:00:00Z',
				endTime: '2026-11-02T00:00:00Z',
				output: 'point',
				simplify: true,
				options: {},
			},
			[],
			/Parameter Names or IDs is empty/,
		],
		[
			'a malformed data-subscription user ID',
			{
				resource: 'dataSubscription',
				operation: 'deleteUser',
				subscriber: rl('={{ $json.value }}'),
			},
			'x',
			/Data-Subscription User: "x" is not a valid ID/,
		],
		[
			'a fleet report with no asset (names are resolved: see names.test.ts)',
			{
				resource: 'report',
				operation: 'create',
				reportType: 'UserFleetReport',
				assetIds: '={{ $json.value }}',
				title: 'Fleet',
				startDate: '2026-10-01',
				endDate: '2026-10-20',
				waitUntilReady: false,
			},
			[' ', ''],
			/Asset Names or IDs is empty/,
		],
	];

	test.each(cases)('%s', async (_what, parameters, value, message) => {
		const before = f.sim.requests.count;
		const result = await runOne(parameters, [{ value }]);
		const error = result.nodeError('Drive Monitoring');
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toMatch(message);
		expect(f.sim.requests.count).toBe(before);
	});

	test('a fixed invalid ID is refused by the engine before the workflow starts', async () => {
		const before = f.sim.requests.count;
		await expect(
			runOne({
				resource: 'report',
				operation: 'download',
				asset: rl(100029),
				report: rl('report-3'),
			}),
		).rejects.toThrow(/Not a valid Report ID/);
		expect(f.sim.requests.count).toBe(before);
	});
});

test('a level-denied operation says what the asset has and what it needs (102403)', async () => {
	const basic = f.asset(
		(a) => a.assetType === 'Drive' && a.level === 'Basic' && a.cbmCapable,
		'Basic CBM-capable drive',
	);
	const result = await runOne({
		resource: 'cbm',
		operation: 'getResults',
		asset: rl(basic.id),
		simplify: true,
	});
	const error = result.nodeError('Drive Monitoring');
	expect(error?.name).toBe('NodeApiError');
	expect(error?.message).toBe("The asset's subscription level does not allow this");
	expect(error?.description).toBe(
		'CBM analysis and commissioning-date updates need Standard or Premium; this asset is Basic. Bind a subscription code of a higher level to the asset.',
	);
	expect(error?.httpCode).toBe('403');
});

test('an event range reaching past the asset history is refused with the reason, before any event query', async () => {
	const basic = f.asset((a) => a.assetType === 'Drive' && a.level === 'Basic', 'Basic drive');
	const now = f.sim.clock.now();
	const before = f.sim.requests.api('E14').length;
	const result = await runOne({
		resource: 'event',
		operation: 'getMany',
		asset: rl(basic.id),
		startTime: new Date(now - 200 * 86_400_000).toISOString(),
		endTime: new Date(now).toISOString(),
		returnAll: true,
		filters: {},
		options: {},
	});
	const error = result.nodeError('Drive Monitoring');
	expect(error?.name).toBe('NodeOperationError');
	expect(error?.message).toMatch(/history range of a Basic asset.*90 days/);
	expect(f.sim.requests.api('E14').length).toBe(before);
});

test('PowerTrain assets are refused by the asset-management endpoints with the platform code', async () => {
	const powerTrain = f.asset((a) => a.assetType === 'PowerTrain', 'PowerTrain');
	const result = await runOne({ resource: 'asset', operation: 'delete', asset: rl(powerTrain.id) });
	const error = result.nodeError('Drive Monitoring');
	expect(error?.name).toBe('NodeApiError');
	expect(error?.message).toBe('This asset type is not supported here');
	expect(error?.description).toMatch(
		/^Asset functions work on drives and motors, not on PowerTrains: use the drive or the motor/,
	);
	expect((error as { errorResponse?: { code?: number } }).errorResponse?.code).toBe(102202);
	expect(f.sim.fleet.assets().some((a) => a.id === powerTrain.id)).toBe(true);
});

test('Continue On Fail: failed items carry their error, the others their result, each paired with its input', async () => {
	const drive = f.asset((a) => a.assetType === 'Drive', 'drive');
	const workflow = f.engine.readWorkflow('continue-on-fail.json');
	const result = await f.engine.run(workflow, {
		input: [
			{ json: { assetId: drive.id } },
			{ json: { assetId: 'not-an-id' } },
			{ json: { assetId: 999999 } },
			{ json: { assetId: drive.id } },
		],
	});
	expect(result.run.data.resultData.error).toBeUndefined();
	const items = result.output('Drive Monitoring')!;
	expect(items.map((i) => (i.pairedItem as { item: number }).item)).toEqual([0, 1, 2, 3]);
	expect(items[0].json).toMatchObject({ id: drive.id });
	expect(items[1].json.error).toMatch(/^Asset "not-an-id" matches no asset/);
	expect(items[2].json).toEqual({
		error: 'The asset does not exist',
		details: {
			code: 102201,
			httpCode: '400',
			description:
				'Check the asset ID, or pick the asset from the list of assets: it may have been deleted.',
		},
	});
	expect(items[3].json).toMatchObject({ id: drive.id });
});

test('an expired stored token is refreshed once and the request retried; secrets never reach output or errors', async () => {
	f.engine.addCredential({
		id: 'stale',
		name: 'stale token',
		type: 'driveMonitoringApi',
		data: { ...f.euCredential, accessToken: STALE_TOKEN },
	});
	const workflow = f.engine.readWorkflow('single-operation.json');
	workflow.nodes[1].credentials = { driveMonitoringApi: { id: 'stale', name: 'stale token' } };
	const drive = f.asset((a) => a.assetType === 'Drive', 'drive');
	const result = await f.engine.run(workflow, {
		input: [{ json: { assetId: drive.id } }, { json: { assetId: 999999 } }],
	});
	expect(f.engine.credentialsHelper.preAuthenticationCalls.get('stale')).toBe(1);
	const stored = f.engine.credentialsHelper.stored('stale')!.data.accessToken as string;
	expect(stored).not.toBe(STALE_TOKEN);

	// The second item fails (no such asset); neither its error nor anything else shows a secret.
	const everything = JSON.stringify(result.run);
	expect(result.nodeError('Drive Monitoring')?.message).toBe('The asset does not exist');
	for (const secret of [f.euCredential.apiSecret as string, stored])
		expect(everything).not.toContain(secret);
});

describe('unexpected answers from the platform', () => {
	afterEach(() => f.sim.faults.clear());
	const drive = () => f.asset((a) => a.assetType === 'Drive', 'drive');

	test('an HTML page instead of JSON fails the item with a clear error', async () => {
		f.sim.faults.set({
			paths: ['/assetmanagement/asset/'],
			malformedRate: 1,
			malformedKind: 'html',
		});
		const result = await runOne({
			resource: 'asset',
			operation: 'get',
			asset: rl(drive().id),
			simplify: true,
		});
		const error = result.nodeError('Drive Monitoring');
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('The Drive Monitoring platform sent an unexpected answer');
		expect(error?.description).toMatch(
			/^An HTML page instead of JSON \(a gateway or proxy error page\?\) \(HTTP 200\)\. Check the Base URL/,
		);
		// The page itself is in the details only.
		expect(error?.description).not.toMatch(/firewall/);
		expect(JSON.stringify((error as { errorResponse?: unknown }).errorResponse)).toMatch(
			/firewall/,
		);
	});

	test('truncated JSON fails the item with a clear error', async () => {
		f.sim.faults.set({
			paths: ['/assetmanagement/asset/'],
			malformedRate: 1,
			malformedKind: 'truncated',
		});
		const result = await runOne({
			resource: 'asset',
			operation: 'get',
			asset: rl(drive().id),
			simplify: true,
		});
		expect(result.nodeError('Drive Monitoring')?.message).toBe(
			'The Drive Monitoring platform sent an unexpected answer',
		);
	});

	test('unknown fields are kept, and a passing gateway error is retried by the core', async () => {
		f.sim.faults.set([
			{ paths: ['/assetmanagement/asset/'], errorRate: 1, errorStatus: 503, times: 1 },
			{ paths: ['/assetmanagement/asset/'], malformedRate: 1, malformedKind: 'extra-fields' },
		]);
		const result = await runOne({
			resource: 'asset',
			operation: 'get',
			asset: rl(drive().id),
			simplify: false,
		});
		expect(result.run.data.resultData.error).toBeUndefined();
		const [item] = result.output('Drive Monitoring')!;
		expect(item.json).toMatchObject({
			id: drive().id,
			unknownFieldAddedLater: 'ignored by clients',
		});
		expect(
			f.sim.requests.entries.filter(
				(r) => r.path.includes('/assetmanagement/asset/') && r.status === 503,
			),
		).toHaveLength(1);
	});
});

test('a create whose connection drops after sending says it may have been done, and how to check before repeating', async () => {
	f.sim.requests.clear();
	f.sim.faults.set({ paths: ['/organization/assetgroup'], resetRate: 1, times: 1 });
	try {
		const result = await runOne({
			resource: 'assetGroup',
			operation: 'create',
			organization: rl(f.euOrgId),
			name: 'Lost answer',
		});
		const error = result.nodeError('Drive Monitoring') as
			| (Error & { description?: string })
			| undefined;
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toMatch(
			/^The answer from the Drive Monitoring platform was lost: the connection was reset$/,
		);
		expect(error?.description).toBe(
			'The platform may have carried it out before the answer was lost, so it was not repeated: read the organization tree and look for the asset group before creating it again.',
		);
		// Sent once, never repeated by the core.
		expect(
			f.sim.requests.entries.filter(
				(r) => r.path.endsWith('/organization/assetgroup') && r.method === 'POST',
			),
		).toHaveLength(1);
	} finally {
		f.sim.faults.clear();
	}
});

test("the workflow's timeout bounds each call: a platform that hangs fails the node with a deadline error", async () => {
	f.sim.faults.set({ paths: ['/assetmanagement/asset/'], latencyMs: 5_000 });
	try {
		const workflow = f.engine.readWorkflow('single-operation.json');
		workflow.settings = { ...workflow.settings, executionTimeout: 1 };
		const drive = f.asset((a) => a.assetType === 'Drive', 'drive');
		const started = Date.now();
		const result = await f.engine.run(workflow, { input: [{ json: { assetId: drive.id } }] });
		const error = result.nodeError('Drive Monitoring') as
			| (Error & { description?: string; errorResponse?: Record<string, unknown> })
			| undefined;
		// Which request, after how long, and the setting that gives it more time.
		expect(error?.message).toBe(
			'Get asset detail did not finish within 0.9 s: the Drive Monitoring platform did not answer in time',
		);
		expect(error?.errorResponse).toMatchObject({ reason: 'DEADLINE', deadlineMs: 900 });
		expect(error?.description).toBe(
			'Try again in a few minutes; if the platform is often this slow, allow more time: raise Timeout Workflow in the workflow settings (now 1 s, of which a call of this node gets 90%).',
		);
		// Ended by the deadline (90% of the workflow's 1 s), well before the 5 s the platform would have taken.
		expect(Date.now() - started).toBeLessThan(4_500);
	} finally {
		f.sim.faults.clear();
	}
});

test("a long event range whose requests each answer in time but not all within the workflow's timeout: the read ends with how far it came", async () => {
	// 52 seven-day pieces, two at a time, 600 ms each: the whole would take about 16 s.
	f.sim.faults.set({ paths: [/\/assetdata\/\d+\/event$/], latencyMs: 600 });
	try {
		const workflow = f.engine.readWorkflow('single-operation.json');
		workflow.settings = { ...workflow.settings, executionTimeout: 2 };
		const premium = f.asset(
			(a) => a.assetType === 'Drive' && a.level === 'Premium',
			'Premium drive',
		);
		const now = f.sim.clock.now();
		const started = Date.now();
		const result = await f.engine.run(workflow, {
			input: [{ json: {} }],
			parameters: {
				'Drive Monitoring': {
					resource: 'event',
					operation: 'getMany',
					asset: rl(premium.id),
					startTime: new Date(now - 360 * 86_400_000).toISOString(),
					endTime: new Date(now).toISOString(),
					returnAll: true,
					filters: {},
					options: { parallelRequests: 2 },
				},
			},
		});
		const error = result.nodeError('Drive Monitoring') as
			| (Error & { description?: string; errorResponse?: Record<string, unknown> })
			| undefined;
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toMatch(
			new RegExp(
				`^Reading the events of asset ${premium.id} from \\S+Z to \\S+Z did not finish within 1.8 s$`,
			),
		);
		expect(error?.description).toMatch(
			/^\d+ of 52 parts were read; the platform had not yet answered for \S+Z to \S+Z\. Ask for a shorter time range(?: \([\d.]+ days were read in 1\.8 s\))?, or allow more time: raise Timeout Workflow in the workflow settings \(now 2 s, of which a call of this node gets 90%\)\.$/,
		);
		expect(error?.errorResponse).toMatchObject({
			reason: 'DEADLINE',
			deadlineMs: 1800,
			range: { total: 52 },
		});
		expect(`${error?.message} ${error?.description}`).not.toMatch(/\bE\d{1,2}\b/);
		// Ended by the deadline of the whole read (90% of the workflow's 2 s), well before the 16 s the pieces would take.
		expect(Date.now() - started).toBeLessThan(6_000);
	} finally {
		f.sim.faults.clear();
	}
});

describe('codes the simulator answers naturally, through the node: the summary first, the hint as description', () => {
	const premium = () =>
		f.asset((a) => a.assetType === 'Drive' && a.level === 'Premium', 'Premium drive');
	const cases: Array<[number, () => INodeParameters]> = [
		[
			101201,
			() => ({
				resource: 'asset',
				operation: 'getManyInOrganization',
				organization: rl(777777),
				returnAll: true,
				simplify: true,
			}),
		],
		[
			105201,
			() => ({
				resource: 'asset',
				operation: 'bindSubscriptionCode',
				asset: rl(premium().id),
				subscriptionCode: 'NO-SUCH-CODE',
			}),
		],
		[
			106201,
			() => ({
				resource: 'dataSubscription',
				operation: 'resetPassword',
				subscriber: rl('00000000-0000-4000-8000-000000000000'),
			}),
		],
		[
			107201,
			() => ({
				resource: 'report',
				operation: 'download',
				asset: rl(premium().id),
				report: rl(424242),
				linkOnly: true,
			}),
		],
	];

	test.each(cases)('%d', async (code, parameters) => {
		const result = await runOne(parameters());
		const error = result.nodeError('Drive Monitoring') as
			| (Error & { description?: string; errorResponse?: Record<string, unknown> })
			| undefined;
		expect(error?.name).toBe('NodeApiError');
		expect(error?.errorResponse).toMatchObject({ code });
		expect(error?.message).toBe(CODE_INFO[code].summary);
		expect(error?.description).toBe(CODE_INFO[code].hint);
		expect(`${error?.message} ${error?.description}`).not.toMatch(/\bE\d{1,2}\b/);
	});
});
