// What the editor shows (resource locator list search, load options) and a 1,000-item execution.
import type { INode, INodeParameters } from 'n8n-workflow';
import { NODE_TYPE, startFixture, type Fixture } from './fixture';

let f: Fixture;
beforeAll(async () => {
	f = await startFixture();
});
afterAll(async () => await f.close());

function node(parameters: INodeParameters): INode {
	return {
		id: 'n',
		name: 'Drive Monitoring',
		type: NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { driveMonitoringApi: { id: 'eu', name: 'Drive Monitoring (end user)' } },
	};
}
const rl = (value: string | number) => ({ __rl: true, mode: 'list', value });

describe('list search', () => {
	test('assets: by name or by serial number, labelled with name, serial and type', async () => {
		const drive = f.asset((a) => a.assetType === 'Drive', 'drive');
		const bySerial = await f.engine.listSearch(
			node({ resource: 'asset', operation: 'get' }),
			'searchAssets',
			drive.serialNumber.toLowerCase(),
		);
		expect(bySerial.results).toEqual([
			{ name: `${drive.name} · ${drive.serialNumber} (Drive)`, value: String(drive.id) },
		]);
		const byName = await f.engine.listSearch(
			node({ resource: 'asset', operation: 'get' }),
			'searchAssets',
			drive.name,
		);
		expect(byName.results.map((r) => r.value)).toContain(String(drive.id));
		const all = await f.engine.listSearch(
			node({ resource: 'asset', operation: 'get' }),
			'searchAssets',
		);
		// A PowerTrain's drive and motor are listed too.
		expect(all.results).toHaveLength(
			f.sim.fleet.assets().filter((a) => a.orgId === f.euOrgId).length,
		);
	});

	test('organizations, asset groups (narrowed by the chosen organization), plants', async () => {
		const org = f.sim.fleet.orgs().find((o) => o.id === f.euOrgId)!;
		const orgs = await f.engine.listSearch(
			node({ resource: 'organization', operation: 'getAssetStatistics' }),
			'searchOrganizations',
		);
		expect(orgs.results).toEqual([{ name: `${org.name} (EU)`, value: String(org.id) }]);
		const groups = await f.engine.listSearch(
			node({ resource: 'asset', operation: 'getManyInGroup', organization: rl(org.id) }),
			'searchAssetGroups',
		);
		expect(groups.results.map((g) => Number(g.value)).sort()).toEqual([...org.groupIds].sort());
		expect(groups.results[0].name).toMatch(new RegExp(`^${org.name} / `));
		const plants = await f.engine.listSearch(
			node({ resource: 'asset', operation: 'createDrive' }),
			'searchPlants',
		);
		expect(plants.results.map((p) => Number(p.value)).sort()).toEqual([...org.plantIds].sort());
	});

	test('reports of the chosen asset, and the data-subscription user', async () => {
		const drive = f.asset((a) => a.assetType === 'Drive' && a.level === 'Premium', 'Premium drive');
		const day = (offset: number) =>
			new Date(f.sim.clock.now() + 8 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);
		const report = await f.direct.assetData.createReport({
			assetIds: [drive.id],
			reportType: 'UserDriveReport',
			title: 'Pump check',
			subTitle: '',
			startDate: day(-10),
			endDate: day(-1),
		});
		const reports = await f.engine.listSearch(
			node({ resource: 'report', operation: 'download', asset: rl(drive.id) }),
			'searchReports',
			'pump',
		);
		expect(reports.results).toEqual([
			expect.objectContaining({
				value: String(report.id),
				name: expect.stringMatching(/^Pump check \(Creating/),
			}),
		]);
		const none = await f.engine.listSearch(
			node({ resource: 'report', operation: 'download', asset: rl('') }),
			'searchReports',
		);
		expect(none.results).toEqual([]);

		const user = await f.direct.dataSubscription.createUser();
		const users = await f.engine.listSearch(
			node({ resource: 'dataSubscription', operation: 'deleteUser' }),
			'searchSubscribers',
		);
		expect(users.results).toEqual([expect.objectContaining({ value: user.id })]);
		await f.direct.dataSubscription.deleteUser({ subCustomerId: user.id });
	});
});

describe('load options', () => {
	test('trend and signal codes of the chosen asset (E16)', async () => {
		const drive = f.asset((a) => a.assetType === 'Drive', 'drive');
		const config = await f.direct.assetData.getTrendSignalConfig({ assetId: drive.id });
		const options = await f.engine.loadOptions(
			node({ resource: 'trendSignal', operation: 'getData', asset: rl(drive.id) }),
			'getTrendSignalCodes',
		);
		expect(options.map((o) => o.value)).toEqual(
			[...config.trends, ...config.signals].map((p) => p.code),
		);
		expect(options[0].name).toMatch(/· Trend$/);
		await expect(
			f.engine.loadOptions(
				node({ resource: 'trendSignal', operation: 'getData', asset: rl('') }),
				'getTrendSignalCodes',
			),
		).rejects.toThrow('Choose an asset first');
	});

	test('assets for the fleet report', async () => {
		const options = await f.engine.loadOptions(
			node({ resource: 'report', operation: 'create' }),
			'getAssets',
		);
		expect(options.map((o) => o.value).sort()).toEqual(
			f.sim.fleet
				.assets()
				.filter((a) => a.orgId === f.euOrgId)
				.map((a) => a.id)
				.sort(),
		);
	});
});

test('1,000 input items in one execution: 1,000 paired outputs, one token', async () => {
	const drives = f.sim.fleet
		.assets()
		.filter((a) => a.orgId === f.euOrgId && a.assetType !== 'PowerTrain');
	const input = Array.from({ length: 1000 }, (_, i) => ({
		json: { assetId: drives[i % drives.length].id },
	}));
	f.engine.addCredential({
		id: 'volume',
		name: 'volume',
		type: 'driveMonitoringApi',
		data: f.euCredential,
	});
	const workflow = f.engine.readWorkflow('single-operation.json');
	workflow.nodes[1].credentials = { driveMonitoringApi: { id: 'volume', name: 'volume' } };
	f.sim.requests.clear();
	const result = await f.engine.run(workflow, { input });
	expect(result.run.status).toBe('success');
	const output = result.output('Drive Monitoring')!;
	expect(output).toHaveLength(1000);
	output.forEach((item, i) => {
		expect(item.pairedItem).toEqual({ item: i });
		expect(item.json.id).toBe(input[i].json.assetId);
	});
	expect(f.sim.requests.api('E8')).toHaveLength(1000);
	expect(f.sim.requests.entries.filter((r) => r.endpoint === 'token')).toHaveLength(1);
});
