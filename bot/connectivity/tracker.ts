/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { AssetRef } from '../alerts/model';
import { routeAlert } from '../alerts/routing';
import type { BotConfig } from '../config/schema';
import { type BotLogger, errorText } from '../log';
import type { AssetDetail } from '../platform/types';
import type { StateStore } from '../state/store';
import { type LinkState, type Outage, stillOffline } from './model';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS conn_assets (
  asset_id INTEGER PRIMARY KEY, online INTEGER NOT NULL, since TEXT NOT NULL, last_seen TEXT NOT NULL,
  asset TEXT NOT NULL, announced INTEGER NOT NULL DEFAULT 0, gateway TEXT);
CREATE TABLE IF NOT EXISTS conn_outages (
  key TEXT PRIMARY KEY, channel TEXT NOT NULL, scope TEXT NOT NULL /* organization/group or organization/plant */, opened_at TEXT NOT NULL,
  open INTEGER NOT NULL, outage TEXT NOT NULL, returned TEXT NOT NULL DEFAULT '[]', dirty INTEGER NOT NULL DEFAULT 0);
`;

/** Assets going offline within this long of an outage's first member join its message. */
const SAME_OUTAGE_MS = 3_600_000;
/** Changes are gathered this long before they go out, so one push batch (or pass) makes one message. */
const FLUSH_DELAY_MS = 1_000;

export interface ConnectivityDeps {
  store: StateStore;
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
  isSilenced?: (asset: AssetRef, at: number) => boolean;
}

interface AssetRow {
  asset_id: number;
  online: number;
  since: string;
  last_seen: string;
  asset: string;
  announced: number;
  gateway: string | null;
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
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(private readonly deps: ConnectivityDeps) {
    deps.store.sql.exec(SCHEMA);
    // Announces assets that reached minOfflineMinutes (or whose silence ended) between observations.
    this.sweepTimer = setInterval(() => void this.sweep().catch((e: unknown) => deps.logger.warn(`connectivity: sweep failed (${errorText(e)})`)), 30_000);
    this.sweepTimer.unref();
    // Changes committed by the previous run that never reached the outbox go out now.
    this.flush();
  }

  close(): void {
    clearInterval(this.sweepTimer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }

  private get db() {
    return this.deps.store.sql;
  }

  private row(assetId: number): AssetRow | undefined {
    return this.db.prepare('SELECT * FROM conn_assets WHERE asset_id = ?').get(assetId) as AssetRow | undefined;
  }

  /**
   * One observation: `online` at `time` (ISO 8601 UTC). For polling, `since` is the latest-data
   * time of an offline asset. Committed before it returns, so a push can be acknowledged after.
   */
  async observe(assetId: number, online: boolean, time: string, since?: string, detail?: AssetDetail): Promise<void> {
    const known = this.row(assetId);
    const asset = known ? (JSON.parse(known.asset) as AssetRef) : await this.deps.resolveAsset(assetId, detail);
    // Polling read the detail already: its gateway costs no second E8 read.
    const gateway = known ? known.gateway : detail ? (detail.gatewaySerialNumber ?? null) : ((await this.deps.gatewayOf?.(assetId).catch(() => undefined)) ?? null);
    const changed = this.deps.store.transaction(() => {
      const row = this.row(assetId);
      if (row && Date.parse(row.last_seen) > Date.parse(time)) return false; // an older, redelivered state
      const wasOnline = row ? row.online === 1 : undefined;
      const stateSince = wasOnline === online ? (row as AssetRow).since : online ? time : (since ?? time);
      this.db
        .prepare('INSERT OR REPLACE INTO conn_assets (asset_id, online, since, last_seen, asset, announced, gateway) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(assetId, online ? 1 : 0, stateSince, time, JSON.stringify(asset), wasOnline === online ? (row as AssetRow).announced : 0, gateway);
      if (online && wasOnline === false && row?.announced === 1) return this.markBack(assetId, time);
      if (!online) return this.announceIfDue(assetId);
      return false;
    });
    if (changed) this.scheduleFlush();
  }

  /** Offline assets not announced yet whose time has come. */
  async sweep(): Promise<void> {
    const rows = this.db.prepare('SELECT asset_id FROM conn_assets WHERE online = 0 AND announced = 0').all() as Array<{ asset_id: number }>;
    let changed = false;
    for (const { asset_id } of rows) changed = this.deps.store.transaction(() => this.announceIfDue(asset_id)) || changed;
    if (changed) this.scheduleFlush();
  }

  /** Inside a transaction: puts an offline asset in its outage(s) when minOfflineMinutes passed. */
  private announceIfDue(assetId: number): boolean {
    const row = this.row(assetId);
    if (!row || row.online === 1 || row.announced === 1) return false;
    const now = this.deps.now();
    if (now - Date.parse(row.since) < this.deps.config.connectivity.minOfflineMinutes * 60_000) return false;
    if (this.state(row, now) === 'unknown') return false;
    const asset = JSON.parse(row.asset) as AssetRef;
    if (this.deps.isSilenced?.(asset, now)) return false;
    const { config } = this.deps;
    const scopeKind = config.connectivity.groupBy;
    const scope = scopeKind === 'plant' ? asset.plant : asset.group;
    // Names repeat across organizations (every customer of a service provider may have "Pumps"):
    // one message is about one organization's group or plant.
    const scopeKey = `${asset.organizationId ?? asset.organization}/${scope}`;
    const channels = config.connectivity.channel ? [config.connectivity.channel] : routeAlert(config.alerts, asset, 'Warning');
    for (const channel of channels) {
      const open = this.db
        .prepare('SELECT key, outage, returned FROM conn_outages WHERE channel = ? AND scope = ? AND open = 1 ORDER BY opened_at DESC LIMIT 1')
        .get(channel, scopeKey) as { key: string; outage: string } | undefined;
      const outage = open ? (JSON.parse(open.outage) as Outage) : undefined;
      const member = { asset, offlineSince: row.since, gateway: row.gateway ?? undefined };
      if (outage && Math.abs(Date.parse(row.since) - Date.parse(outage.openedAt)) < SAME_OUTAGE_MS && !outage.members.some((m) => m.asset.id === assetId)) {
        outage.members.push(member);
        this.db.prepare('UPDATE conn_outages SET outage = ?, dirty = 1 WHERE key = ?').run(JSON.stringify(outage), outage.key);
      } else {
        const key = `conn:${channel}:${scopeKind}:${scopeKey}:${Date.parse(row.since)}:${assetId}`;
        const created: Outage = { key, channel, scope, scopeKind, openedAt: row.since, members: [member] };
        this.db.prepare('INSERT OR IGNORE INTO conn_outages (key, channel, scope, opened_at, open, outage, dirty) VALUES (?, ?, ?, ?, 1, ?, 1)').run(key, channel, scopeKey, row.since, JSON.stringify(created));
      }
    }
    this.db.prepare('UPDATE conn_assets SET announced = 1 WHERE asset_id = ?').run(assetId);
    return true;
  }

  /** Inside a transaction: the asset is back in every open outage holding it. */
  private markBack(assetId: number, time: string): boolean {
    const rows = this.db.prepare('SELECT key, outage, returned FROM conn_outages WHERE open = 1').all() as Array<{ key: string; outage: string; returned: string }>;
    let changed = false;
    for (const row of rows) {
      const outage = JSON.parse(row.outage) as Outage;
      const member = outage.members.find((m) => m.asset.id === assetId && m.backAt === undefined);
      if (!member) continue;
      member.backAt = time;
      const returned = [...(JSON.parse(row.returned) as number[]), assetId];
      this.db
        .prepare('UPDATE conn_outages SET outage = ?, returned = ?, open = ?, dirty = 1 WHERE key = ?')
        .run(JSON.stringify(outage), JSON.stringify(returned), stillOffline(outage).length > 0 ? 1 : 0, row.key);
      changed = true;
    }
    this.db.prepare('UPDATE conn_assets SET announced = 0 WHERE asset_id = ?').run(assetId);
    return changed;
  }

  private scheduleFlush(): void {
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      this.flush();
    }, FLUSH_DELAY_MS);
  }

  /** Gathered changes to the outbox: one post or update per outage, with the returns since the last. */
  flush(): void {
    const dirty = this.db.prepare('SELECT key, channel, outage, returned FROM conn_outages WHERE dirty = 1').all() as Array<{ key: string; channel: string; outage: string; returned: string }>;
    if (dirty.length === 0) return;
    this.deps.store.transaction(() => {
      for (const row of dirty) {
        this.deps.store.enqueue(row.channel, { kind: 'connectivity', outage: JSON.parse(row.outage) as Outage, returned: JSON.parse(row.returned) as number[] });
        this.db.prepare("UPDATE conn_outages SET dirty = 0, returned = '[]' WHERE key = ?").run(row.key);
      }
    });
    this.deps.onEnqueued();
  }

  private state(row: AssetRow, now: number): LinkState {
    // Assumption B31: no state for two observation intervals is "unknown", never "offline".
    const interval = typeof this.deps.observationIntervalMs === 'function' ? this.deps.observationIntervalMs() : this.deps.observationIntervalMs;
    if (now - Date.parse(row.last_seen) > 2 * interval + 10 * 60_000) return 'unknown';
    return row.online === 1 ? 'online' : 'offline';
  }

  /** What the bot knows of one asset; undefined when it has never been observed. */
  link(assetId: number): AssetLink | undefined {
    const row = this.row(assetId);
    return row && this.toLink(row, this.deps.now());
  }

  /** How many assets have been observed at all (0: nothing is known yet). */
  observed(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM conn_assets').get() as { n: number }).n;
  }

  /** Every asset not online (offline or unknown), longest first. */
  notOnline(): AssetLink[] {
    const now = this.deps.now();
    return (this.db.prepare('SELECT * FROM conn_assets ORDER BY since').all() as unknown as AssetRow[]).map((r) => this.toLink(r, now)).filter((l) => l.state !== 'online');
  }

  private toLink(row: AssetRow, now: number): AssetLink {
    return { asset: JSON.parse(row.asset) as AssetRef, state: this.state(row, now), since: row.since, lastSeen: row.last_seen };
  }
}
