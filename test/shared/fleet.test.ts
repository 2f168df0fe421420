// The fleet directory (shared/fleet) against the simulator's VENDOR, CP and EU credentials over
// real HTTP: which organizations each sees, its end-user organizations, their groups, plants and
// assets, and what each PowerTrain holds. The expectations come from the simulator's own records.
import { AssetDirectory } from '../../bot/platform/directory';
import { createClient, schemas, TokenCache } from '../../shared';
import {
	drivesAndMotors,
	FleetDirectory,
	isEndUser,
	isPowerTrain,
	membersOf,
	powerTrainsByMember,
	readTree,
} from '../../shared/fleet';
import { resolveTarget } from '../../shared/resolve/directory';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => await h.close());
beforeEach(() => h.sim.requests.clear());

type Credential = Harness['sim']['info']['credentials'][number];

function credential(orgType: 'VENDOR' | 'CP' | 'EU', which = 0): Credential {
	const found = h.sim.info.credentials.filter((c) => c.orgType === orgType)[which];
	if (!found) throw new Error(`the simulator has no ${orgType} number ${which + 1}`);
	return found;
}

function clientOf(c: Credential) {
	return createClient({
		baseUrl: h.sim.info.baseUrl,
		authUrl: h.sim.info.authUrl,
		tenantId: h.sim.info.tenantId,
		apiScopeId: h.sim.info.apiScopeId,
		apiKey: c.apiKey,
		apiSecret: c.apiSecret,
		tokenCache: new TokenCache(),
	});
}

/** What the credential may see, by the spec's rule, from the simulator's records. */
function expected(c: Credential) {
	const orgs = h.sim.fleet.orgs();
	const endUsers = orgs.filter(
		(o) =>
			o.orgType === 'EU' &&
			(c.orgType === 'VENDOR' || o.id === c.orgId || o.authorizedCpIds.includes(c.orgId)),
	);
	const euIds = endUsers.map((o) => o.id);
	const organizations =
		c.orgType === 'VENDOR'
			? orgs.map((o) => o.id)
			: [c.orgId, ...euIds.filter((id) => id !== c.orgId)];
	return {
		organizations: organizations.sort(byNumber),
		endUsers: euIds.sort(byNumber),
		groups: endUsers.flatMap((o) => o.groupIds).sort(byNumber),
		plants: endUsers.flatMap((o) => o.plantIds).sort(byNumber),
		assets: h.sim.fleet
			.assets()
			.filter((a) => euIds.includes(a.orgId))
			.map((a) => a.id)
			.sort(byNumber),
	};
}

const byNumber = (a: number, b: number) => a - b;
const ids = (items: ReadonlyArray<{ id: number }>) => items.map((i) => i.id).sort(byNumber);

const credentials: Array<[string, () => Credential]> = [
	['the operator (VENDOR): every EU', () => credential('VENDOR')],
	['a service provider (CP): the EUs that authorized it', () => credential('CP', 0)],
	['a service provider no EU authorized (CP): none', () => credential('CP', 1)],
	['an end user (EU): itself', () => credential('EU', 1)],
];

describe.each(credentials)('%s', (_, which) => {
	test('organizations, end-user organizations, groups, plants and assets', async () => {
		const c = which();
		const want = expected(c);
		const client = clientOf(c);
		const directory = new FleetDirectory(client);
		const tree = await directory.tree();
		expect(ids(tree.organizations)).toEqual(want.organizations);
		expect(ids(tree.endUsers)).toEqual(want.endUsers);
		expect(tree.endUsers.every((o) => o.type === 'EU')).toBe(true);
		expect(ids(tree.groups)).toEqual(want.groups);
		expect(ids(tree.plants)).toEqual(want.plants);
		const assets = await directory.assets();
		expect(assets.map((a) => a.id).sort(byNumber)).toEqual(want.assets);
		// Each asset once, and the asset lists of end-user organizations only, each read once.
		expect(new Set(assets.map((a) => a.id)).size).toBe(assets.length);
		const listed = h.sim.requests.api('E3').map((r) => Number(r.path.split('/').at(-2)));
		expect(listed.sort(byNumber)).toEqual(want.endUsers);
		expect(h.sim.requests.api('E2')).toHaveLength(1);
		await client.close();
	});

	test('the bot sees the same assets as the node', async () => {
		const c = which();
		const client = clientOf(c);
		const bot = new AssetDirectory(client);
		await bot.ensure();
		expect(ids(bot.all())).toEqual(expected(c).assets);
		await client.close();
	});
});

test('each PowerTrain holds its drive and motor, and each of them knows its PowerTrain', async () => {
	const client = clientOf(credential('VENDOR'));
	const assets = await new FleetDirectory(client).assets();
	const seeded = h.sim.fleet.assets().filter((a) => a.assetType === 'PowerTrain');
	expect(seeded.length).toBeGreaterThan(0);
	const byMember = powerTrainsByMember(assets);
	for (const pt of seeded) {
		const listed = assets.find((a) => a.id === pt.id)!;
		expect(isPowerTrain(listed)).toBe(true);
		expect(ids(membersOf(listed))).toEqual([...pt.memberIds!].sort(byNumber));
		for (const member of pt.memberIds!) expect(byMember.get(member)?.id).toBe(pt.id);
	}
	// A PowerTrain's members come right after it, in its organization.
	const first = assets.findIndex((a) => a.id === seeded[0].id);
	expect(ids(assets.slice(first + 1, first + 3))).toEqual([...seeded[0].memberIds!].sort(byNumber));
	expect(membersOf(assets.find((a) => !isPowerTrain(a))!)).toEqual([]);
	// What asset data can be read for: every drive and motor, no PowerTrain.
	expect(ids(drivesAndMotors(assets))).toEqual(
		h.sim.fleet
			.assets()
			.filter((a) => a.assetType !== 'PowerTrain')
			.map((a) => a.id)
			.sort(byNumber),
	);
	await client.close();
});

test("a name of another EU's asset resolves for the operator, not for an EU", async () => {
	const [first, second] = h.sim.info.credentials.filter((c) => c.orgType === 'EU');
	const asset = h.sim.fleet.assets().find((a) => a.orgId === second.orgId && a.serialNumber)!;
	const vendor = clientOf(credential('VENDOR'));
	const eu = clientOf(first);
	expect(await resolveTarget(vendor, 'asset', asset.serialNumber)).toEqual({ id: asset.id });
	expect(await resolveTarget(eu, 'asset', asset.serialNumber)).toEqual({
		refusal: expect.stringMatching(/matches no asset these credentials can see/),
	});
	await Promise.all([vendor.close(), eu.close()]);
});

describe('the end-user rule on trees the simulator does not send', () => {
	test('served organizations without an OrgType (as the spec lists them) are end users', () => {
		const tree = readTree(
			schemas.OrganizationNode.parse({
				OrgId: 2,
				OrgName: 'Provider',
				OrgType: 'CP',
				AssetGroups: [],
				Plants: [],
				serverOrgs: [
					{ orgId: 11, orgName: 'Mill', assetGroups: [{ id: 1001, name: 'Pumps' }], plants: [] },
					{ orgId: 12, orgName: 'Works', assetGroups: [], plants: [] },
				],
			}),
		);
		expect(ids(tree.endUsers)).toEqual([11, 12]);
		expect(tree.groups).toEqual([
			{
				id: 1001,
				name: 'Pumps',
				organization: expect.objectContaining({ id: 11, path: 'Provider / Mill' }),
			},
		]);
	});

	test('an EU met twice counts once; a CP without customers is no end user', () => {
		const eu = { orgId: 11, orgName: 'Mill', orgType: 'eu', subOrgs: [] };
		const tree = readTree(
			schemas.OrganizationNode.parse({
				orgId: 1,
				orgName: 'Operator',
				orgType: 'VENDOR',
				subOrgs: [
					{ orgId: 2, orgName: 'Provider', orgType: 'CP', subOrgs: [eu] },
					eu,
					{
						orgId: 3,
						orgName: 'Idle provider',
						orgType: 'CP',
						subOrgs: [],
					},
				],
			}),
		);
		expect(tree.organizations.map((o) => o.path)).toEqual([
			'Operator',
			'Operator / Provider',
			'Operator / Provider / Mill',
			'Operator / Idle provider',
		]);
		expect(ids(tree.endUsers)).toEqual([11]);
		expect(isEndUser({ orgType: null, subOrgs: [tree.root] })).toBe(false);
	});
});
