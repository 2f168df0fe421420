import { DatabaseSync } from 'node:sqlite';
import type { AlertRecord, CbmAlert, OutboxItem } from '../alerts/model';

export interface PendingCall {
  id: number;
  channel: string;
  item: OutboxItem;
  attempts: number;
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
CREATE TABLE IF NOT EXISTS cbm_messages (
  cbm_key TEXT NOT NULL, channel TEXT NOT NULL, ts TEXT NOT NULL, PRIMARY KEY (cbm_key, channel));
CREATE TABLE IF NOT EXISTS watermarks (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT, channel TEXT NOT NULL, item TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0, last_error TEXT);
CREATE INDEX IF NOT EXISTS outbox_channel ON outbox (channel, failed, id);
`;

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
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
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
      .prepare('SELECT id, channel, item, attempts FROM outbox WHERE channel = ? AND failed = 0 ORDER BY id LIMIT ?')
      .all(channel, limit) as Array<{ id: number; channel: string; item: string; attempts: number }>;
    return rows.map((row) => ({ id: row.id, channel: row.channel, item: JSON.parse(row.item) as OutboxItem, attempts: row.attempts }));
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
