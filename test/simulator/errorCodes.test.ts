import { ERROR_CODES, SUCCESS_CODE, httpStatusOfCode, type ErrorCode } from '../../shared/spec';
import { DAY, expectRefusal, iso, startHarness, type Answer, type Harness } from './harness';

/**
 * Every failure code of the spec's table, reached over HTTP by one recipe each. The Record type
 * makes a code added to the table without a recipe a compile error.
 */
let h: Harness;

beforeAll(async () => {
	h = await startHarness({ seed: 'error-table' });
});
afterAll(() => h.close());

const eus = (): number[] =>
	h.sim.fleet
		.orgs()
		.filter((o) => o.orgType === 'EU')
		.map((o) => o.id);
const cpIdle = (): number =>
	h.sim.fleet
		.orgs()
		.find(
			(o) =>
				o.orgType === 'CP' && !h.sim.fleet.orgs().some((e) => e.authorizedCpIds.includes(o.id)),
		)!.id;
const driveOf = (level: string) =>
	h.asset(
		(a) =>
			a.assetType === 'Drive' &&
			a.level === level &&
			a.gatewayType === 'IOTPanel' &&
			a.powerTrainId === null,
		`${level} drive`,
	);
const unusedCode = (filter: (c: { level: string; assetType: string }) => boolean): string =>
	h.sim.info.subscriptionCodes.find(filter)!.code;
const createBody = (overrides: Record<string, unknown>) => {
	const org = h.sim.fleet.orgs().find((o) => o.id === eus()[0])!;
	return {
		name: 'Drive',
		assetGroupId: org.groupIds[0],
		plantId: org.plantIds[0],
		serialNumber: h.sim.info.registrySerialNumbers[0],
		gatewayType: 1,
		assetReference: { NETA21: { GatewaySN: 'N21X', DeviceNodeId: '2' } },
		...overrides,
	};
};

const recipes: Record<Exclude<ErrorCode, typeof SUCCESS_CODE>, () => Promise<Answer>> = {
	100400: () =>
		h.api(eus()[0], 'POST', '/organization/assetgroup', { orgId: eus()[0], name: 'n'.repeat(21) }),
	100403: async () => {
		const [eu] = eus();
		await h.api(eu, 'POST', '/subassetdata/subcustomer');
		return h.api(eu, 'POST', '/subassetdata/subcustomer');
	},
	101201: () => h.api(eus()[0], 'GET', '/organization/777777/assets'),
	101202: () => h.api(cpIdle(), 'GET', `/organization/${eus()[0]}/assets`),
	101401: () => h.api(eus()[0], 'GET', `/organization/${eus()[1]}/assets`),
	102201: () => h.api(eus()[0], 'GET', '/assetmanagement/asset/999999'),
	102202: () => {
		const train = h.asset((a) => a.assetType === 'PowerTrain', 'PowerTrain');
		return h.api(train.orgId, 'GET', `/assetdata/${train.id}/condition`);
	},
	102203: () =>
		h.api(
			eus()[0],
			'POST',
			'/assetmanagement/asset',
			createBody({ serialNumber: h.sim.fleet.assets()[0].serialNumber }),
		),
	102204: () =>
		h.api(
			eus()[0],
			'POST',
			'/assetmanagement/asset',
			createBody({ serialNumber: 'NOT-IN-REGISTRY' }),
		),
	102205: () => {
		const expired = h.asset((a) => a.level === 'expired', 'expired asset');
		return h.api(expired.orgId, 'GET', `/assetdata/${expired.id}/condition`);
	},
	102401: () => {
		const foreign = h.asset((a) => a.orgId === eus()[1], 'asset of the second EU');
		return h.api(eus()[0], 'GET', `/assetmanagement/asset/${foreign.id}`);
	},
	102403: () => {
		const entry = driveOf('Entry');
		return h.api(
			entry.orgId,
			'GET',
			`/assetdata/${entry.id}/event?startTime=${iso(h.sim.clock.now() - 100 * DAY)}&endTime=${iso(h.sim.clock.now() - 99 * DAY)}`,
		);
	},
	103201: () =>
		h.api(eus()[0], 'POST', '/assetmanagement/asset', createBody({ assetGroupId: 123456 })),
	103401: () => {
		const other = h.sim.fleet.orgs().find((o) => o.id === eus()[1])!;
		return h.api(
			eus()[0],
			'POST',
			'/assetmanagement/asset',
			createBody({ assetGroupId: other.groupIds[0] }),
		);
	},
	104201: () => h.api(eus()[0], 'POST', '/assetmanagement/asset', createBody({ plantId: 123456 })),
	104401: () => {
		const other = h.sim.fleet.orgs().find((o) => o.id === eus()[1])!;
		return h.api(
			eus()[0],
			'POST',
			'/assetmanagement/asset',
			createBody({ plantId: other.plantIds[0] }),
		);
	},
	105201: () => {
		const d = driveOf('Basic');
		return h.api(d.orgId, 'POST', '/subscription/bind', {
			assetId: d.id,
			subscriptionCode: 'NO-SUCH-CODE',
		});
	},
	105202: () => {
		const d = driveOf('Basic');
		return h.api(d.orgId, 'POST', '/subscription/bind', {
			assetId: d.id,
			subscriptionCode: h.sim.info.expiredSubscriptionCodes[0],
		});
	},
	105203: () => {
		const d = driveOf('Basic');
		return h.api(d.orgId, 'POST', '/subscription/bind', {
			assetId: d.id,
			subscriptionCode: unusedCode((c) => c.assetType === 'Motor'),
		});
	},
	105204: async () => {
		const d = driveOf('Basic');
		const code = unusedCode((c) => c.assetType === 'Drive' && c.level === 'Basic');
		await h.api(d.orgId, 'POST', '/subscription/bind', { assetId: d.id, subscriptionCode: code });
		return h.api(d.orgId, 'POST', '/subscription/bind', { assetId: d.id, subscriptionCode: code });
	},
	105205: () => {
		const neta = h.asset(
			(a) => a.gatewayType === 'NETA21' && a.assetType === 'Motor',
			'NETA21 motor',
		);
		return h.api(neta.orgId, 'POST', '/subscription/bind', {
			assetId: neta.id,
			subscriptionCode: unusedCode((c) => c.assetType === 'Motor' && c.level === 'Basic'),
		});
	},
	106201: () =>
		h.api(eus()[0], 'POST', '/subassetdata/subcustomer/00000000-0000-4000-8000-000000000000/reset'),
	107201: () => {
		const d = driveOf('Premium');
		return h.api(d.orgId, 'GET', `/assetdata/${d.id}/report/download/424242`);
	},
};

describe('every failure code of the spec table is reachable, with the HTTP status of assumption A3', () => {
	test('the recipes cover exactly the table', () => {
		expect(Object.keys(recipes).map(Number).sort()).toEqual(
			Object.keys(ERROR_CODES)
				.map(Number)
				.filter((c) => c !== SUCCESS_CODE)
				.sort(),
		);
	});

	test.each(Object.keys(recipes).map(Number) as Array<keyof typeof recipes>)('%d', async (code) => {
		const answer = await recipes[code]();
		expectRefusal(answer, code);
		expect(answer.status).toBe(httpStatusOfCode(code));
		expect(answer.body.message).toContain(ERROR_CODES[code]);
	});
});
