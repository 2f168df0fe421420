import type { BotConfig } from '../../config/schema';
import type { CbmResult, PlatformEvent } from '../../platform/types';
import type { SqlScope } from '../../state/scope';
import { type AlertState, alertState } from './state';
import {
	type AlertRecord,
	type AssetRef,
	type CbmAlert,
	cbmKey,
	cbmSeverity,
	eventKey,
} from '../../kernel/alert';
import { meetsSeverity, routeAlert } from './routing';

export type AssetResolver = (assetId: number) => Promise<AssetRef>;

const ALERTING = new Set(['Yellow', 'Red']);

/**
 * Turns what the sources observe (events, CBM results) into outbox entries, once: an event
 * already posted, or a CBM status already known, changes nothing. Each observation is one
 * transaction, finished before the source acknowledges it.
 */
export class AlertEngine {
	constructor(
		private readonly state: AlertState,
		private readonly config: BotConfig,
		private readonly resolveAsset: AssetResolver,
		private readonly onEnqueued: () => void,
		/** Silences: an alert it covers is recorded (in the transaction `tx`) for the silence's summary instead of posted. */
		private readonly suppress?: (
			alert: AlertRecord,
			channel: string,
			tx: SqlScope,
		) => Promise<boolean>,
	) {}

	/** Returns true when the observation produced Slack work. */
	async observeEvent(assetId: number, event: PlatformEvent): Promise<boolean> {
		const severity = event.eventType;
		if (!meetsSeverity(severity, this.config.alerts.minSeverity)) return false;
		const key = eventKey(assetId, event.id);
		const status = event.eventStatus === 'Close' ? 'Close' : 'Open';
		const known = await this.state.alerts.getEvent(key);
		if (known && (known.status === status || known.status === 'Close')) return false;
		const asset = known?.alert.asset ?? (await this.resolveAsset(assetId));
		const alert = toAlertRecord(key, asset, event, status);
		const changed = await this.state.scope.transaction(async (tx) => {
			const store = alertState(tx);
			const again = await store.alerts.getEvent(key); // another source (or replica) may have won the race
			if (again && (again.status === status || again.status === 'Close')) return false;
			await store.alerts.putEvent(alert);
			for (const channel of routeAlert(this.config.alerts, asset, severity)) {
				// A muted alert never posted stays in the silence's summary (which shows its close).
				if (
					this.suppress &&
					(await store.alerts.getMessage(key, channel)) === undefined &&
					(await this.suppress(alert, channel, tx))
				)
					continue;
				await store.outbox.enqueue(
					channel,
					again ? { kind: 'resolve', alert } : { kind: 'alert', alert },
				);
			}
			return true;
		});
		if (changed) this.onEnqueued();
		return changed;
	}

	/**
	 * An event never seen before, as the alert it would be, without recording anything: a
	 * catch-up (B47) collects these and commits them together with one summary per channel.
	 */
	async newAlert(
		assetId: number,
		event: PlatformEvent,
	): Promise<{ alert: AlertRecord; channels: string[] } | undefined> {
		if (!meetsSeverity(event.eventType, this.config.alerts.minSeverity)) return undefined;
		const key = eventKey(assetId, event.id);
		if (await this.state.alerts.getEvent(key)) return undefined;
		const asset = await this.resolveAsset(assetId);
		const alert = toAlertRecord(
			key,
			asset,
			event,
			event.eventStatus === 'Close' ? 'Close' : 'Open',
		);
		return { alert, channels: routeAlert(this.config.alerts, asset, alert.severity) };
	}

	/** Records collected alerts (those still unknown) and one catch-up message per channel, in one transaction. */
	async commitCatchUp(
		collected: ReadonlyArray<{ alert: AlertRecord; channels: string[] }>,
		since: string,
		listed: number,
	): Promise<number> {
		const recorded = await this.state.scope.transaction(async (tx) => {
			const store = alertState(tx);
			// Only those another source did not post meanwhile.
			const fresh: Array<{ alert: AlertRecord; channels: string[] }> = [];
			for (const c of collected) if (!(await store.alerts.getEvent(c.alert.key))) fresh.push(c);
			for (const { alert } of fresh) await store.alerts.putEvent(alert);
			for (const [channel, alerts] of byChannel(
				fresh.map((c) => ({ item: c.alert, channels: c.channels })),
			)) {
				alerts.sort((a, b) => b.eventTime.localeCompare(a.eventTime));
				const bySeverity: Record<string, number> = {};
				for (const a of alerts) bySeverity[a.severity] = (bySeverity[a.severity] ?? 0) + 1;
				const summary = {
					since,
					total: alerts.length,
					stillOpen: alerts.filter((a) => a.status === 'Open').length,
					bySeverity,
					listed: alerts.slice(0, listed),
				};
				await store.outbox.enqueue(channel, {
					kind: 'catch_up',
					summary,
					keys: alerts.map((a) => a.key),
				});
			}
			return fresh.length;
		});
		if (recorded > 0) this.onEnqueued();
		return recorded;
	}

	/**
	 * Records CBM units never seen before that are Yellow or Red without posting them: during a
	 * first round they are the fleet's standing state, staged in the state file for one CBM digest
	 * per channel when the round ends (B47), rather than held in memory for the whole round (an hour
	 * by default) or lost with a restart. Returns the unit types it recorded.
	 */
	async recordCbmFirstSightings(assetId: number, results: readonly CbmResult[]): Promise<string[]> {
		if (!this.config.cbm.enabled) return [];
		const fresh: CbmResult[] = [];
		for (const u of results)
			if (
				ALERTING.has(u.deviceUnitStatus) &&
				(await this.state.cbm.getStatus(cbmKey(assetId, u.deviceUnitType))) === undefined
			)
				fresh.push(u);
		if (fresh.length === 0) return [];
		const asset = await this.resolveAsset(assetId);
		await this.state.scope.transaction(async (tx) => {
			const store = alertState(tx);
			for (const u of fresh) {
				const key = cbmKey(assetId, u.deviceUnitType);
				await store.cbm.putStatus(toCbmAlert(key, asset, u));
				await store.cbm.stageFirstSighting(key);
			}
		});
		return fresh.map((u) => u.deviceUnitType);
	}

	/**
	 * Ends a first CBM round: one CBM digest per channel of the staged first sightings still Yellow
	 * or Red (one that recovered since was posted as such), in one transaction. Returns how many.
	 */
	async commitCbmCatchUp(day: string): Promise<number> {
		const recorded = await this.state.scope.transaction(async (tx) => {
			const store = alertState(tx);
			const units: CbmAlert[] = [];
			for (const key of await store.cbm.takeStagedFirstSightings()) {
				const unit = await store.cbm.getUnit(key);
				if (unit !== undefined && ALERTING.has(unit.status)) units.push(unit);
			}
			const routed = units.map((u) => ({
				item: u,
				channels: routeAlert(this.config.alerts, u.asset, cbmSeverity(u.status)),
			}));
			for (const [channel, list] of byChannel(routed))
				await store.outbox.enqueue(channel, { kind: 'cbm_digest', units: list, day });
			return units.length;
		});
		if (recorded > 0) this.onEnqueued();
		return recorded;
	}

	async observeCbm(assetId: number, results: readonly CbmResult[]): Promise<boolean> {
		if (!this.config.cbm.enabled) return false;
		const changes: CbmResult[] = [];
		// The asset's detail (E8) only when something will be posted: a first sighting of Good or
		// Gray across a fleet must not read every drive's detail (B48).
		let posts = false;
		for (const unit of results) {
			const known = await this.state.cbm.getStatus(cbmKey(assetId, unit.deviceUnitType));
			if (known === unit.deviceUnitStatus) continue;
			changes.push(unit);
			posts ||= ALERTING.has(unit.deviceUnitStatus) || ALERTING.has(known ?? '');
		}
		if (changes.length === 0) return false;
		const asset = posts ? await this.resolveAsset(assetId) : unresolvedAsset(assetId);
		const posted = await this.state.scope.transaction(async (tx) => {
			const store = alertState(tx);
			let enqueued = false;
			for (const unit of changes) {
				const key = cbmKey(assetId, unit.deviceUnitType);
				const previous = await store.cbm.getStatus(key);
				if (previous === unit.deviceUnitStatus) continue;
				const cbm = toCbmAlert(key, asset, unit, previous);
				await store.cbm.putStatus(cbm);
				const recovered =
					unit.deviceUnitStatus === 'Good' && previous !== undefined && ALERTING.has(previous);
				if (!ALERTING.has(unit.deviceUnitStatus) && !recovered) continue;
				const severity = cbmSeverity(recovered ? (previous as string) : unit.deviceUnitStatus);
				for (const channel of routeAlert(this.config.alerts, asset, severity)) {
					await store.outbox.enqueue(
						channel,
						recovered ? { kind: 'cbm_good', cbm } : { kind: 'cbm', cbm },
					);
					enqueued = true;
				}
			}
			return enqueued;
		});
		if (posted) this.onEnqueued();
		return posted;
	}
}

/** Items grouped by the channels each goes to, in order. */
function byChannel<T>(
	routed: ReadonlyArray<{ item: T; channels: readonly string[] }>,
): Map<string, T[]> {
	const groups = new Map<string, T[]>();
	for (const { item, channels } of routed) {
		for (const channel of channels) {
			const list = groups.get(channel) ?? [];
			list.push(item);
			groups.set(channel, list);
		}
	}
	return groups;
}

/** What a stored CBM status names when nothing was posted about it (its next post resolves the asset). */
function unresolvedAsset(id: number): AssetRef {
	return { id, name: `asset ${id}`, serialNumber: '-', organization: '', group: '', plant: '' };
}

function toAlertRecord(
	key: string,
	asset: AssetRef,
	event: PlatformEvent,
	status: 'Open' | 'Close',
): AlertRecord {
	return {
		key,
		eventId: String(event.id),
		severity: event.eventType,
		asset,
		code: event.eventCode ?? '',
		content: event.content ?? '',
		eventTime: event.eventDateTime ?? new Date().toISOString(),
		status,
		closeReason: event.closeReason ?? undefined,
		closeAt: event.closeAt ?? undefined,
		deviceWorkStatus: event.deviceWorkStatus ?? undefined,
		hasLogger: event.isHasEventLogger === true,
	};
}

export function toCbmAlert(
	key: string,
	asset: AssetRef,
	unit: CbmResult,
	previous?: string,
): CbmAlert {
	return {
		key,
		asset,
		unit: unit.deviceUnitType,
		status: unit.deviceUnitStatus,
		previous,
		predictedNoPlanDate: unit.predictedNoPlanDate ?? undefined,
		predictedStartPlanDate: unit.predictedStartPlanDate ?? undefined,
		predictedRunPlanDate: unit.predictedRunPlanDate ?? undefined,
		kpis: (unit.deviceDayKPIs ?? [])
			.map((k) => ({ date: k.date ?? '', kpi: k.kpi ?? 0 }))
			.sort((a, b) => a.date.localeCompare(b.date)),
	};
}
