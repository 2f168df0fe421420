import type { ConditionType } from '../shared/spec';
import { eventPayload, type RaiseEventInput } from './data/events';
import type { ConditionStatus, UnitStatus, UnitType } from './data/health';
import { isCbmCapable, type AssetRec } from './fleet/model';
import { reportPayload, type Platform } from './platform';

/** What tests and demos can make happen inside the platform; each change is announced on the bus. */
export interface SimulatorControl {
	/** A new Open event on a Drive or Motor (bus: event.created). Returns the event as E14 lists it. */
	raiseEvent(assetId: number, input: RaiseEventInput): Record<string, unknown>;
	/** Closes an Open event (bus: event.closed). */
	closeEvent(assetId: number, eventId: number, reason?: string): Record<string, unknown>;
	/** Forces a CBM unit status (bus: cbm.daily for that asset). Returns the asset's CBM results. */
	setCbmUnit(
		assetId: number,
		unitType: UnitType,
		status: UnitStatus,
	): Array<Record<string, unknown>>;
	/** Forces a health condition status (E18). */
	setCondition(assetId: number, type: ConditionType, status: ConditionStatus): void;
	/** Ends a Creating report now, as Created or Failed (bus: report.finished). */
	finishReport(
		reportId: number,
		status?: 'Created' | 'Failed',
		reason?: string,
	): Record<string, unknown>;
	/** Forces an asset online or offline (hourly state, LatestDataReceived, series gaps). */
	setOnline(assetId: number, online: boolean): void;
	/**
	 * Forces every asset behind one gateway online or offline: `gateway` is a gateway serial number,
	 * or the id of an asset whose gateway is meant. Returns the ids of the assets it affected.
	 */
	setGatewayOnline(gateway: string | number, online: boolean): number[];
	/** Puts drives and motors behind one NETA21 gateway (a line's gateway serves several); returns its serial number. */
	assignGateway(assetIds: readonly number[], gatewaySerialNumber?: string): string;
	/** The operator switch of the spec's Authentication step 1: off answers every API call with 100403. */
	setApiAccess(orgId: number, enabled: boolean): void;
	/** Ends every running subscription of an asset now (asset data then answers 102205). */
	expireSubscriptions(assetId: number): void;
	/** Emits the hourly state and daily CBM notifications now. */
	tickHourly(): void;
	tickDaily(): void;
}

export interface Ticks {
	emitHourly(time: number): void;
	emitDaily(time: number): void;
}

export function createControl(platform: Platform, ticks: Ticks): SimulatorControl {
	const assetOf = (assetId: number): AssetRec => {
		const asset = platform.store.asset(assetId);
		if (!asset) throw new Error(`control: asset ${assetId} does not exist`);
		return asset;
	};
	const monitored = (assetId: number): AssetRec => {
		const asset = assetOf(assetId);
		if (asset.assetType === 'PowerTrain')
			throw new Error(`control: asset ${assetId} is a PowerTrain; use its drive or motor`);
		return asset;
	};
	return {
		raiseEvent(assetId, input) {
			const event = platform.events.raise(monitored(assetId), input, platform.now());
			platform.emitEventCreated(event);
			return eventPayload(event);
		},
		closeEvent(assetId, eventId, reason = 'Closed by operator') {
			const asset = monitored(assetId);
			const event = platform.events.find(asset, eventId);
			if (!event) throw new Error(`control: event ${eventId} is not an event of asset ${assetId}`);
			if (event.status === 'Close') throw new Error(`control: event ${eventId} is already closed`);
			const closed = platform.events.close(event, reason, platform.now());
			platform.emitEventClosed(closed);
			return eventPayload(closed);
		},
		setCbmUnit(assetId, unitType, status) {
			const asset = monitored(assetId);
			if (!isCbmCapable(asset))
				throw new Error(
					`control: asset ${assetId} (${asset.modelType}) is not a CBM-capable drive`,
				);
			platform.health.setUnitStatus(assetId, unitType, status);
			const results = platform.health.cbm(asset, platform.now()) as unknown as Array<
				Record<string, unknown>
			>;
			platform.bus.emit('cbm.daily', { orgId: asset.orgId, assetId, results });
			return results;
		},
		setCondition(assetId, type, status) {
			platform.health.setCondition(monitored(assetId).id, type, status);
		},
		finishReport(reportId, status, reason) {
			const report = platform.data.reports.get(reportId);
			if (!report) throw new Error(`control: report ${reportId} does not exist`);
			if (report.status !== 'Creating')
				throw new Error(`control: report ${reportId} is already ${report.status}`);
			platform.finishReport(report, status, reason);
			return reportPayload(report);
		},
		setOnline(assetId, online) {
			platform.series.force(monitored(assetId).id, online, platform.now());
		},
		setGatewayOnline(gateway, online) {
			const serial = typeof gateway === 'number' ? monitored(gateway).gatewaySerialNumber : gateway;
			const behind = platform.store
				.assets()
				.filter(
					(a) =>
						a.assetType !== 'PowerTrain' &&
						a.gatewaySerialNumber.toLowerCase() === serial.toLowerCase(),
				);
			if (behind.length === 0)
				throw new Error(`control: no drive or motor is behind gateway ${serial}`);
			for (const asset of behind) platform.series.force(asset.id, online, platform.now());
			return behind.map((a) => a.id);
		},
		assignGateway(assetIds, gatewaySerialNumber) {
			const assets = assetIds.map(monitored);
			if (assets.length === 0) throw new Error('control: assignGateway needs at least one asset');
			const serial = gatewaySerialNumber ?? assets[0].gatewaySerialNumber;
			for (const asset of assets) {
				asset.gatewayType = 'NETA21';
				asset.gatewaySerialNumber = serial;
				asset.simIccid = '';
			}
			return serial;
		},
		setApiAccess(orgId, enabled) {
			const org = platform.store.org(orgId);
			if (!org) throw new Error(`control: organization ${orgId} does not exist`);
			org.apiAccessEnabled = enabled;
		},
		expireSubscriptions(assetId) {
			const now = platform.now();
			for (const sub of monitored(assetId).subscriptions) {
				if (sub.startAt > now) sub.startAt = now - 1;
				if (sub.endAt > now) sub.endAt = now;
			}
		},
		tickHourly() {
			ticks.emitHourly(platform.now());
		},
		tickDaily() {
			ticks.emitDaily(platform.now());
		},
	};
}
