/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { ClientBase } from 'pg';

/** One step of the PostgreSQL schema; `version` only grows, a released step is never edited. */
export interface Migration {
	readonly version: number;
	readonly description: string;
	readonly sql: string;
}

/** The core store's tables (bot/state/store.ts), as PostgreSQL spells them. */
export const MIGRATIONS: readonly Migration[] = [
	{
		version: 1,
		description: 'alerts, their messages, CBM units, watermarks, outbox, channel ids, digests',
		sql: `
CREATE TABLE events (key TEXT PRIMARY KEY, status TEXT NOT NULL, alert TEXT NOT NULL, updated_at BIGINT NOT NULL);
CREATE TABLE event_messages (
  event_key TEXT NOT NULL, channel TEXT NOT NULL, channel_id TEXT NOT NULL, ts TEXT NOT NULL, via TEXT NOT NULL,
  PRIMARY KEY (event_key, channel));
CREATE TABLE cbm_units (key TEXT PRIMARY KEY, status TEXT NOT NULL, unit TEXT NOT NULL, updated_at BIGINT NOT NULL);
CREATE TABLE cbm_first_round (key TEXT PRIMARY KEY);
CREATE TABLE cbm_messages (cbm_key TEXT NOT NULL, channel TEXT NOT NULL, ts TEXT NOT NULL, PRIMARY KEY (cbm_key, channel));
CREATE TABLE watermarks (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE outbox (
  id BIGSERIAL PRIMARY KEY, channel TEXT NOT NULL, item TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0, last_error TEXT, progress TEXT NOT NULL DEFAULT '{}', intent TEXT);
CREATE INDEX outbox_channel ON outbox (channel, failed, id);
CREATE TABLE channel_ids (channel TEXT PRIMARY KEY, channel_id TEXT NOT NULL);
CREATE TABLE digests (
  channel_id TEXT NOT NULL, ts TEXT NOT NULL, alert_keys TEXT NOT NULL, resolved_keys TEXT NOT NULL,
  PRIMARY KEY (channel_id, ts));`,
	},
	{
		version: 2,
		description: 'leader lease: one row whose epoch is the fencing token',
		sql: `
CREATE TABLE leader_lease (
  id INTEGER PRIMARY KEY CHECK (id = 1), epoch BIGINT NOT NULL, holder TEXT NOT NULL,
  acquired_at TIMESTAMPTZ NOT NULL DEFAULT now());`,
	},
	{
		version: 3,
		description: 'Slack payloads already acted on, so a retry or a second replica acts once',
		sql: `
CREATE TABLE slack_payloads (key TEXT PRIMARY KEY, seen_at TIMESTAMPTZ NOT NULL DEFAULT now());
CREATE INDEX slack_payloads_seen ON slack_payloads (seen_at);`,
	},
];

/** Any fixed number: every replica asks for the same lock, so one migrates while the others wait. */
const MIGRATION_LOCK = 0x44524956; // "DRIV"

/**
 * Brings the schema to the latest version in one transaction under a transaction-scoped advisory lock, so
 * replicas that start at the same instant on an empty database apply each step exactly once. A database newer
 * than this program is refused: an older replica must not write into a schema it does not know.
 */
export async function migrate(client: ClientBase, migrations: readonly Migration[] = MIGRATIONS): Promise<number> {
	const latest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
	await client.query('BEGIN');
	let committed = false;
	try {
		await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
		await client.query(
			'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
		);
		const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_version');
		const current = rows[0]?.v ?? 0;
		if (current > latest) {
			throw new Error(
				`The database schema is version ${current}, newer than this bot knows (${latest}). Upgrade this replica to the version the others run.`,
			);
		}
		for (const step of [...migrations].sort((a, b) => a.version - b.version)) {
			if (step.version <= current) continue;
			await client.query(step.sql);
			await client.query('INSERT INTO schema_version (version, description) VALUES ($1, $2)', [step.version, step.description]);
		}
		await client.query('COMMIT');
		committed = true;
		return latest;
	} finally {
		if (!committed) await client.query('ROLLBACK').catch(() => undefined);
	}
}
