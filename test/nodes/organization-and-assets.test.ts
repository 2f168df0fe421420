// Organization, Asset Group and Asset operations, run from test/workflows/ in n8n's engine
// against the simulator over HTTP.
import { startFixture, type Fixture } from './fixture';

let f: Fixture;
beforeAll(async () => {
	f = await startFixture();
});
afterAll(async () => await f.close());

test('every organization and asset operation runs in the engine and returns one item per record', async () => {
	const drive = f.asset(
		(a) => a.assetType === 'Drive' && a.level === 'Premium' && a.cbmCapable,
		'Premium CBM drive',
	);
	const groups = f.sim.fleet.orgs().find((o) => o.id === f.euOrgId)!.groupIds;
	const otherGroupId = groups.find((g) => g !== drive.groupId)!;
	const premiumCode = f.sim.info.subscriptionCodes.find(
		(c) => c.level === 'Premium' && c.assetType === 'Drive',
	)!.code;
	const input = {
		orgId: f.euOrgId,
		groupId: drive.groupId,
		plantId: drive.plantId,
		otherGroupId,
		driveId: drive.id,
		newGroupName: 'Cooling towers',
		newDriveName: 'Pump 7 inlet',
		newSerial: f.sim.info.registrySerialNumbers[0],
		gatewaySerial: 'NETA-0042',
		subscriptionCode: premiumCode,
	};

	const result = await f.engine.run(f.engine.readWorkflow('organization-and-assets.json'), {
		input: [{ json: input }],
	});

	expect(result.run.data.resultData.error).toBeUndefined();
	expect(result.run.status).toBe('success');

	const org = result.output('Get Organization')!;
	expect(org).toHaveLength(1);
	expect(org[0].json).toMatchObject({ id: f.euOrgId, orgType: 'EU' });

	const tree = result.output('Get Tree')!.map((i) => i.json);
	expect(tree.filter((row) => row.kind === 'assetGroup').map((row) => row.id)).toEqual(
		expect.arrayContaining(groups),
	);
	expect(tree.some((row) => row.kind === 'plant' && row.id === drive.plantId)).toBe(true);

	const stats = result.output('Get Asset Statistics')!;
	const fleet = f.sim.fleet.assets().filter((a) => a.orgId === f.euOrgId);
	expect(stats[0].json).toMatchObject({
		drive: fleet.filter((a) => a.assetType === 'Drive').length,
	});

	const inOrg = result.output('Assets In Organization')!.map((i) => i.json);
	expect(inOrg.map((a) => a.id)).toEqual(expect.arrayContaining([drive.id]));
	// Simplify: nested PowerTrain members become their IDs.
	expect(inOrg.every((a) => Array.isArray(a.subAssetIds) && !('subAssets' in a))).toBe(true);

	const inGroup = result.output('Assets In Group')!.map((i) => i.json);
	expect(inGroup.length).toBeGreaterThan(0);
	expect(inGroup.every((a) => a.assetGroupId === drive.groupId)).toBe(true);

	const detail = result.output('Get Asset')!;
	expect(detail).toHaveLength(1);
	expect(detail[0].json).toMatchObject({
		id: drive.id,
		serialNumber: drive.serialNumber,
		modelType: drive.modelType,
	});
	expect(detail[0].json).toHaveProperty('expertService');

	const subscriptions = result.output('Get Subscriptions')!.map((i) => i.json);
	expect(subscriptions.some((s) => s.level === 'Premium' && s.status === 'Activated')).toBe(true);

	const group = result.output('Create Asset Group')!;
	expect(group[0].json).toMatchObject({ name: 'Cooling towers' });
	expect(typeof group[0].json.id).toBe('number');

	const created = result.output('Create Drive')![0].json;
	expect(created).toMatchObject({
		name: 'Pump 7 inlet',
		serialNumber: input.newSerial,
		assetType: 'Drive',
	});
	expect(result.output('Bind Subscription Code')![0].json).toEqual({
		success: true,
		assetId: created.id,
		subscriptionCode: premiumCode,
	});
	expect(result.output('Rename Asset')![0].json).toEqual({
		success: true,
		assetId: created.id,
		name: 'Pump 7 inlet renamed',
	});
	expect(result.output('Move Asset')![0].json).toEqual({
		success: true,
		assetId: created.id,
		assetGroupId: otherGroupId,
	});
	expect(result.output('Delete Asset')![0].json).toEqual({
		success: true,
		assetId: created.id,
		deleted: true,
	});

	// The platform saw each change, in order, and the asset is gone.
	expect(f.sim.requests.api().map((r) => r.endpoint)).toEqual(
		expect.arrayContaining([
			'E1',
			'E2',
			'E3',
			'E4',
			'E5',
			'E6',
			'E7',
			'E8',
			'E9',
			'E10',
			'E11',
			'E12',
			'E13',
		]),
	);
	await expect(f.direct.assets.get({ id: created.id as number })).rejects.toMatchObject({
		code: 102201,
	});
	// Every output item is paired with the input item it came from.
	expect(
		result
			.output('Assets In Organization')!
			.every((i) => (i.pairedItem as { item: number }).item === 0),
	).toBe(true);
});
