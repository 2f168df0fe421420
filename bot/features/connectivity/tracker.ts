/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { AssetRef } from '../../kernel/alert';
import { routeAlert } from '../alerts/routing';
import type { BotConfig } from '../../config/schema';
import { type BotLogger, errorText } from '../../log';
import type { AssetDetail } from '../../platform/types';
import type { SqlScope } from '../../state/scope';
import { Outbox } from '../alerts/outbox';
import { type AssetRow, ConnectivityStore } from './store';
import { type LinkState, type Outage, stillOffline } from '../../kernel/outage';

/** Assets going offline within this long of an outage's first member join its message. */
const SAME_OUTAGE_MS = 3_600_000;
/** Changes are gathered this long before they go out, so one push batch (or pass) makes one message. */
const FLUSH_DELAY_MS = 1_000;

export interface ConnectivityDeps {
	scope: SqlScope;
	config: BotConfig;
	/** `detail`: the E8 detail polling just read, so resolving costs no second read. */
	resolveAsset: (assetId: number, detail?: AssetDetail) => Promise<AssetRef>;
	/** The asset's gateway serial number (E8), named in the message when assets share one. */
	gatewayOf?: (assetId: number) => Promise<string | undefined>;
	/** Called once outbox entries were added. */
	onEnqueued: () => void;
	logger: BotLogger;
	/** The bot's clock (tests put it on the simulator's). */
	now: () => number;
	/** How long between two observations of an asset (push: the hourly AssetState; polling: a round, which stretches with the fleet). */
	observationIntervalMs: number | (() => number);
	/**
	 * Silences (assumption B33): a silenced asset's offline is recorded but not posted; if it is still
	 * offline when the silence ends, it is posted then. Hook for the silence store; none: never silenced.
	 */
	isSilenced?: (asset: AssetRef, at: number, tx: SqlScope) => Promise<boolean>;
}

/** One asset as the status command and the App Home show it. */
export interface AssetLink {
	asset: AssetRef;
	state: LinkState;
	/** When it entered its online/offline state (ISO 8601 UTC). */
	since: string;
	lastSeen: string;
}

/**
 * Online/offline of each asset, from AssetState pushes or E8 polling, turned into connectivity
 * messages (assumptions B30 to B34): one per route and group (or plant) for the assets that went
 * offline in the same hour, updated and answered in its thread as they come back.
 */
export class ConnectivityTracker {
	private flushTimer: NodeJS.Timeout | undefined;

	constructor(private readonly deps: ConnectivityDeps) {
		this.store = new ConnectivityStore(deps.scope);
	}

	/** Ends the wait before gathered changes go to the outbox (they go with the next change or sweep). */
	close(): void {
		if (this.flushTimer) clearTimeout(this.flushTimer);
		this.flushTimer = undefined;
	}

	private readonly store: ConnectivityStore;

	private get scope(): SqlScope {
		return this.deps.scope;
	}

	/**
	 * One observation: `online` at `time` (ISO 8601 UTC). For polling, `since` is the latest-data
	 * time of an offline asset. Committed before it returns, so a push can be acknowledged after.
	 */
	async observe(
		assetId: number,
		online: boolean,
		time: string,
		since?: string,
		detail?: AssetDetail,
	): Promise<void> {
		const known = await this.store.asset(assetId);
		const asset = known
			? (JSON.parse(known.asset) as AssetRef)
			: await this.deps.resolveAsset(assetId, detail);
		// Polling read the detail already: its gateway costs no second E8 read.
		const gateway = known
			? known.gateway
			: detail
				? (detail.gatewaySerialNumber ?? null)
				: ((await this.deps.gatewayOf?.(assetId).catch(() => undefined)) ?? null);
		const changed = await this.scope.transaction(async (tx) => {
			const store = new ConnectivityStore(tx);
			const row = await store.asset(assetId);
			if (row && Date.parse(row.last_seen) > Date.parse(time)) return false; // an older, redelivered state
			const wasOnline = row ? row.online === 1 : undefined;
			const stateSince =
				wasOnline === online ? (row as AssetRow).since : online ? time : (since ?? time);
			await store.putAsset({
				assetId,
				online,
				since: stateSince,
				lastSeen: time,
				asset,
				announced: wasOnline === online ? (row as AssetRow).announced : 0,
				gateway,
			});
			if (online && wasOnline === false && row?.announced === 1)
				return this.markBack(store, assetId, time);
			if (!online) return this.announceIfDue(tx, assetId);
			return false;
		});
		if (changed) this.scheduleFlush();
	}

	/** Announces the offline assets not announced yet whose time has come (minOfflineMinutes, or a silence ended). */
	async sweep(): Promise<void> {
		let changed = false;
		for (const assetId of await this.store.unannounced())
			changed = (await this.scope.transaction((tx) => this.announceIfDue(tx, assetId))) || changed;
		if (changed) this.scheduleFlush();
	}

	/** Inside a transaction: puts an offline asset in its outage(s) when minOfflineMinutes passed. */
	private async announceIfDue(tx: SqlScope, assetId: number): Promise<boolean> {
		const store = new ConnectivityStore(tx);
		const row = await store.asset(assetId);
		if (!row || row.online === 1 || row.announced === 1) return false;
		const now = this.deps.now();
		if (now - Date.parse(row.since) < this.deps.config.connectivity.minOfflineMinutes * 60_000)
			return false;
		if (this.state(row, now) === 'unknown') return false;
		const asset = JSON.parse(row.asset) as AssetRef;
		if (await this.deps.isSilenced?.(asset, now, tx)) return false;
		const { config } = this.deps;
		const scopeKind = config.connectivity.groupBy;
		const scope = scopeKind === 'plant' ? asset.plant : asset.group;
		// Names repeat across organizations (every customer of a service provider may have "Pumps"):
		// one message is about one organization's group or plant.
		const scopeKey = `${asset.organizationId ?? asset.organization}/${scope}`;
		const channels = config.connectivity.channel
			? [config.connectivity.channel]
			: routeAlert(config.alerts, asset, 'Warning');
		for (const channel of channels) {
			const outage = await store.openOutage(channel, scopeKey);
			const member = { asset, offlineSince: row.since, gateway: row.gateway ?? undefined };
			if (
				outage &&
				Math.abs(Date.parse(row.since) - Date.parse(outage.openedAt)) < SAME_OUTAGE_MS &&
				!outage.members.some((m) => m.asset.id === assetId)
			) {
				outage.members.push(member);
				await store.updateOutage(outage);
			} else {
				const key = `conn:${channel}:${scopeKind}:${scopeKey}:${Date.parse(row.since)}:${assetId}`;
				const created: Outage = {
					key,
					channel,
					scope,
					scopeKind,
					openedAt: row.since,
					members: [member],
				};
				await store.addOutage(created, scopeKey);
			}
		}
		await store.setAnnounced(assetId, true);
		return true;
	}

	/** Inside a transaction: the asset is back in every open outage holding it. */
	private async markBack(
		store: ConnectivityStore,
		assetId: number,
		time: string,
	): Promise<boolean> {
		let changed = false;
		for (const { outage, returned } of await store.openOutages()) {
			const member = outage.members.find((m) => m.asset.id === assetId && m.backAt === undefined);
			if (!member) continue;
			member.backAt = time;
			await store.outageBack(outage, [...returned, assetId], stillOffline(outage).length > 0);
			changed = true;
		}
		await store.setAnnounced(assetId, false);
		return changed;
	}

	private scheduleFlush(): void {
		this.flushTimer ??= setTimeout(() => {
			this.flushTimer = undefined;
			this.flushInBackground();
		}, FLUSH_DELAY_MS);
	}

	/** flush, its failure logged: the changes go with the next one. */
	flushInBackground(): void {
		this.flush().catch((e: unknown) =>
			this.deps.logger.warn(
				`connectivity: changes not sent yet (${errorText(e)}); they go with the next one`,
			),
		);
	}

	/** Gathered changes to the outbox: one post or update per outage, with the returns since the last. */
	async flush(): Promise<void> {
		const flushed = await this.scope.transaction(async (tx) => {
			const store = new ConnectivityStore(tx);
			const outbox = new Outbox(tx);
			// Read inside: a change committed meanwhile (or by another replica) is sent once.
			const dirty = await store.dirtyOutages();
			for (const row of dirty) {
				await outbox.enqueue(row.channel, {
					kind: 'connectivity',
					outage: row.outage,
					returned: row.returned,
				});
				await store.markSent(row.key);
			}
			return dirty.length;
		});
		if (flushed > 0) this.deps.onEnqueued();
	}

	private state(row: AssetRow, now: number): LinkState {
		// Assumption B31: no state for two observation intervals is "unknown", never "offline".
		const interval =
			typeof this.deps.observationIntervalMs === 'function'
				? this.deps.observationIntervalMs()
				: this.deps.observationIntervalMs;
		if (now - Date.parse(row.last_seen) > 2 * interval + 10 * 60_000) return 'unknown';
		return row.online === 1 ? 'online' : 'offline';
	}

	/** What the bot knows of one asset; undefined when it has never been observed. */
	async link(assetId: number): Promise<AssetLink | undefined> {
		const row = await this.store.asset(assetId);
		return row && this.toLink(row, this.deps.now());
	}

	/** How many assets have been observed at all (0: nothing is known yet). */
	async observed(): Promise<number> {
		return this.store.countAssets();
	}

	/** Every asset not online (offline or unknown), longest first. */
	async notOnline(): Promise<AssetLink[]> {
		const now = this.deps.now();
		return (await this.store.allAssets())
			.map((r) => this.toLink(r, now))
			.filter((l) => l.state !== 'online');
	}

	private toLink(row: AssetRow, now: number): AssetLink {
		return {
			asset: JSON.parse(row.asset) as AssetRef,
			state: this.state(row, now),
			since: row.since,
			lastSeen: row.last_seen,
		};
	}
}
