import { LIMITS } from '../../shared/spec';
import { expectRefusal, expectSuccess, startHarness, type Harness } from './harness';

let h: Harness;
let euA: number;
let euB: number;

beforeAll(async () => {
	h = await startHarness();
	const eus = h.sim.fleet.orgs().filter((o) => o.orgType === 'EU');
	[euA, euB] = eus.map((o) => o.id);
});
afterAll(() => h.close());

const code = (level: string, assetType: string): string => {
	const found = h.sim.info.subscriptionCodes.find(
		(c) =>
			c.level === level && c.assetType === assetType && c.type === 'Official' && !used.has(c.code),
	);
	if (!found) throw new Error(`no unused ${level} ${assetType} code`);
	used.add(found.code);
	return found.code;
};
const used = new Set<string>();

describe('E7 bind subscription', () => {
	test('binding a code to an unsubscribed drive activates it at the code level', async () => {
		const drive = h.asset((a) => a.unsubscribed && a.assetType === 'Drive', 'unsubscribed drive');
		const premium = code('Premium', 'Drive');
		expect(
			expectSuccess(
				await h.api(drive.orgId, 'POST', '/subscription/bind', {
					assetId: drive.id,
					subscriptionCode: premium,
				}),
			),
		).toEqual({});
		const subs = expectSuccess(
			await h.api(drive.orgId, 'GET', `/assetmanagement/subscription/${drive.id}`),
		);
		expect(subs).toContainEqual(
			expect.objectContaining({
				code: premium,
				level: 'Premium',
				status: 'Activated',
				period: 12,
				activedDate: expect.stringMatching(/Z$/),
			}),
		);
		expect(h.sim.fleet.assets().find((a) => a.id === drive.id)!.level).toBe('Premium');
	});

	test('a code bound while another subscription runs waits as Nonactivated with null dates', async () => {
		const motor = h.asset(
			(a) => a.assetType === 'Motor' && a.level === 'Basic' && a.gatewayType === 'IOTPanel',
			'Basic motor',
		);
		const next = code('Standard', 'Motor');
		expectSuccess(
			await h.api(motor.orgId, 'POST', '/subscription/bind', {
				AssetId: motor.id,
				SubscriptionCode: next,
			}),
		);
		const subs = expectSuccess(
			await h.api(motor.orgId, 'GET', `/assetmanagement/subscription/${motor.id}`),
		);
		expect(subs).toContainEqual(
			expect.objectContaining({
				code: next,
				status: 'Nonactivated',
				activedDate: null,
				expiredDate: null,
			}),
		);
	});

	test('unknown code gives 105201', async () => {
		const drive = h.asset((a) => a.assetType === 'Drive' && a.gatewayType === 'IOTPanel', 'drive');
		expectRefusal(
			await h.api(drive.orgId, 'POST', '/subscription/bind', {
				assetId: drive.id,
				subscriptionCode: 'SC-NOPE-0000',
			}),
			105201,
		);
	});

	test('expired code gives 105202', async () => {
		const drive = h.asset((a) => a.assetType === 'Drive' && a.gatewayType === 'IOTPanel', 'drive');
		expect(h.sim.info.expiredSubscriptionCodes.length).toBeGreaterThan(0);
		expectRefusal(
			await h.api(drive.orgId, 'POST', '/subscription/bind', {
				assetId: drive.id,
				subscriptionCode: h.sim.info.expiredSubscriptionCodes[0],
			}),
			105202,
		);
	});

	test('motor code on a drive gives 105203', async () => {
		const drive = h.asset((a) => a.assetType === 'Drive' && a.gatewayType === 'IOTPanel', 'drive');
		expectRefusal(
			await h.api(drive.orgId, 'POST', '/subscription/bind', {
				assetId: drive.id,
				subscriptionCode: code('Premium', 'Motor'),
			}),
			105203,
		);
	});

	test('a used code gives 105204', async () => {
		const [first, second] = h.sim.fleet
			.assets()
			.filter((a) => a.assetType === 'Drive' && a.gatewayType === 'IOTPanel' && a.orgId === euA);
		const once = code('Basic', 'Drive');
		expectSuccess(
			await h.api(euA, 'POST', '/subscription/bind', { assetId: first.id, subscriptionCode: once }),
		);
		expectRefusal(
			await h.api(euA, 'POST', '/subscription/bind', {
				assetId: second.id,
				subscriptionCode: once,
			}),
			105204,
		);
	});

	test('NETA21 assets accept only Premium codes: Standard gives 105205, Premium binds', async () => {
		const neta = h.asset(
			(a) => a.gatewayType === 'NETA21' && a.assetType === 'Drive',
			'NETA21 drive',
		);
		const answer = await h.api(neta.orgId, 'POST', '/subscription/bind', {
			assetId: neta.id,
			subscriptionCode: code('Standard', 'Drive'),
		});
		expectRefusal(answer, 105205);
		expect(answer.body.message).toMatch(/NETA21/);
		expectSuccess(
			await h.api(neta.orgId, 'POST', '/subscription/bind', {
				assetId: neta.id,
				subscriptionCode: code('Premium', 'Drive'),
			}),
		);
	});

	test('PowerTrain gives 102202; unknown asset 102201; asset of another EU 102401', async () => {
		const train = h.asset((a) => a.assetType === 'PowerTrain', 'PowerTrain');
		expectRefusal(
			await h.api(train.orgId, 'POST', '/subscription/bind', {
				assetId: train.id,
				subscriptionCode: code('Premium', 'Drive'),
			}),
			102202,
		);
		expectRefusal(
			await h.api(euA, 'POST', '/subscription/bind', { assetId: 9_999_999, subscriptionCode: 'x' }),
			102201,
		);
		const foreign = h.asset(
			(a) => a.orgId === euB && a.assetType === 'Drive',
			'drive of the second EU',
		);
		expectRefusal(
			await h.api(euA, 'POST', '/subscription/bind', {
				assetId: foreign.id,
				subscriptionCode: 'x',
			}),
			102401,
		);
	});
});

describe('E8 asset detail and E9 subscriptions', () => {
	test('detail has every field of the spec, assetGroup as the payload name (A2)', async () => {
		const drive = h.asset(
			(a) => a.assetType === 'Drive' && a.modelType.startsWith('ACS880'),
			'ACS880 drive',
		);
		const detail = expectSuccess(
			await h.api(drive.orgId, 'GET', `/assetmanagement/asset/${drive.id}`),
		);
		expect(Object.keys(detail).sort()).toEqual(
			[
				'id',
				'serialNumber',
				'name',
				'assetType',
				'organization',
				'assetGroup',
				'plant',
				'modelType',
				'firmwareVersion',
				'gatewayType',
				'gatewaySerialNumber',
				'simiccid',
				'latestDataReceived',
				'address',
				'longitude',
				'latitude',
				'expertService',
				'createdOn',
				'createdUserId',
				'createdUserPhone',
			].sort(),
		);
		expect(detail).toMatchObject({
			id: drive.id,
			assetType: 'Drive',
			modelType: drive.modelType,
			createdOn: drive.createdOn,
		});
		expect(Object.keys(detail.expertService).sort()).toEqual([
			'serviceContractExpiredTime',
			'serviceContractStartTime',
			'serviceStatus',
			'serviceType',
		]);
		expect([0, 1, 2, 3]).toContain(detail.expertService.serviceStatus);
	});

	test('assets added before the CreatedUserId introduction date have it empty', async () => {
		const old = h.sim.fleet
			.assets()
			.filter(
				(a) =>
					a.assetType !== 'PowerTrain' && Date.parse(a.createdOn) < Date.now() - 560 * 86_400_000,
			)[0];
		expect(old).toBeDefined();
		expect(
			expectSuccess(await h.api(old.orgId, 'GET', `/assetmanagement/asset/${old.id}`)),
		).toMatchObject({ createdUserId: null, createdUserPhone: null });
	});

	test('PowerTrain detail and subscriptions give 102202', async () => {
		const train = h.asset((a) => a.assetType === 'PowerTrain', 'PowerTrain');
		expectRefusal(await h.api(train.orgId, 'GET', `/assetmanagement/asset/${train.id}`), 102202);
		expectRefusal(
			await h.api(train.orgId, 'GET', `/assetmanagement/subscription/${train.id}`),
			102202,
		);
	});

	test('an expired asset lists its subscription as Expired', async () => {
		const expired = h.asset((a) => a.level === 'expired', 'expired asset');
		const subs = expectSuccess(
			await h.api(expired.orgId, 'GET', `/assetmanagement/subscription/${expired.id}`),
		);
		expect(subs.length).toBeGreaterThan(0);
		expect(subs.every((s: { status: string }) => s.status === 'Expired')).toBe(true);
	});
});

describe('E10 create drive asset', () => {
	const body = (overrides: Record<string, unknown> = {}): Record<string, unknown> => {
		const org = h.sim.fleet.orgs().find((o) => o.id === euA)!;
		return {
			Name: 'New pump drive',
			AssetGroupId: org.groupIds[0],
			PlantId: org.plantIds[0],
			SerialNumber: h.sim.info.registrySerialNumbers[0],
			GatewayType: 2,
			AssetReference: {
				IOTPanel: {
					DriveModel: 'ACS880-01-045A-3',
					DeviceNodeId: '01',
					SIMICCID: '89860000000000000001',
				},
			},
			...overrides,
		};
	};

	test('creates an IOT Panel drive from the registry; it then appears in E3 and stands at Entry', async () => {
		const created = expectSuccess(await h.api(euA, 'POST', '/assetmanagement/asset', body()));
		expect(created).toMatchObject({
			serialNumber: h.sim.info.registrySerialNumbers[0],
			name: 'New pump drive',
			assetType: 'Drive',
			gatewayType: 'IOTPanel',
			simiccid: '89860000000000000001',
		});
		expect(Object.keys(created).sort()).toEqual(
			[
				'assetGroup',
				'assetType',
				'createdOn',
				'firmwareVersion',
				'gatewaySerialNumber',
				'gatewayType',
				'id',
				'latestDataReceived',
				'modelType',
				'name',
				'organization',
				'plant',
				'serialNumber',
				'simiccid',
			].sort(),
		);
		const listed = expectSuccess(await h.api(euA, 'GET', `/organization/${euA}/assets`));
		expect(listed.map((a: { id: number }) => a.id)).toContain(created.id);
		expect(
			expectSuccess(await h.api(euA, 'GET', `/assetdata/${created.id}/condition`)).map(
				(c: { type: string }) => c.type,
			),
		).toEqual(['Overall']);
	});

	test('creates a NETA21 drive with camelCase keys', async () => {
		const serial = h.sim.info.registrySerialNumbers[1];
		const created = expectSuccess(
			await h.api(euA, 'POST', '/assetmanagement/asset', {
				...Object.fromEntries(
					Object.entries(
						body({ SerialNumber: serial, GatewayType: 1, AssetReference: undefined }),
					).map(([k, v]) => [k[0].toLowerCase() + k.slice(1), v]),
				),
				assetReference: { neta21: { gatewaySN: 'N21GW0001', deviceNodeId: '3' } },
			}),
		);
		expect(created).toMatchObject({ gatewayType: 'NETA21', gatewaySerialNumber: 'N21GW0001' });
	});

	test('an existing serial gives 102203; a serial not in the registry 102204', async () => {
		const existing = h.asset((a) => a.assetType === 'Drive', 'drive');
		expectRefusal(
			await h.api(
				euA,
				'POST',
				'/assetmanagement/asset',
				body({ SerialNumber: existing.serialNumber }),
			),
			102203,
		);
		expectRefusal(
			await h.api(euA, 'POST', '/assetmanagement/asset', body({ SerialNumber: 'D00000000X' })),
			102204,
		);
	});

	test('group: unknown 103201, of another EU 103401; plant: unknown 104201, of another EU 104401', async () => {
		const other = h.sim.fleet.orgs().find((o) => o.id === euB)!;
		expectRefusal(
			await h.api(euA, 'POST', '/assetmanagement/asset', body({ AssetGroupId: 999_999 })),
			103201,
		);
		expectRefusal(
			await h.api(euA, 'POST', '/assetmanagement/asset', body({ AssetGroupId: other.groupIds[0] })),
			103401,
		);
		expectRefusal(
			await h.api(euA, 'POST', '/assetmanagement/asset', body({ PlantId: 999_999 })),
			104201,
		);
		expectRefusal(
			await h.api(euA, 'POST', '/assetmanagement/asset', body({ PlantId: other.plantIds[0] })),
			104401,
		);
	});

	test(`name and serial limits: ${LIMITS.assetNameMax + 1} characters give 100400 naming the field`, async () => {
		const longName = await h.api(
			euA,
			'POST',
			'/assetmanagement/asset',
			body({ Name: 'n'.repeat(LIMITS.assetNameMax + 1) }),
		);
		expectRefusal(longName, 100400);
		expect(longName.body.message).toMatch(/'Name' must be at most 30/);
		const longSerial = await h.api(
			euA,
			'POST',
			'/assetmanagement/asset',
			body({ SerialNumber: 's'.repeat(LIMITS.serialNumberMax + 1) }),
		);
		expectRefusal(longSerial, 100400);
		expect(longSerial.body.message).toMatch(/'SerialNumber' must be at most 30/);
	});

	test('bad GatewayType, missing reference block and a one-digit IOT Panel DeviceNodeId give 100400', async () => {
		expectRefusal(
			await h.api(euA, 'POST', '/assetmanagement/asset', body({ GatewayType: 3 })),
			100400,
		);
		expectRefusal(
			await h.api(
				euA,
				'POST',
				'/assetmanagement/asset',
				body({ AssetReference: { NETA21: { GatewaySN: 'x', DeviceNodeId: '1' } } }),
			),
			100400,
		);
		const node = await h.api(
			euA,
			'POST',
			'/assetmanagement/asset',
			body({
				AssetReference: { IOTPanel: { DeviceNodeId: '1', SIMICCID: '89860000000000000001' } },
			}),
		);
		expectRefusal(node, 100400);
		expect(node.body.message).toMatch(/DeviceNodeId/);
	});
});

describe('E11 rename, E12 move, E13 delete', () => {
	test('rename shows in the detail; 31 characters give 100400; PowerTrain 102202', async () => {
		const motor = h.asset((a) => a.assetType === 'Motor' && a.orgId === euA, 'motor');
		expect(
			expectSuccess(
				await h.api(euA, 'PUT', '/assetmanagement/asset', { id: motor.id, name: 'Renamed motor' }),
			),
		).toEqual({});
		expect(expectSuccess(await h.api(euA, 'GET', `/assetmanagement/asset/${motor.id}`)).name).toBe(
			'Renamed motor',
		);
		expectRefusal(
			await h.api(euA, 'PUT', '/assetmanagement/asset', {
				id: motor.id,
				name: 'r'.repeat(LIMITS.assetNameMax + 1),
			}),
			100400,
		);
		const train = h.asset((a) => a.assetType === 'PowerTrain' && a.orgId === euA, 'PowerTrain');
		expectRefusal(
			await h.api(euA, 'PUT', '/assetmanagement/asset', { id: train.id, name: 'x' }),
			102202,
		);
	});

	test('move to another group of the EU; a group of another EU gives 103401, unknown 103201', async () => {
		const org = h.sim.fleet.orgs().find((o) => o.id === euA)!;
		const drive = h.asset(
			(a) => a.assetType === 'Drive' && a.orgId === euA && a.powerTrainId === null,
			'drive',
		);
		const target = org.groupIds.find((g) => g !== drive.groupId)!;
		expect(
			expectSuccess(
				await h.api(euA, 'PUT', '/assetmanagement/asset/move', {
					assetId: drive.id,
					assetGroupId: target,
				}),
			),
		).toEqual({});
		const inGroup = expectSuccess(
			await h.api(euA, 'GET', `/organization/${euA}/assetgroup/${target}/assets`),
		);
		expect(inGroup.map((a: { id: number }) => a.id)).toContain(drive.id);
		const foreignGroup = h.sim.fleet.orgs().find((o) => o.id === euB)!.groupIds[0];
		expectRefusal(
			await h.api(euA, 'PUT', '/assetmanagement/asset/move', {
				assetId: drive.id,
				assetGroupId: foreignGroup,
			}),
			103401,
		);
		expectRefusal(
			await h.api(euA, 'PUT', '/assetmanagement/asset/move', {
				assetId: drive.id,
				assetGroupId: 999_999,
			}),
			103201,
		);
	});

	test('delete removes the asset (then 102201); a PowerTrain member gives 100403; a PowerTrain 102202', async () => {
		const victim = h.sim.fleet
			.assets()
			.filter((a) => a.assetType === 'Drive' && a.orgId === euB && a.powerTrainId === null)
			.at(-1)!;
		expect(
			expectSuccess(await h.api(euB, 'DELETE', `/assetmanagement/asset/${victim.id}`)),
		).toEqual({});
		expectRefusal(await h.api(euB, 'GET', `/assetmanagement/asset/${victim.id}`), 102201);
		const member = h.asset((a) => a.powerTrainId !== null, 'PowerTrain member');
		expectRefusal(
			await h.api(member.orgId, 'DELETE', `/assetmanagement/asset/${member.id}`),
			100403,
		);
		expectRefusal(
			await h.api(member.orgId, 'DELETE', `/assetmanagement/asset/${member.powerTrainId}`),
			102202,
		);
	});
});
