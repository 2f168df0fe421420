/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { DatabaseSync } from 'node:sqlite';
import type { AlertRecord, CbmAlert, OutboxItem } from '../alerts/model';

/**
 * A Slack call whose answer was not recorded: it may have reached Slack (a crash, a timeout), so
 * the next attempt looks for it (by its metadata tag) before making it again. `ids` freezes the
 * outbox calls a digest covers, so the retry is the same digest.
 */
export interface CallIntent {
  step: string;
  at: number;
  ids?: number[];
}

export interface PendingCall {
  id: number;
  channel: string;
  item: OutboxItem;
  attempts: number;
  /** The sub-steps of this call Slack already accepted, with what Slack answered. */
  progress: Record<string, unknown>;
  intent?: CallIntent;
}

export interface MessageRef {
  channel: string;
  /** The id Slack answered with (updates need it; routes may name a channel). */
  channelId: string;
  ts: string;
  /** A message of its own, or a line in a digest (then `ts` is the digest's). */
  via: 'message' | 'digest';
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  key TEXT PRIMARY KEY, status TEXT NOT NULL, alert TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS event_messages (
  event_key TEXT NOT NULL, channel TEXT NOT NULL, channel_id TEXT NOT NULL, ts TEXT NOT NULL, via TEXT NOT NULL,
  PRIMARY KEY (event_key, channel));
CREATE TABLE IF NOT EXISTS cbm_units (
  key TEXT PRIMARY KEY, status TEXT NOT NULL, unit TEXT NOT NULL, updated_at INTEGER NOT NULL);
-- Units first seen Yellow or Red during a first CBM round: posted as one digest when it ends.
CREATE TABLE IF NOT EXISTS cbm_first_round (key TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS cbm_messages (
  cbm_key TEXT NOT NULL, channel TEXT NOT NULL, ts TEXT NOT NULL, PRIMARY KEY (cbm_key, channel));
CREATE TABLE IF NOT EXISTS watermarks (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT, channel TEXT NOT NULL, item TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0, last_error TEXT);
CREATE INDEX IF NOT EXISTS outbox_channel ON outbox (channel, failed, id);
CREATE TABLE IF NOT EXISTS channel_ids (channel TEXT PRIMARY KEY, channel_id TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS digests (
  channel_id TEXT NOT NULL, ts TEXT NOT NULL, alert_keys TEXT NOT NULL, resolved_keys TEXT NOT NULL, PRIMARY KEY (channel_id, ts));
`;

/** Columns added after the first release: an older state file gets them on open. */
const ADDED_COLUMNS: Array<[table: string, column: string, definition: string]> = [
  ['outbox', 'progress', "TEXT NOT NULL DEFAULT '{}'"],
  ['outbox', 'intent', 'TEXT'],
];

/**
 * The bot's memory (node:sqlite): where each alert was posted, the last CBM status of each unit,
 * polling watermarks and the outbox of Slack calls not yet made. Every change an observation
 * causes is written in one transaction before the observation is acknowledged, so a restart
 * resumes exactly where the bot stopped.
 */
export class StateStore {
  private readonly db: DatabaseSync;

  constructor(file: string) {
    this.db = new DatabaseSync(file);
    // One prepared statement per SQL text, reused: a statement prepared per call holds native
    // memory until a garbage collection notices it, which lifts RSS by tens of MiB under polling.
    const prepared = new Map<string, ReturnType<DatabaseSync['prepare']>>();
    const prepare = this.db.prepare.bind(this.db);
    this.db.prepare = (sql: string) => prepared.get(sql) ?? prepared.set(sql, prepare(sql)).get(sql)!;
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
    this.db.exec(SCHEMA);
    for (const [table, column, definition] of ADDED_COLUMNS) {
      const columns = this.db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
      if (!columns.some((c) => c.name === column)) this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
    }
  }

  /** Raw access for the on-call modules (bot/oncall), which keep their own tables. */
  get database(): DatabaseSync {
    return this.db;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  /**
   * The database itself, for a feature that keeps its own tables here (connectivity, reports) so
   * that its changes and the outbox entries they cause commit in one transaction.
   */
  get sql(): DatabaseSync {
    return this.db;
  }

  transaction<T>(work: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    let committed = false;
    try {
      const result = work();
      this.db.exec('COMMIT');
      committed = true;
      return result;
    } finally {
      if (!committed) this.db.exec('ROLLBACK');
    }
  }

  getEvent(key: string): { status: string; alert: AlertRecord } | undefined {
    const row = this.db.prepare('SELECT status, alert FROM events WHERE key = ?').get(key) as
      | { status: string; alert: string }
      | undefined;
    return row && { status: row.status, alert: JSON.parse(row.alert) as AlertRecord };
  }

  putEvent(alert: AlertRecord): void {
    this.db
      .prepare('INSERT INTO events (key, status, alert, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET status = excluded.status, alert = excluded.alert, updated_at = excluded.updated_at')
      .run(alert.key, alert.status, JSON.stringify(alert), Date.now());
  }

  /** Open alerts, for `health` (assets with open faults) and for polling closes. */
  openAlerts(): AlertRecord[] {
    return (this.db.prepare("SELECT alert FROM events WHERE status = 'Open'").all() as Array<{ alert: string }>).map(
      (row) => JSON.parse(row.alert) as AlertRecord,
    );
  }

  getMessage(eventKey: string, channel: string): MessageRef | undefined {
    return this.db.prepare('SELECT channel, channel_id AS channelId, ts, via FROM event_messages WHERE event_key = ? AND channel = ?').get(eventKey, channel) as
      | MessageRef
      | undefined;
  }

  putMessage(eventKey: string, ref: MessageRef): void {
    this.db
      .prepare('INSERT OR REPLACE INTO event_messages (event_key, channel, channel_id, ts, via) VALUES (?, ?, ?, ?, ?)')
      .run(eventKey, ref.channel, ref.channelId, ref.ts, ref.via);
  }

  getCbmStatus(key: string): string | undefined {
    return (this.db.prepare('SELECT status FROM cbm_units WHERE key = ?').get(key) as { status: string } | undefined)?.status;
  }

  getCbmUnit(key: string): CbmAlert | undefined {
    const row = this.db.prepare('SELECT unit FROM cbm_units WHERE key = ?').get(key) as { unit: string } | undefined;
    return row ? (JSON.parse(row.unit) as CbmAlert) : undefined;
  }

  /** Notes a unit first seen during a first CBM round, for the digest that ends the round. */
  stageCbmFirstSighting(key: string): void {
    this.db.prepare('INSERT OR IGNORE INTO cbm_first_round (key) VALUES (?)').run(key);
  }

  /** The units staged by stageCbmFirstSighting, and none staged any more. */
  takeStagedCbmFirstSightings(): string[] {
    const keys = (this.db.prepare('SELECT key FROM cbm_first_round ORDER BY rowid').all() as Array<{ key: string }>).map((r) => r.key);
    this.db.prepare('DELETE FROM cbm_first_round').run();
    return keys;
  }

  putCbmStatus(unit: CbmAlert): void {
    this.db.prepare('INSERT OR REPLACE INTO cbm_units (key, status, unit, updated_at) VALUES (?, ?, ?, ?)').run(unit.key, unit.status, JSON.stringify(unit), Date.now());
  }

  /** The last known state of every unit whose status is one of `statuses`. */
  cbmUnits(statuses: readonly string[]): CbmAlert[] {
    const rows = this.db.prepare(`SELECT unit FROM cbm_units WHERE status IN (${statuses.map(() => '?').join(',')})`).all(...statuses) as Array<{ unit: string }>;
    return rows.map((r) => JSON.parse(r.unit) as CbmAlert);
  }

  getCbmMessage(key: string, channel: string): string | undefined {
    return (this.db.prepare('SELECT ts FROM cbm_messages WHERE cbm_key = ? AND channel = ?').get(key, channel) as { ts: string } | undefined)?.ts;
  }

  putCbmMessage(key: string, channel: string, ts: string): void {
    this.db.prepare('INSERT OR REPLACE INTO cbm_messages (cbm_key, channel, ts) VALUES (?, ?, ?)').run(key, channel, ts);
  }

  getWatermark(name: string): string | undefined {
    return (this.db.prepare('SELECT value FROM watermarks WHERE name = ?').get(name) as { value: string } | undefined)?.value;
  }

  setWatermark(name: string, value: string): void {
    this.db.prepare('INSERT OR REPLACE INTO watermarks (name, value) VALUES (?, ?)').run(name, value);
  }

  enqueue(channel: string, item: OutboxItem): void {
    this.db.prepare('INSERT INTO outbox (channel, item) VALUES (?, ?)').run(channel, JSON.stringify(item));
  }

  channelsWithPending(): string[] {
    return (this.db.prepare('SELECT DISTINCT channel FROM outbox WHERE failed = 0').all() as Array<{ channel: string }>).map((r) => r.channel);
  }

  pending(channel: string, limit: number): PendingCall[] {
    const rows = this.db
      .prepare('SELECT id, channel, item, attempts, progress, intent FROM outbox WHERE channel = ? AND failed = 0 ORDER BY id LIMIT ?')
      .all(channel, limit) as Array<{ id: number; channel: string; item: string; attempts: number; progress: string; intent: string | null }>;
    return rows.map((row) => ({
      id: row.id,
      channel: row.channel,
      item: JSON.parse(row.item) as OutboxItem,
      attempts: row.attempts,
      progress: JSON.parse(row.progress) as Record<string, unknown>,
      intent: row.intent ? (JSON.parse(row.intent) as CallIntent) : undefined,
    }));
  }

  /** Written before a call that creates a message, so a crash during it is looked into, not repeated. */
  setIntent(id: number, intent: CallIntent | undefined): void {
    this.db.prepare('UPDATE outbox SET intent = ? WHERE id = ?').run(intent ? JSON.stringify(intent) : null, id);
  }

  /** Slack accepted this sub-step: recorded before the next call, so no retry repeats it. */
  markStep(id: number, step: string, result: unknown): void {
    this.transaction(() => {
      const row = this.db.prepare('SELECT progress FROM outbox WHERE id = ?').get(id) as { progress: string } | undefined;
      if (!row) return;
      const progress = JSON.parse(row.progress) as Record<string, unknown>;
      progress[step] = result ?? true;
      this.db.prepare('UPDATE outbox SET progress = ?, intent = NULL WHERE id = ?').run(JSON.stringify(progress), id);
    });
  }

  getChannelId(channel: string): string | undefined {
    return (this.db.prepare('SELECT channel_id FROM channel_ids WHERE channel = ?').get(channel) as { channel_id: string } | undefined)?.channel_id;
  }

  putChannelId(channel: string, channelId: string): void {
    this.db.prepare('INSERT OR REPLACE INTO channel_ids (channel, channel_id) VALUES (?, ?)').run(channel, channelId);
  }

  /** The alerts (and resolutions) a digest message lists, so it can be re-rendered as they close. */
  putDigest(channelId: string, ts: string, alertKeys: readonly string[], resolvedKeys: readonly string[]): void {
    this.db.prepare('INSERT OR REPLACE INTO digests (channel_id, ts, alert_keys, resolved_keys) VALUES (?, ?, ?, ?)').run(channelId, ts, JSON.stringify(alertKeys), JSON.stringify(resolvedKeys));
  }

  getDigest(channelId: string, ts: string): { alertKeys: string[]; resolvedKeys: string[] } | undefined {
    const row = this.db.prepare('SELECT alert_keys, resolved_keys FROM digests WHERE channel_id = ? AND ts = ?').get(channelId, ts) as
      | { alert_keys: string; resolved_keys: string }
      | undefined;
    return row && { alertKeys: JSON.parse(row.alert_keys) as string[], resolvedKeys: JSON.parse(row.resolved_keys) as string[] };
  }

  /** Every alert shown in one message of its own (a drive and its motor may share one: inhibition). */
  keysInMessage(channelId: string, ts: string): string[] {
    return (this.db.prepare("SELECT event_key FROM event_messages WHERE channel_id = ? AND ts = ? AND via = 'message' ORDER BY rowid").all(channelId, ts) as Array<{ event_key: string }>).map(
      (r) => r.event_key,
    );
  }

  /** Where an alert was posted, in every channel. */
  messagesOf(eventKey: string): MessageRef[] {
    return this.db.prepare('SELECT channel, channel_id AS channelId, ts, via FROM event_messages WHERE event_key = ?').all(eventKey) as unknown as MessageRef[];
  }

  countPending(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM outbox WHERE failed = 0').get() as { n: number }).n;
  }

  complete(ids: readonly number[]): void {
    const statement = this.db.prepare('DELETE FROM outbox WHERE id = ?');
    for (const id of ids) statement.run(id);
  }

  /** A call Slack refused for good (e.g. channel_not_found) is kept, flagged, for an operator. */
  recordFailure(id: number, error: string, giveUp: boolean): void {
    this.db.prepare('UPDATE outbox SET attempts = attempts + 1, last_error = ?, failed = ? WHERE id = ?').run(error, giveUp ? 1 : 0, id);
  }

  failedCalls(): Array<{ id: number; channel: string; lastError: string }> {
    return this.db.prepare('SELECT id, channel, last_error AS lastError FROM outbox WHERE failed = 1').all() as Array<{
      id: number;
      channel: string;
      lastError: string;
    }>;
  }
}
