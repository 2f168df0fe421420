// Schema tolerance end to end: the same answers, re-spelled in PascalCase with the field-table
// aliases by a gateway in front of the simulator, parse to exactly what the camelCase answers do.
import { createUndiciTransport } from '../../shared/runtime/node';
import { type DriveMonitoringClient, type Transport } from '../../shared';
import { startHarness, type Harness } from './harness';

const DAY = 86_400_000;

/** Every key in PascalCase; the payload names of A2 swapped for their field-table aliases. */
function pascal(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(pascal);
	if (value === null || typeof value !== 'object') return value;
	const out: Record<string, unknown> = {};
	for (const [key, v] of Object.entries(value)) {
		let name = key[0].toUpperCase() + key.slice(1);
		if (key === 'subDevices') name = 'SubAssets';
		if (key === 'serverOrgs') name = 'SubOrgs';
		if (key === 'assetGroup' && typeof v === 'string') name = 'AssetGroupName'; // the asset detail's group name
		out[name] = pascal(v);
	}
	return out;
}

const inner = createUndiciTransport();
const gateway: Transport = {
	async request(req) {
		const res = await inner.request(req);
		if (!req.url.includes('/devcenter/')) return res;
		return { ...res, body: Buffer.from(JSON.stringify(pascal(JSON.parse(res.body.toString())))) };
	},
};

let h: Harness;

beforeAll(async () => {
	h = await startHarness();
});

afterAll(async () => {
	await inner.close?.();
	await h.close();
});

async function same(
	calls: Array<[string, (c: DriveMonitoringClient) => Promise<unknown>]>,
	plain: DriveMonitoringClient,
	respelled: DriveMonitoringClient,
) {
	for (const [endpoint, call] of calls) {
		const [a, b] = await Promise.all([call(plain), call(respelled)]);
		expect({ endpoint, value: b }).toEqual({ endpoint, value: a });
	}
}

test('an EU view: PascalCase answers and AssetGroupName parse like the camelCase ones', async () => {
	const { orgId } = h.credentials();
	const drive = h.sim.fleet
		.assets()
		.find(
			(a) =>
				a.orgId === orgId &&
				a.assetType === 'Drive' &&
				(a.level === 'Premium' || a.level === 'Standard') &&
				a.cbmCapable,
		)!;
	const now = h.sim.clock.now();
	await same(
		[
			['E1', (c) => c.organization.get()],
			['E2', (c) => c.organization.getNodes()],
			['E3', (c) => c.organization.listAssets({ orgId })],
			['E6', (c) => c.organization.getAssetStatistics({ orgId })],
			['E8', (c) => c.assets.get({ id: drive.id })],
			['E9', (c) => c.assets.listSubscriptions({ assetId: drive.id })],
			[
				'E14',
				(c) =>
					c.assetData.listEvents({
						assetId: drive.id,
						startTime: new Date(now - 30 * DAY),
						endTime: new Date(now - 23 * DAY),
					}),
			],
			['E16', (c) => c.assetData.getTrendSignalConfig({ assetId: drive.id })],
			['E18', (c) => c.assetData.getConditions({ assetId: drive.id })],
			['E19', (c) => c.assetData.getCbm({ assetId: drive.id })],
		],
		h.client(),
		h.client({ transport: gateway }),
	);
});

test('the vendor view: SubOrgs (serverOrgs) and SubAssets (subDevices) parse like the payload names', async () => {
	const train = h.sim.fleet.assets().find((a) => a.assetType === 'PowerTrain')!;
	const plain = h.client({ orgType: 'VENDOR' });
	const tree = await plain.organization.getNodes();
	expect(tree.subOrgs.length).toBeGreaterThan(0);
	const assets = await plain.organization.listAssets({ orgId: train.orgId });
	expect(assets.find((a) => a.id === train.id)?.subAssets?.length).toBe(2);
	await same(
		[
			['E2', (c) => c.organization.getNodes()],
			['E3', (c) => c.organization.listAssets({ orgId: train.orgId })],
		],
		plain,
		h.client({ orgType: 'VENDOR', transport: gateway }),
	);
});
