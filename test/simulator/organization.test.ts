import { LIMITS } from '../../shared/spec';
import { expectRefusal, expectSuccess, startHarness, type Harness } from './harness';

let h: Harness;
let vendor: number;
let cpServing: number;
let cpIdle: number;
let euA: number;
let euB: number;
let euAlone: number;

beforeAll(async () => {
	h = await startHarness();
	const orgs = h.sim.fleet.orgs();
	vendor = h.orgOfType('VENDOR');
	const cps = orgs.filter((o) => o.orgType === 'CP');
	cpServing = cps.find(
		(cp) => orgs.filter((o) => o.authorizedCpIds.includes(cp.id)).length >= 2,
	)!.id;
	cpIdle = cps.find((cp) => !orgs.some((o) => o.authorizedCpIds.includes(cp.id)))!.id;
	const eus = orgs.filter((o) => o.orgType === 'EU');
	[euA, euB] = eus.filter((o) => o.authorizedCpIds.includes(cpServing)).map((o) => o.id);
	euAlone = eus.find((o) => o.authorizedCpIds.length === 0)!.id;
});
afterAll(() => h.close());

describe('seeded organizations', () => {
	test('one VENDOR, two CPs (one authorized by two EUs, one by none), three EUs (one authorized nobody)', () => {
		const orgs = h.sim.fleet.orgs();
		expect(orgs.filter((o) => o.orgType === 'VENDOR')).toHaveLength(1);
		expect(orgs.filter((o) => o.orgType === 'CP').length).toBeGreaterThanOrEqual(2);
		expect(orgs.filter((o) => o.orgType === 'EU').length).toBeGreaterThanOrEqual(3);
		expect([cpServing, cpIdle, euA, euB, euAlone].every((id) => typeof id === 'number')).toBe(true);
		expect(h.sim.info.credentials.map((c) => c.orgId).sort()).toEqual(orgs.map((o) => o.id).sort());
	});
});

describe('E1 get own organization', () => {
	test('EU gets its record with its service provider', async () => {
		const org = expectSuccess(await h.api(euA, 'GET', '/organization'));
		expect(org).toMatchObject({ id: euA, orgType: 'EU', serviceProviderName: expect.any(String) });
		expect(Object.keys(org)).toEqual(
			expect.arrayContaining([
				'name',
				'industry',
				'province',
				'city',
				'district',
				'address',
				'contact',
				'phone',
			]),
		);
	});

	test('EU that authorized nobody has null service-provider fields; CP has them null too', async () => {
		expect(expectSuccess(await h.api(euAlone, 'GET', '/organization'))).toMatchObject({
			serviceProviderName: null,
			serviceProviderContactName: null,
			serviceProviderContactPhone: null,
		});
		expect(expectSuccess(await h.api(cpServing, 'GET', '/organization'))).toMatchObject({
			orgType: 'CP',
			serviceProviderName: null,
		});
	});
});

describe('E2 organization nodes', () => {
	test('EU has asset groups and plants and no served organizations', async () => {
		const tree = expectSuccess(await h.api(euA, 'GET', '/organization/nodes'));
		expect(tree).toMatchObject({ orgId: euA, orgType: 'EU', serverOrgs: [] });
		expect(tree.assetGroups.length).toBeGreaterThan(0);
		expect(tree.plants[0]).toMatchObject({
			id: expect.any(Number),
			name: expect.any(String),
			latitude: expect.any(Number),
			createdOn: expect.stringMatching(/Z$/),
		});
	});

	test('CP has no groups or plants; serverOrgs lists exactly the EUs that authorized it', async () => {
		const tree = expectSuccess(await h.api(cpServing, 'GET', '/organization/nodes'));
		expect(tree).toMatchObject({ assetGroups: [], plants: [] });
		expect(tree.serverOrgs.map((o: { orgId: number }) => o.orgId).sort()).toEqual(
			[euA, euB].sort(),
		);
		expect(tree.serverOrgs[0].assetGroups.length).toBeGreaterThan(0);
		expect(expectSuccess(await h.api(cpIdle, 'GET', '/organization/nodes')).serverOrgs).toEqual([]);
	});

	test('VENDOR has no groups or plants and sees every other organization', async () => {
		const tree = expectSuccess(await h.api(vendor, 'GET', '/organization/nodes'));
		expect(tree).toMatchObject({ orgType: 'VENDOR', assetGroups: [], plants: [] });
		expect(tree.serverOrgs.map((o: { orgId: number }) => o.orgId)).toEqual(
			expect.arrayContaining([cpServing, cpIdle, euA, euB, euAlone]),
		);
	});
});

describe('E3 list assets of an EU: org-type visibility', () => {
	test('EU sees its own assets; PowerTrains carry their drive and motor in subDevices (A2)', async () => {
		const assets = expectSuccess(await h.api(euA, 'GET', `/organization/${euA}/assets`));
		expect(assets.length).toBeGreaterThan(0);
		expect(assets.every((a: { organizationId: number }) => a.organizationId === euA)).toBe(true);
		const train = assets.find((a: { assetType: string }) => a.assetType === 'PowerTrain');
		expect(train.subDevices.map((d: { assetType: string }) => d.assetType).sort()).toEqual([
			'Drive',
			'Motor',
		]);
		expect(
			assets.find((a: { assetType: string }) => a.assetType === 'Drive').subDevices,
		).toBeNull();
	});

	test('VENDOR sees the assets of every EU', async () => {
		for (const eu of [euA, euB, euAlone])
			expect(
				expectSuccess(await h.api(vendor, 'GET', `/organization/${eu}/assets`)).length,
			).toBeGreaterThan(0);
	});

	test('CP sees EUs that authorized it; an EU that did not gives 101202', async () => {
		expect(
			expectSuccess(await h.api(cpServing, 'GET', `/organization/${euB}/assets`)).length,
		).toBeGreaterThan(0);
		expectRefusal(await h.api(cpServing, 'GET', `/organization/${euAlone}/assets`), 101202);
		expectRefusal(await h.api(cpIdle, 'GET', `/organization/${euA}/assets`), 101202);
	});

	test('EU reaching another EU gives 101401', async () => {
		expectRefusal(await h.api(euA, 'GET', `/organization/${euB}/assets`), 101401);
	});

	test('unknown organization gives 101201', async () => {
		expectRefusal(await h.api(vendor, 'GET', '/organization/999999/assets'), 101201);
	});

	test('a CP id where an EU is required gives 101401', async () => {
		expectRefusal(await h.api(vendor, 'GET', `/organization/${cpServing}/assets`), 101401);
	});

	test('a non-integer orgid gives 100400 naming the parameter', async () => {
		const answer = await h.api(vendor, 'GET', '/organization/abc/assets');
		expectRefusal(answer, 100400);
		expect(answer.body.message).toMatch(/orgid/);
	});
});

describe('E4 list assets of an asset group', () => {
	test('lists the assets of the group only', async () => {
		const groupId = h.sim.fleet.orgs().find((o) => o.id === euA)!.groupIds[0];
		const assets = expectSuccess(
			await h.api(euA, 'GET', `/organization/${euA}/assetgroup/${groupId}/assets`),
		);
		expect(assets.length).toBeGreaterThan(0);
		expect(assets.every((a: { assetGroupId: number }) => a.assetGroupId === groupId)).toBe(true);
	});

	test('unknown group gives 103201; a group of another EU gives 103401', async () => {
		expectRefusal(await h.api(euA, 'GET', `/organization/${euA}/assetgroup/999999/assets`), 103201);
		const otherGroup = h.sim.fleet.orgs().find((o) => o.id === euB)!.groupIds[0];
		expectRefusal(
			await h.api(vendor, 'GET', `/organization/${euA}/assetgroup/${otherGroup}/assets`),
			103401,
		);
	});
});

describe('E5 create asset group', () => {
	test('creates a group the EU then lists in E2', async () => {
		const group = expectSuccess(
			await h.api(euA, 'POST', '/organization/assetgroup', { orgId: euA, name: 'Cooling towers' }),
		);
		expect(group).toEqual({ id: expect.any(Number), name: 'Cooling towers' });
		const tree = expectSuccess(await h.api(euA, 'GET', '/organization/nodes'));
		expect(tree.assetGroups).toContainEqual(group);
	});

	test('PascalCase body keys are accepted (A1)', async () => {
		expectSuccess(
			await h.api(cpServing, 'POST', '/organization/assetgroup', { OrgId: euA, Name: 'Boilers' }),
		);
	});

	test(`group name limit: ${LIMITS.assetGroupNameMax} characters pass, ${LIMITS.assetGroupNameMax + 1} give 100400`, async () => {
		expectSuccess(
			await h.api(euA, 'POST', '/organization/assetgroup', {
				orgId: euA,
				name: 'x'.repeat(LIMITS.assetGroupNameMax),
			}),
		);
		const answer = await h.api(euA, 'POST', '/organization/assetgroup', {
			orgId: euA,
			name: 'x'.repeat(LIMITS.assetGroupNameMax + 1),
		});
		expectRefusal(answer, 100400);
		expect(answer.body.message).toMatch(/'name' must be at most 20 characters/);
	});

	test('for another EU: 101401 from an EU, 101202 from a CP it did not authorize', async () => {
		expectRefusal(
			await h.api(euA, 'POST', '/organization/assetgroup', { orgId: euB, name: 'Sneaky' }),
			101401,
		);
		expectRefusal(
			await h.api(cpServing, 'POST', '/organization/assetgroup', {
				orgId: euAlone,
				name: 'Sneaky',
			}),
			101202,
		);
	});

	test('missing name gives 100400', async () => {
		expectRefusal(await h.api(euA, 'POST', '/organization/assetgroup', { orgId: euA }), 100400);
	});
});

describe('E6 asset statistics', () => {
	test('EU gets counts of its organization and no per-customer list', async () => {
		const stats = expectSuccess(await h.api(euA, 'GET', `/organization/${euA}/asset/statistics`));
		const mine = h.sim.fleet.assets().filter((a) => a.orgId === euA);
		expect(stats).toEqual({
			orgId: euA,
			customerCount: null,
			deviceStatistics: null,
			drive: mine.filter((a) => a.assetType === 'Drive').length,
			motor: mine.filter((a) => a.assetType === 'Motor').length,
			powertrain: mine.filter((a) => a.assetType === 'PowerTrain').length,
		});
	});

	test('CP gets the sum over its authorized EUs and one deviceStatistics entry per EU', async () => {
		const stats = expectSuccess(
			await h.api(cpServing, 'GET', `/organization/${cpServing}/asset/statistics`),
		);
		expect(stats.customerCount).toBe(2);
		expect(stats.deviceStatistics.map((d: { orgId: number }) => d.orgId).sort()).toEqual(
			[euA, euB].sort(),
		);
		const served = h.sim.fleet.assets().filter((a) => a.orgId === euA || a.orgId === euB);
		expect(stats.drive).toBe(served.filter((a) => a.assetType === 'Drive').length);
	});

	test('CP idle has zero customers; EU asking for a CP gives 101401', async () => {
		expect(
			expectSuccess(await h.api(cpIdle, 'GET', `/organization/${cpIdle}/asset/statistics`)),
		).toMatchObject({ customerCount: 0, drive: 0 });
		expectRefusal(await h.api(euA, 'GET', `/organization/${cpServing}/asset/statistics`), 101401);
		expectRefusal(await h.api(euA, 'GET', '/organization/424242/asset/statistics'), 101201);
	});
});
