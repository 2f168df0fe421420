/* eslint-disable @typescript-eslint/no-unused-vars -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Every rule known before sending is refused before any request: the simulator sees nothing,
// not even a token request, and the error names the field, the value and the rule.
import { ValidationError, type DriveMonitoringClient } from '../../shared';
import * as inputs from '../../shared/schemas/inputs';
import { startHarness, type Harness } from './harness';

let h: Harness;
let client: DriveMonitoringClient;

beforeAll(async () => {
	h = await startHarness();
	client = h.client();
});

afterAll(async () => {
	await h.close();
});

const uuid = '3f2b6c1e-8d4a-4e2b-9c1f-2a7b5d9e0c11';
const drive = {
	name: 'Drive',
	assetGroupId: 1,
	plantId: 1,
	serialNumber: 'S1',
	gatewayType: 'NETA21' as const,
	assetReference: { gatewaySN: 'G1', deviceNodeId: '1' },
};
const report = {
	assetIds: [1],
	title: 'T',
	subTitle: 'S',
	reportType: 'UserDriveReport' as const,
	startDate: '2024-11-01',
	endDate: '2024-11-15',
};

const cases: Array<
	[
		string,
		(c: DriveMonitoringClient) => Promise<unknown>,
		{ field: string; value: unknown; rule: RegExp },
	]
> = [
	[
		'E5 group name over 20 characters',
		(c) => c.organization.createAssetGroup({ orgId: 1, name: 'x'.repeat(21) }),
		{ field: 'name', value: 'x'.repeat(21), rule: /at most 20 characters/ },
	],
	[
		'E5 empty group name',
		(c) => c.organization.createAssetGroup({ orgId: 1, name: '  ' }),
		{ field: 'name', value: '  ', rule: /not be empty/ },
	],
	[
		'E3 org id not an integer',
		(c) => c.organization.listAssets({ orgId: 'abc' }),
		{ field: 'orgId', value: 'abc', rule: /positive integer/ },
	],
	[
		'E7 empty subscription code',
		(c) => c.subscription.bind({ assetId: 1, subscriptionCode: '' }),
		{ field: 'subscriptionCode', value: '', rule: /non-empty/ },
	],
	[
		'E10 asset name over 30 characters',
		(c) => c.assets.createDrive({ ...drive, name: 'n'.repeat(31) }),
		{ field: 'name', value: 'n'.repeat(31), rule: /at most 30 characters/ },
	],
	[
		'E10 serial over 30 characters',
		(c) => c.assets.createDrive({ ...drive, serialNumber: 's'.repeat(31) }),
		{ field: 'serialNumber', value: 's'.repeat(31), rule: /at most 30 characters/ },
	],
	[
		'E10 unknown gateway type',
		(c) => c.assets.createDrive({ ...drive, gatewayType: 'LoRa' as never }),
		{ field: 'gatewayType', value: 'LoRa', rule: /one of NETA21 \(1\), IOTPanel \(2\)/ },
	],
	[
		'E10 NETA21 node id not a numeral',
		(c) =>
			c.assets.createDrive({ ...drive, assetReference: { gatewaySN: 'G1', deviceNodeId: 'x1' } }),
		{ field: 'assetReference.deviceNodeId', value: 'x1', rule: /numeral/ },
	],
	[
		'E10 IOT Panel node id not two digits',
		(c) =>
			c.assets.createDrive({
				...drive,
				gatewayType: 'IOTPanel',
				assetReference: { IOTPanel: { DriveModel: 'ACS580', DeviceNodeId: '123', SIMICCID: '1' } },
			}),
		{ field: 'assetReference.IOTPanel.deviceNodeId', value: '123', rule: /two-digit/ },
	],
	[
		'E10 IOT Panel without SIM ICCID',
		(c) =>
			c.assets.createDrive({
				...drive,
				gatewayType: 'IOTPanel',
				assetReference: { driveModel: 'ACS580', deviceNodeId: 1 },
			}),
		{ field: 'assetReference.simiccid', value: undefined, rule: /SIM ICCID is required/ },
	],
	[
		'E11 new name over 30 characters',
		(c) => c.assets.rename({ id: 5, name: 'r'.repeat(31) }),
		{ field: 'name', value: 'r'.repeat(31), rule: /at most 30 characters/ },
	],
	[
		'E13 id zero',
		(c) => c.assets.delete({ id: 0 }),
		{ field: 'id', value: 0, rule: /positive integer/ },
	],
	[
		'E14 end before start',
		(c) =>
			c.assetData.listEvents({
				assetId: 1,
				startTime: '2024-11-10T00:00:00Z',
				endTime: '2024-11-09T00:00:00Z',
			}),
		{ field: 'endTime', value: '2024-11-09T00:00:00Z', rule: /after startTime/ },
	],
	[
		'E14 time without a zone',
		(c) =>
			c.assetData.listEvents({ assetId: 1, startTime: '2024-11-10T00:00:00', endTime: new Date() }),
		{ field: 'startTime', value: '2024-11-10T00:00:00', rule: /zone/ },
	],
	[
		'E15 event id not a number',
		(c) => c.assetData.getEventLoggerFiles({ assetId: 1, eventId: 'e1' }),
		{ field: 'eventId', value: 'e1', rule: /positive integer/ },
	],
	[
		'E17 no parameter codes',
		(c) =>
			c.assetData.queryTrendSignalData({
				assetId: 1,
				parameters: [],
				startTime: '2024-11-01',
				endTime: '2024-11-02',
			}),
		{ field: 'parameters', value: [], rule: /at least one parameter/ },
	],
	[
		'E20 unknown unit type',
		(c) =>
			c.assetData.setCommissioningDate({
				assetId: 1,
				deviceUnitType: 'Motor' as never,
				commissioningDate: '2024-11-01',
			}),
		{
			field: 'deviceUnitType',
			value: 'Motor',
			rule: /one of Fan \(1\), IGBT \(2\), Capacitor \(3\)/,
		},
	],
	[
		'E20 date not a date',
		(c) =>
			c.assetData.setCommissioningDate({
				assetId: 1,
				deviceUnitType: 'Fan',
				commissioningDate: 'yesterday',
			}),
		{ field: 'commissioningDate', value: 'yesterday', rule: /ISO 8601/ },
	],
	[
		'E20 date in the future',
		(c) =>
			c.assetData.setCommissioningDate({
				assetId: 1,
				deviceUnitType: 'IGBT',
				commissioningDate: '2999-01-01T00:00:00Z',
			}),
		{ field: 'commissioningDate', value: '2999-01-01T00:00:00Z', rule: /not be in the future/ },
	],
	[
		'E21 title over 50 characters',
		(c) => c.assetData.createReport({ ...report, title: 't'.repeat(51) }),
		{ field: 'title', value: 't'.repeat(51), rule: /at most 50 characters/ },
	],
	[
		'E21 subtitle over 50 characters',
		(c) => c.assetData.createReport({ ...report, subTitle: 'u'.repeat(51) }),
		{ field: 'subTitle', value: 'u'.repeat(51), rule: /at most 50 characters/ },
	],
	[
		'E21 unknown report type',
		(c) => c.assetData.createReport({ ...report, reportType: 'Weekly' as never }),
		{ field: 'reportType', value: 'Weekly', rule: /UserDriveReport \(1\), UserFleetReport \(2\)/ },
	],
	[
		'E21 interval under 7 days',
		(c) => c.assetData.createReport({ ...report, endDate: '2024-11-07' }),
		{ field: 'endDate', value: '2024-11-07', rule: /7 to 90 days; .* is 6 days/ },
	],
	[
		'E21 interval over 90 days',
		(c) => c.assetData.createReport({ ...report, endDate: '2025-01-31' }),
		{ field: 'endDate', value: '2025-01-31', rule: /7 to 90 days; .* is 91 days/ },
	],
	[
		'E21 date in another format',
		(c) => c.assetData.createReport({ ...report, startDate: '01/11/2024' }),
		{ field: 'startDate', value: '01/11/2024', rule: /UTC\+8 date YYYY-MM-DD/ },
	],
	[
		'E21 date-time in UTC instead of UTC+8',
		(c) => c.assetData.createReport({ ...report, startDate: '2024-11-01T00:00:00Z' }),
		{ field: 'startDate', value: '2024-11-01T00:00:00Z', rule: /\+08:00/ },
	],
	[
		'E21 drive report over two assets',
		(c) => c.assetData.createReport({ ...report, assetIds: [1, 2] }),
		{ field: 'assetIds', value: [1, 2], rule: /exactly one asset/ },
	],
	[
		'E21 no assets',
		(c) => c.assetData.createReport({ ...report, assetIds: [] }),
		{ field: 'assetIds', value: [], rule: /at least one/ },
	],
	[
		'E24 span over 365 days',
		(c) =>
			c.assetData.listParameterBackups({
				assetId: 1,
				startTime: '2023-01-01',
				endTime: '2024-01-02',
			}),
		{ field: 'endTime', value: '2024-01-02', rule: /at most 365 days/ },
	],
	[
		'E25 empty parameter set id',
		(c) => c.assetData.getParameterBackup({ assetId: 1, parameterSetId: ' ' }),
		{ field: 'parameterSetId', value: ' ', rule: /non-empty/ },
	],
	[
		'E28 unknown data type',
		(c) =>
			c.dataSubscription.setDataTypes({
				subCustomerId: uuid,
				topicName: 't',
				subDataTypes: ['AssetAlarm' as never],
			}),
		{
			field: 'subDataTypes',
			value: ['AssetAlarm'],
			rule: /AssetAlarm.*one of AssetEvent \(1\), AssetState \(2\), AssetReport \(3\), AssetCBM \(4\)/,
		},
	],
	[
		'E28 empty topic',
		(c) =>
			c.dataSubscription.setDataTypes({ subCustomerId: uuid, topicName: '', subDataTypes: [] }),
		{ field: 'topicName', value: '', rule: /non-empty/ },
	],
	[
		'E29 id not a UUID',
		(c) => c.dataSubscription.deleteUser({ subCustomerId: '42' }),
		{ field: 'subCustomerId', value: '42', rule: /UUID/ },
	],
	[
		'E30 id not a UUID',
		(c) => c.dataSubscription.resetPassword({ subCustomerId: 'x' }),
		{ field: 'subCustomerId', value: 'x', rule: /UUID/ },
	],
	[
		'ranges: events reaching past a Basic asset history',
		(c) =>
			c.ranges.events({
				assetId: 1,
				startTime: new Date(Date.now() - 120 * 86_400_000),
				endTime: new Date(),
				level: 'Basic',
			}),
		{
			field: 'startTime',
			value: expect.any(String),
			rule: /history range of a Basic asset: Event history goes back 90 days/,
		},
	],
	[
		'files: not a URL',
		(c) => c.files.download('report.pdf'),
		{ field: 'url', value: 'report.pdf', rule: /absolute http/ },
	],
];

test.each(cases)('%s: refused before any request', async (_name, call, expected) => {
	h.sim.requests.clear();
	const error = await call(client).then(
		() => new Error('the call was accepted'),
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(ValidationError);
	const v = error as ValidationError;
	expect(v.field).toBe(expected.field);
	expect(v.value).toEqual(expected.value);
	expect(v.rule).toMatch(expected.rule);
	expect(v.message).toContain(v.field);
	expect(v.message).toContain(v.rule);
	expect(h.sim.requests.count).toBe(0);
});

test('names are counted in characters, not UTF-16 units', async () => {
	h.sim.requests.clear();
	// 20 characters, 40 UTF-16 units: within E5's limit, so the request is sent (and answered).
	const name = '🛠'.repeat(20);
	const outcome = await client.organization
		.createAssetGroup({ orgId: h.credentials().orgId, name })
		.then(
			(g) => g,
			(e: unknown) => e,
		);
	expect(outcome).not.toBeInstanceOf(ValidationError);
	expect(h.sim.requests.api('E5')).toHaveLength(1);
});

test('missing credentials are refused when the client is created, without echoing the secret', () => {
	const { apiSecret: _secret, ...rest } = h.credentials();
	expect(() => h.client({ ...rest, apiSecret: '' })).toThrow(
		/Invalid apiSecret: "".*is required unless an authenticatedTransport is given/,
	);
	expect(() => h.client({ baseUrl: 'ftp://x' })).toThrow(/Invalid baseUrl/);
});

describe("the spec's enum numbers are accepted beside the names", () => {
	const ref = { id: 'E10' as const, name: 'Create drive asset' };
	test('gatewayType 1, reportType 2, deviceUnitType 3 and subDataTypes [1, 2] read as the names do', () => {
		const byNumber = inputs.validateInput(ref, inputs.CreateDriveInput, {
			...drive,
			gatewayType: 1,
		});
		const byName = inputs.validateInput(ref, inputs.CreateDriveInput, {
			...drive,
			gatewayType: 'NETA21',
		});
		expect(byNumber).toEqual(byName);
		expect(
			inputs.validateInput(ref, inputs.CreateReportInput, {
				...report,
				assetIds: [1, 2],
				reportType: 2,
			}),
		).toMatchObject({ reportType: 2 });
		expect(
			inputs.validateInput(ref, inputs.CreateReportInput, {
				...report,
				assetIds: [1, 2],
				reportType: '2',
			}),
		).toMatchObject({ reportType: 2 });
		expect(
			inputs.validateInput(ref, inputs.CommissioningDateInput, {
				assetId: 1,
				deviceUnitType: 3,
				commissioningDate: '2024-11-01',
			}),
		).toMatchObject({ deviceUnitType: 3 });
		expect(
			inputs.validateInput(ref, inputs.SetDataTypesInput, {
				subCustomerId: uuid,
				topicName: 't',
				subDataTypes: [2, 1, 'AssetCBM'],
			}),
		).toMatchObject({ subDataTypes: [1, 2, 4] });
	});

	test('a number outside the table is refused with the names and their numbers', () => {
		expect(() =>
			inputs.validateInput(ref, inputs.CreateDriveInput, { ...drive, gatewayType: 3 }),
		).toThrow(/Invalid gatewayType: 3; must be one of NETA21 \(1\), IOTPanel \(2\)/);
		expect(() =>
			inputs.validateInput(ref, inputs.SetDataTypesInput, {
				subCustomerId: uuid,
				topicName: 't',
				subDataTypes: [5],
			}),
		).toThrow(/entry 0 \(5\) must be one of AssetEvent \(1\)/);
	});

	test('through the client: E28 with [1, 2] subscribes AssetEvent and AssetState', async () => {
		const c = h.client();
		const existing = await c.dataSubscription.getUsers();
		const user = existing[0] ?? (await c.dataSubscription.createUser());
		const subscribed = await c.dataSubscription.setDataTypes({
			subCustomerId: user.id,
			topicName: 'numbers',
			subDataTypes: [1, 2],
		});
		expect(subscribed.subDataTypes).toEqual(['AssetEvent', 'AssetState']);
	});
});
