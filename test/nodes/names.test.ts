// Assets, asset groups and organizations by name: a name, part of one or a serial number
// where an ID is asked for, in n8n's engine against the simulator, in a workflow and as a tool.
// An ID sends no extra request; a name that is not exactly one target is refused before any change.
import type { INodeParameters } from 'n8n-workflow';
import { addToolType, NODE_TYPE, startFixture, TOOL_TYPE, type Fixture } from './fixture';

const rl = (value: string | number) => ({ __rl: true, mode: 'id', value });

let f: Fixture;
let alpha: { id: number; serialNumber: string };
let beta: { id: number };
beforeAll(async () => {
	f = await startFixture();
	addToolType(f.engine);
	// Two drives with known names: "Zeta Pump Alpha" and "Zeta Pump Beta".
	const drives = f.sim.fleet
		.assets()
		.filter((a) => a.orgId === f.euOrgId && a.assetType === 'Drive' && a.serialNumber);
	alpha = { id: drives[0].id, serialNumber: drives[0].serialNumber! };
	beta = { id: drives[1].id };
	await f.direct.assets.rename({ id: alpha.id, name: 'Zeta Pump Alpha' });
	await f.direct.assets.rename({ id: beta.id, name: 'Zeta Pump Beta' });
});
afterAll(async () => await f.close());
beforeEach(() => f.sim.requests.clear());

async function run(parameters: INodeParameters, type = NODE_TYPE) {
	const json = f.engine.readWorkflow('single-operation.json');
	json.nodes[1] = { ...json.nodes[1], type, parameters };
	const result = await f.engine.run(json);
	return {
		output: result.output('Drive Monitoring')?.map((i) => i.json),
		error: result.nodeError('Drive Monitoring'),
	};
}

const getAsset = (value: string | number): INodeParameters => ({
	resource: 'asset',
	operation: 'get',
	asset: rl(value),
});

describe.each([
	['in a workflow', NODE_TYPE],
	['as a tool', TOOL_TYPE],
])('an asset by name %s', (_, type) => {
	test('a whole name, in any case, finds the asset', async () => {
		const { output, error } = await run(getAsset('zeta pump alpha'), type);
		expect(error).toBeUndefined();
		expect(output![0]).toMatchObject({ id: alpha.id, name: 'Zeta Pump Alpha' });
	});

	test('a unique part of a name finds the asset', async () => {
		const { output, error } = await run(getAsset('pump beta'), type);
		expect(error).toBeUndefined();
		expect(output![0]).toMatchObject({ id: beta.id });
	});

	test('a serial number finds the asset', async () => {
		const { output, error } = await run(getAsset(alpha.serialNumber), type);
		expect(error).toBeUndefined();
		expect(output![0]).toMatchObject({ id: alpha.id });
	});

	test('an ambiguous name is refused with the candidates and what to send', async () => {
		const { error } = await run(getAsset('zeta pump'), type);
		expect(error?.message).toMatch(/^Asset "zeta pump" matches 2 assets: /);
		expect(error?.message).toContain(`Zeta Pump Alpha (id ${alpha.id}`);
		expect(error?.message).toContain(`Zeta Pump Beta (id ${beta.id}`);
		expect(error?.message).toMatch(/Send the id or a longer name\.$/);
		expect(f.sim.requests.api('E8')).toHaveLength(0);
	});

	test('an unknown name says so and how to list', async () => {
		const { error } = await run(getAsset('no such compressor'), type);
		expect(error?.message).toBe(
			'Asset "no such compressor" matches no asset these credentials can see. Send an id or a name; list them with Asset > Get Many in Organization.',
		);
	});

	test("an ID sends only the operation's own request, as before", async () => {
		const { output, error } = await run(getAsset(alpha.id), type);
		expect(error).toBeUndefined();
		expect(output![0]).toMatchObject({ id: alpha.id });
		expect(f.sim.requests.api().map((r) => r.endpoint)).toEqual(['E8']);
	});
});

test('an asset group and an organization by name', async () => {
	const org = f.sim.fleet.orgs().find((o) => o.id === f.euOrgId)!;
	const groupId = f.sim.fleet.assets().find((a) => a.id === alpha.id)!.groupId;
	const tree = await f.direct.organization.getNodes();
	const group = tree.assetGroups.find((g) => g.id === groupId)!;
	const { output, error } = await run({
		resource: 'asset',
		operation: 'getManyInGroup',
		organization: rl(org.name.toUpperCase()),
		assetGroup: rl(group.name!),
	});
	expect(error).toBeUndefined();
	expect(output!.length).toBeGreaterThan(0);
	expect(output!.every((a) => a.assetGroupId === groupId)).toBe(true);
});

describe.each([
	['in a workflow', NODE_TYPE],
	['as a tool', TOOL_TYPE],
])('a changing operation %s', (_, type) => {
	test('delete with an ambiguous name sends no request that changes anything', async () => {
		const { error } = await run(
			{ resource: 'asset', operation: 'delete', asset: rl('zeta pump') },
			type,
		);
		expect(error?.message).toMatch(/^Asset "zeta pump" matches 2 assets: /);
		expect(
			f.sim.requests
				.api()
				.map((r) => r.endpoint)
				.filter((e) => !['E2', 'E3'].includes(e!)),
		).toEqual([]);
		await expect(f.direct.assets.get({ id: alpha.id })).resolves.toMatchObject({ id: alpha.id });
	});

	test('rename with an unknown name sends no change', async () => {
		const { error } = await run(
			{ resource: 'asset', operation: 'rename', asset: rl('no such compressor'), newName: 'X' },
			type,
		);
		expect(error?.message).toMatch(/matches no asset/);
		expect(f.sim.requests.api('E11')).toHaveLength(0);
	});
});

describe('a fleet report by names (Asset Names or IDs)', () => {
	const utc8Date = (offsetDays: number) =>
		new Date(f.sim.clock.now() + 8 * 3600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
	const fleetReport = (assetIds: string[]): INodeParameters => ({
		resource: 'report',
		operation: 'create',
		reportType: 'UserFleetReport',
		assetIds,
		title: 'Fleet by name',
		startDate: utc8Date(-14),
		endDate: utc8Date(-1),
		waitUntilReady: false,
	});

	test('a name and an ID resolve as in the other asset fields; the report covers both assets', async () => {
		const reportable = f.sim.fleet
			.assets()
			.filter(
				(a) =>
					a.orgId === f.euOrgId &&
					a.assetType === 'Drive' &&
					['Basic', 'Standard', 'Premium'].includes(a.level),
			)
			.filter(
				(a) =>
					Date.parse(a.createdOn) < f.sim.clock.now() - 30 * 86_400_000 &&
					a.id !== alpha.id &&
					a.id !== beta.id,
			);
		const [named, byId] = reportable;
		await f.direct.assets.rename({ id: named.id, name: 'Zeta Fleet Gamma' });
		const { output, error } = await run(fleetReport(['zeta fleet gamma', String(byId.id)]));
		expect(error).toBeUndefined();
		const reportId = output![0].id;
		for (const asset of [named, byId]) {
			expect(
				(await f.direct.assetData.listReports({ assetId: asset.id })).map((r) => r.id),
			).toContain(reportId);
		}
	});

	test('an ambiguous name is refused with the candidates before the report is requested', async () => {
		const { error } = await run(fleetReport(['zeta pump']));
		expect(error?.message).toMatch(/^Asset Names or IDs: Asset "zeta pump" matches 2 assets: /);
		expect(f.sim.requests.api('E21')).toHaveLength(0);
	});
});
