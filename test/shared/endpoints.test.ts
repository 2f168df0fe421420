// Every endpoint (E1 to E30) through the core, against the simulator over real HTTP.
import {
	DownloadError,
	DriveMonitoringApiError,
	utc8DateTimeToInstant,
	formatUtc8Date,
	type DriveMonitoringClient,
} from '../../shared';
import { startEuHarness, type Harness } from './harness';

let h: Harness;
let client: DriveMonitoringClient;
let orgId: number;

beforeAll(async () => {
	({ h, client, orgId } = await startEuHarness());
});

afterAll(async () => {
	await h.close();
});

const DAY = 24 * 3600 * 1000;
const fleet = () => h.sim.fleet.assets().filter((a) => a.orgId === orgId);
function pick(what: string, predicate: (a: ReturnType<typeof fleet>[number]) => boolean) {
	const asset = fleet().find(predicate);
	if (!asset) throw new Error(`the seeded fleet has no ${what}`);
	return asset;
}
const premiumDrive = () =>
	pick(
		'Standard/Premium CBM drive',
		(a) =>
			a.assetType === 'Drive' && (a.level === 'Premium' || a.level === 'Standard') && a.cbmCapable,
	);
const now = () => h.sim.clock.now();

describe('organization (E1 to E6)', () => {
	test('E1, E2: own organization and its tree', async () => {
		const org = await client.organization.get();
		expect(org).toMatchObject({ id: orgId, orgType: 'EU' });
		const tree = await client.organization.getNodes();
		expect(tree.orgId).toBe(orgId);
		const view = h.sim.fleet.orgs().find((o) => o.id === orgId)!;
		expect(tree.assetGroups.map((g) => g.id).sort()).toEqual([...view.groupIds].sort());
		expect(tree.plants.map((p) => p.id).sort()).toEqual([...view.plantIds].sort());
		expect(tree.subOrgs).toEqual([]);
	});

	test('E3, E4, E6: assets of the organization and of a group, and their counts', async () => {
		const assets = await client.organization.listAssets({ orgId });
		expect(assets.map((a) => a.id).sort()).toEqual(
			fleet()
				.filter((a) => a.powerTrainId === null)
				.map((a) => a.id)
				.sort(),
		);
		const groupId = assets[0].assetGroupId!;
		const inGroup = await client.organization.listGroupAssets({ orgId, assetGroupId: groupId });
		expect(inGroup.length).toBeGreaterThan(0);
		expect(inGroup.every((a) => a.assetGroupId === groupId)).toBe(true);
		const stats = await client.organization.getAssetStatistics({ orgId });
		expect(stats.drive).toBe(fleet().filter((a) => a.assetType === 'Drive').length);
		expect(stats.motor).toBe(fleet().filter((a) => a.assetType === 'Motor').length);
	});

	test('E3 of a CP: PowerTrains carry their drive and motor as subAssets (A2)', async () => {
		const trains = h.sim.fleet.assets().filter((a) => a.assetType === 'PowerTrain');
		expect(trains.length).toBeGreaterThan(0);
		const trainOrg = trains[0].orgId;
		const vendor = h.client({ orgType: 'VENDOR' });
		const assets = await vendor.organization.listAssets({ orgId: trainOrg });
		const train = assets.find((a) => a.id === trains[0].id)!;
		expect(train.subAssets?.map((a) => a.id).sort()).toEqual([...trains[0].memberIds!].sort());
	});
});

describe('asset management (E5, E7 to E13)', () => {
	test('create a group, create a drive in it, read, rename, move, list subscriptions, bind a code, delete', async () => {
		const group = await client.organization.createAssetGroup({
			orgId,
			name: `Core ${Date.now() % 100000}`,
		});
		expect(group.id).toEqual(expect.any(Number));
		const tree = await client.organization.getNodes();
		expect(tree.assetGroups.map((g) => g.id)).toContain(group.id);

		const serial = h.sim.info.registrySerialNumbers[0];
		const plantId = tree.plants[0].id;
		const drive = await client.assets.createDrive({
			name: 'Core test drive',
			assetGroupId: group.id,
			plantId,
			serialNumber: serial,
			gatewayType: 'IOTPanel',
			assetReference: { driveModel: 'ACS580', deviceNodeId: 1, simiccid: '8986001234567890123' },
		});
		expect(drive).toMatchObject({
			serialNumber: serial,
			name: 'Core test drive',
			assetType: 'Drive',
			simiccid: '8986001234567890123',
		});

		await expect(client.assets.rename({ id: drive.id, name: 'Renamed drive' })).resolves.toEqual(
			{},
		);
		const otherGroup = tree.assetGroups.find((g) => g.id !== group.id)!;
		await expect(
			client.assets.move({ assetId: drive.id, assetGroupId: otherGroup.id }),
		).resolves.toEqual({});
		const detail = await client.assets.get({ id: drive.id });
		expect(detail).toMatchObject({
			id: drive.id,
			name: 'Renamed drive',
			assetGroup: otherGroup.name,
			gatewayType: 'IOTPanel',
		});

		expect(await client.assets.listSubscriptions({ assetId: drive.id })).toEqual([]);
		const code = h.sim.info.subscriptionCodes.find((c) => c.assetType === 'Drive')!;
		await expect(
			client.subscription.bind({ assetId: drive.id, subscriptionCode: code.code }),
		).resolves.toEqual({});
		const subscriptions = await client.assets.listSubscriptions({ assetId: drive.id });
		expect(subscriptions).toEqual([
			expect.objectContaining({ code: code.code, level: code.level }),
		]);

		await expect(client.assets.delete({ id: drive.id })).resolves.toEqual({});
		const gone = await client.assets.get({ id: drive.id }).catch((e: unknown) => e);
		expect(gone).toBeInstanceOf(DriveMonitoringApiError);
		expect(gone).toMatchObject({
			code: 102201,
			meaning: 'asset does not exist',
			httpStatus: 400,
			endpoint: { id: 'E8' },
		});
	});
});

describe('asset data (E14 to E25)', () => {
	test('E14, E15: events of a window, then a logger file downloaded from its temporary link', async () => {
		const asset = premiumDrive();
		const raised = h.sim.control.raiseEvent(asset.id, {
			eventType: 'Fault',
			eventCode: 'F0001',
			hasLogger: true,
		});
		const events = await client.assetData.listEvents({
			assetId: asset.id,
			startTime: new Date(now() - 6 * DAY),
			endTime: new Date(now() + 60_000),
		});
		const event = events.find((e) => e.id === raised.id);
		expect(event).toMatchObject({
			eventType: 'Fault',
			eventCode: 'F0001',
			eventStatus: 'Open',
			isHasEventLogger: true,
		});
		const files = await client.assetData.getEventLoggerFiles({
			assetId: asset.id,
			eventId: event!.id,
		});
		expect(files).toHaveLength(1);
		const file = await client.files.download(files[0].loggerFile!);
		expect(file.fileName).toBe(`event-${event!.id}-logger.csv`);
		expect(file.mimeType).toBe('text/csv');
		expect(file.data.length).toBeGreaterThan(0);
		const last = h.sim.requests.entries.filter((r) => r.endpoint === 'file').pop();
		expect(last?.status).toBe(200);
		// A tampered link is refused by the platform: a DownloadError saying so, without the link.
		const tampered = files[0].loggerFile!.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
		const refused = await client.files.download(tampered).catch((e: unknown) => e);
		expect(refused).toBeInstanceOf(DownloadError);
		expect(refused).toMatchObject({ httpStatus: 403, linkRefused: true });
		expect((refused as Error).message).toMatch(/expired or was altered/);
	});

	test('E15 on a Basic asset: 102403 explained by the level table', async () => {
		const basic = pick(
			'Basic drive or motor',
			(a) => a.level === 'Basic' && a.assetType !== 'PowerTrain',
		);
		const raised = h.sim.control.raiseEvent(basic.id, { eventType: 'Warning', hasLogger: true });
		const error = await client.assetData
			.getEventLoggerFiles({ assetId: basic.id, eventId: raised.id as number })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(DriveMonitoringApiError);
		expect(error).toMatchObject({
			code: 102403,
			httpStatus: 403,
			endpoint: { id: 'E15', name: 'Get event logger file' },
		});
		expect((error as Error).message).toContain('Event logger files need Standard or Premium');
	});

	test('E16, E17: configuration, then a series with numbers or nulls per timestamp', async () => {
		const asset = premiumDrive();
		const config = await client.assetData.getTrendSignalConfig({ assetId: asset.id });
		expect(config.trends.length + config.signals.length).toBeGreaterThan(0);
		const code = (config.trends[0] ?? config.signals[0]).code;
		const data = await client.assetData.queryTrendSignalData({
			assetId: asset.id,
			parameters: [code],
			startTime: new Date(now() - 2 * DAY),
			endTime: new Date(now()),
		});
		const series = data.paramDatas[0];
		expect(series.config.code).toBe(code);
		expect(series.timestamp.length).toBeGreaterThan(0);
		expect(series.timestamp.every((t) => Number.isInteger(t))).toBe(true);
		expect(series.avg.every((v) => v === null || typeof v === 'number')).toBe(true);
	});

	test('E18, E19, E20: conditions, CBM results, commissioning date', async () => {
		const asset = premiumDrive();
		const conditions = await client.assetData.getConditions({ assetId: asset.id });
		expect(conditions.map((c) => c.type)).toContain('Overall');
		const cbm = await client.assetData.getCbm({ assetId: asset.id });
		expect(cbm.map((u) => u.deviceUnitType).sort()).toEqual(['Capacitor', 'Fan', 'IGBT']);
		for (const unit of cbm) {
			for (const date of [
				unit.predictedNoPlanDate,
				unit.predictedStartPlanDate,
				unit.predictedRunPlanDate,
			]) {
				if (date !== null) expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
			}
		}
		const echo = await client.assetData.setCommissioningDate({
			assetId: asset.id,
			deviceUnitType: 'Fan',
			commissioningDate: '2024-01-15T00:00:00Z',
		});
		expect(echo).toMatchObject({
			assetId: asset.id,
			deviceUnitType: 'Fan',
			commissioningDate: '2024-01-15T00:00:00Z',
		});
	});

	test('E21, E22, E23: create a report, see it listed, download the PDF once created', async () => {
		const asset = pick(
			'reportable drive',
			(a) =>
				a.assetType === 'Drive' &&
				a.level !== 'Entry' &&
				a.level !== 'expired' &&
				now() - Date.parse(a.createdOn) > 30 * DAY,
		);
		const end = formatUtc8Date(new Date(now() - DAY));
		const start = formatUtc8Date(new Date(now() - 15 * DAY));
		const report = await client.assetData.createReport({
			assetIds: [asset.id],
			title: 'Monthly drive report',
			subTitle: 'Pump',
			reportType: 'UserDriveReport',
			startDate: start,
			endDate: end,
		});
		expect(report).toMatchObject({
			title: 'Monthly drive report',
			status: 'Creating',
			reportType: 'UserDriveReport',
		});
		const listed = await client.assetData.listReports({ assetId: asset.id });
		expect(listed.map((r) => r.id)).toContain(report.id);
		h.sim.control.finishReport(report.id, 'Created');
		const download = await client.assetData.getReportDownload({
			assetId: asset.id,
			reportId: report.id,
		});
		expect(download).toMatchObject({ id: report.id, status: 'Created' });
		const file = await client.files.download(download.fileTemplink!);
		expect(file).toMatchObject({
			fileName: `report-${report.id}.pdf`,
			mimeType: 'application/pdf',
		});
		expect(file.data.subarray(0, 5).toString()).toBe('%PDF-');
	});

	test('E24, E25: parameter backups of the last year, read as UTC+8 times, and one backup content', async () => {
		const asset = premiumDrive();
		const backups = await client.assetData.listParameterBackups({
			assetId: asset.id,
			startTime: new Date(now() - 364 * DAY),
			endTime: new Date(now()),
		});
		expect(backups.length).toBeGreaterThan(0);
		const at = utc8DateTimeToInstant(backups[0].backupTime!);
		expect(at.getTime()).toBeLessThanOrEqual(now());
		const content = await client.assetData.getParameterBackup({
			assetId: asset.id,
			parameterSetId: backups[0].id,
		});
		expect(content.length).toBeGreaterThan(0);
		expect(content[0].parameters[0]).toEqual(
			expect.objectContaining({ paraId: expect.any(String), name: expect.any(String) }),
		);
	});
});

describe('data subscription (E26 to E30)', () => {
	test('create, read masked, subscribe types, reset password, delete', async () => {
		for (const user of await client.dataSubscription.getUsers())
			await client.dataSubscription.deleteUser({ subCustomerId: user.id });
		const created = await client.dataSubscription.createUser();
		expect(created.password).not.toBe('********');
		const [listed] = await client.dataSubscription.getUsers();
		expect(listed).toMatchObject({ id: created.id, password: '********' });
		const subscribed = await client.dataSubscription.setDataTypes({
			subCustomerId: created.id,
			topicName: 'plant-a',
			subDataTypes: ['AssetEvent', 'AssetCBM'],
		});
		expect(subscribed.subDataTypes).toEqual(['AssetEvent', 'AssetCBM']);
		const reset = await client.dataSubscription.resetPassword({ subCustomerId: created.id });
		expect(reset.password).not.toBe(created.password);
		await expect(
			client.dataSubscription.deleteUser({ subCustomerId: created.id }),
		).resolves.toEqual({});
		const gone = await client.dataSubscription
			.resetPassword({ subCustomerId: created.id })
			.catch((e: unknown) => e);
		expect(gone).toMatchObject({ code: 106201, meaning: 'data-subscription user does not exist' });
	});
});
