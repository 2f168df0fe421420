import { SimulatorBus } from './bus';
import { BackupSource } from './data/backups';
import { EventStore, eventPayload, type EventRec } from './data/events';
import { HealthModel } from './data/health';
import { SeriesSource } from './data/series';
import { SubscriberStore } from './data/subscribers';
import { LinkSigner } from './files/links';
import type { AssetRec, FleetData, ReportRec } from './fleet/model';
import { FleetStore, subscriptionStatus } from './fleet/store';
import { SimClock, isoUtc } from './time';

/** The state of the simulated platform, shared by the API handlers, the controls and the ticks. */
export class Platform {
	readonly store: FleetStore;
	readonly bus = new SimulatorBus();
	readonly events: EventStore;
	readonly series: SeriesSource;
	readonly health: HealthModel;
	readonly backups: BackupSource;
	readonly subscribers: SubscriberStore;
	readonly links: LinkSigner;
	baseUrl = '';

	constructor(
		readonly seed: number,
		data: FleetData,
		readonly clock: SimClock,
		readonly reportGenerationMs: number,
	) {
		this.store = new FleetStore(data);
		this.events = new EventStore(seed, clock.origin);
		this.series = new SeriesSource(seed);
		this.health = new HealthModel(seed);
		this.backups = new BackupSource(seed);
		this.subscribers = new SubscriberStore(
			this.bus,
			() => clock.now(),
			(viewerId, orgId) => {
				const viewer = this.store.org(viewerId);
				return viewer !== undefined && this.store.canSeeOrg(viewer, orgId);
			},
		);
		this.links = new LinkSigner(
			() => this.baseUrl,
			() => clock.wallNow(),
		);
	}

	get data(): FleetData {
		return this.store.data;
	}

	now(): number {
		return this.clock.now();
	}

	orgIdOfAsset(assetId: number): number {
		return this.store.asset(assetId)?.orgId ?? 0;
	}

	emitEventCreated(event: EventRec): void {
		this.bus.emit('event.created', {
			orgId: this.orgIdOfAsset(event.assetId),
			assetId: event.assetId,
			event: eventPayload(event),
		});
	}

	emitEventClosed(event: EventRec): void {
		this.bus.emit('event.closed', {
			orgId: this.orgIdOfAsset(event.assetId),
			assetId: event.assetId,
			event: eventPayload(event),
		});
	}

	/** Moves a report out of Creating (documented failure rule: no asset has data in the period). */
	finishReport(report: ReportRec, status?: 'Created' | 'Failed', reason?: string): void {
		if (report.status !== 'Creating') return;
		const assets = report.assetIds
			.map((id) => this.store.asset(id))
			.filter((a): a is AssetRec => a !== undefined);
		const hasData = assets.some((a) => a.createdOn < report.end);
		const outcome = status ?? (assets.length === 0 ? 'Failed' : hasData ? 'Created' : 'Failed');
		report.status = outcome;
		report.failReason =
			outcome === 'Created'
				? null
				: (reason ??
					(assets.length === 0
						? 'the assets were deleted before the report was generated'
						: 'no data was collected for the assets in the period'));
		this.bus.emit('report.finished', {
			orgId: report.orgId,
			assetIds: [...report.assetIds],
			report: reportPayload(report),
		});
	}

	/** Finishes every report whose generation time has come. */
	finishDueReports(): void {
		const now = this.now();
		for (const report of this.data.reports.values())
			if (report.status === 'Creating' && report.readyAt <= now) this.finishReport(report);
	}

	assetListItem(asset: AssetRec): Record<string, unknown> {
		const org = this.store.org(asset.orgId);
		const group = this.store.group(asset.groupId);
		return {
			id: asset.id,
			name: asset.name,
			serialNumber: asset.serialNumber,
			organizationId: asset.orgId,
			organizationName: org?.name ?? '',
			assetGroupId: asset.groupId,
			assetGroupName: group?.name ?? '',
			assetType: asset.assetType,
			// A2: the payload name of the nested list.
			subDevices: asset.memberIds
				? asset.memberIds
						.map((id) => this.store.asset(id))
						.filter((a): a is AssetRec => a !== undefined)
						.map((a) => this.assetListItem(a))
				: null,
		};
	}

	assetDetail(asset: AssetRec): Record<string, unknown> {
		const org = this.store.org(asset.orgId);
		return {
			id: asset.id,
			serialNumber: asset.serialNumber,
			name: asset.name,
			assetType: asset.assetType,
			organization: org?.name ?? '',
			assetGroup: this.store.group(asset.groupId)?.name ?? '',
			plant: this.store.plant(asset.plantId)?.name ?? '',
			modelType: asset.modelType,
			firmwareVersion: asset.firmwareVersion,
			gatewayType: asset.gatewayType,
			gatewaySerialNumber: asset.gatewaySerialNumber,
			simiccid: asset.simIccid,
			latestDataReceived: this.latestDataReceived(asset),
			address: org ? `${org.province} ${org.city} ${org.district} ${org.address}`.trim() : '',
			longitude: asset.longitude,
			latitude: asset.latitude,
			expertService: {
				serviceStatus: asset.expertService.serviceStatus,
				serviceType: asset.expertService.serviceType,
				serviceContractStartTime: asset.expertService.contractStart,
				serviceContractExpiredTime: asset.expertService.contractEnd,
			},
			createdOn: isoUtc(asset.createdOn),
			createdUserId: asset.createdUserId,
			createdUserPhone: asset.createdUserPhone,
		};
	}

	/** The last collection point received, or null when nothing was received (lately). */
	latestDataReceived(asset: AssetRec): string | null {
		const last = this.series.latestOnline(asset, this.now());
		return last === undefined ? null : isoUtc(last);
	}

	subscriptionPayload(asset: AssetRec): Array<Record<string, unknown>> {
		const now = this.now();
		return asset.subscriptions.map((s) => {
			const status = subscriptionStatus(s, now);
			return {
				id: s.id,
				code: s.code,
				type: s.type,
				level: s.level,
				status,
				activedDate: status === 'Nonactivated' ? null : isoUtc(s.startAt),
				expiredDate: status === 'Nonactivated' ? null : isoUtc(s.endAt),
				period: s.period,
			};
		});
	}
}

export function reportPayload(report: ReportRec): Record<string, unknown> {
	return {
		id: report.id,
		title: report.title,
		subTitle: report.subTitle,
		reportType: report.reportType,
		startDateTime: isoUtc(report.start),
		endDateTime: isoUtc(report.end),
		status: report.status,
		createdOn: isoUtc(report.createdOn),
		createdUser: report.createdUser,
	};
}
