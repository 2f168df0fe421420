/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { DatabaseSync } from 'node:sqlite';
import type { AckInfo } from '../alerts/model';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS acks (event_key TEXT PRIMARY KEY, info TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS silences (
  id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, value TEXT NOT NULL, label TEXT NOT NULL,
  from_ms INTEGER NOT NULL, until_ms INTEGER NOT NULL, reason TEXT, created_by TEXT,
  ended INTEGER NOT NULL DEFAULT 0, ended_by TEXT);
CREATE TABLE IF NOT EXISTS silenced_events (
  silence_id INTEGER NOT NULL, event_key TEXT NOT NULL, channel TEXT NOT NULL, PRIMARY KEY (silence_id, event_key, channel));
CREATE TABLE IF NOT EXISTS reminders_sent (
  event_key TEXT NOT NULL, channel TEXT NOT NULL, level TEXT NOT NULL, PRIMARY KEY (event_key, channel, level));
`;

export type SilenceKind = 'asset' | 'group' | 'plant';

export interface Silence {
  id: number;
  kind: SilenceKind;
  /** Asset id, or the lower-case group or plant name. */
  value: string;
  /** How people named it (for messages). */
  label: string;
  from: number;
  until: number;
  reason?: string;
  createdBy?: string;
  ended: boolean;
  endedBy?: string;
}

interface SilenceRow {
  id: number;
  kind: SilenceKind;
  value: string;
  label: string;
  from_ms: number;
  until_ms: number;
  reason: string | null;
  created_by: string | null;
  ended: number;
  ended_by: string | null;
}

const toSilence = (r: SilenceRow): Silence => ({
  id: r.id,
  kind: r.kind,
  value: r.value,
  label: r.label,
  from: r.from_ms,
  until: r.until_ms,
  reason: r.reason ?? undefined,
  createdBy: r.created_by ?? undefined,
  ended: r.ended === 1,
  endedBy: r.ended_by ?? undefined,
});

/** The on-call tables (acknowledgements, silences, reminders sent) in the bot's state database. */
export class OnCallState {
  constructor(private readonly db: DatabaseSync) {
    db.exec(SCHEMA);
  }

  getAck(key: string): AckInfo | undefined {
    const row = this.db.prepare('SELECT info FROM acks WHERE event_key = ?').get(key) as { info: string } | undefined;
    return row && (JSON.parse(row.info) as AckInfo);
  }

  putAck(key: string, info: AckInfo): void {
    this.db.prepare('INSERT OR REPLACE INTO acks (event_key, info) VALUES (?, ?)').run(key, JSON.stringify(info));
  }

  addSilence(s: Omit<Silence, 'id' | 'ended' | 'endedBy'>): Silence {
    const result = this.db
      .prepare('INSERT INTO silences (kind, value, label, from_ms, until_ms, reason, created_by) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(s.kind, s.value, s.label, s.from, s.until, s.reason ?? null, s.createdBy ?? null);
    return { ...s, id: Number(result.lastInsertRowid), ended: false };
  }

  /** Silences not ended yet (some may be past their end, waiting for their summary). */
  activeSilences(): Silence[] {
    return (this.db.prepare('SELECT * FROM silences WHERE ended = 0 ORDER BY id').all() as unknown as SilenceRow[]).map(toSilence);
  }

  endSilence(id: number, endedBy?: string, at?: number): void {
    this.db.prepare('UPDATE silences SET ended = 1, ended_by = ?, until_ms = MIN(until_ms, ?) WHERE id = ?').run(endedBy ?? null, at ?? Number.MAX_SAFE_INTEGER, id);
  }

  getSilence(id: number): Silence | undefined {
    const row = this.db.prepare('SELECT * FROM silences WHERE id = ?').get(id) as SilenceRow | undefined;
    return row && toSilence(row);
  }

  recordSilenced(silenceId: number, key: string, channel: string): void {
    this.db.prepare('INSERT OR IGNORE INTO silenced_events (silence_id, event_key, channel) VALUES (?, ?, ?)').run(silenceId, key, channel);
  }

  silencedEvents(silenceId: number): Array<{ key: string; channel: string }> {
    return this.db.prepare('SELECT event_key AS key, channel FROM silenced_events WHERE silence_id = ?').all(silenceId) as Array<{ key: string; channel: string }>;
  }

  /** True the first time (the reminder is to be sent), false after. */
  claimReminder(key: string, channel: string, level: string): boolean {
    return this.db.prepare('INSERT OR IGNORE INTO reminders_sent (event_key, channel, level) VALUES (?, ?, ?)').run(key, channel, level).changes > 0;
  }
}
