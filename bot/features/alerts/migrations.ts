import type { Migration } from '../../state/schema';

/**
 * The alerts' tables: the events and where they were posted, CBM units, the sources' watermarks, the outbox of
 * Slack calls with the channel ids Slack answered, and the digests' alert lists. A released step is never edited.
 */
export const ALERTS_MIGRATIONS: readonly Migration[] = [
	{
		version: 1,
		description: 'alerts and their messages, CBM units, watermarks, outbox, channel ids, digests',
		ddl: [
			'CREATE TABLE events (key TEXT PRIMARY KEY, status TEXT NOT NULL, alert TEXT NOT NULL, updated_at BIGINT NOT NULL)',
			// `id` keeps the order alerts joined a message (a drive and its motor may share one).
			`CREATE TABLE event_messages (
        id {{id}}, event_key TEXT NOT NULL, channel TEXT NOT NULL, channel_id TEXT NOT NULL, ts TEXT NOT NULL,
        via TEXT NOT NULL, UNIQUE (event_key, channel))`,
			'CREATE INDEX event_messages_message ON event_messages (channel_id, ts)',
			'CREATE TABLE cbm_units (key TEXT PRIMARY KEY, status TEXT NOT NULL, unit TEXT NOT NULL, updated_at BIGINT NOT NULL)',
			// Units first seen Yellow or Red during a first CBM round, in the order seen: one digest when it ends.
			'CREATE TABLE cbm_first_round (id {{id}}, key TEXT NOT NULL UNIQUE)',
			'CREATE TABLE cbm_messages (cbm_key TEXT NOT NULL, channel TEXT NOT NULL, ts TEXT NOT NULL, PRIMARY KEY (cbm_key, channel))',
			'CREATE TABLE watermarks (name TEXT PRIMARY KEY, value TEXT NOT NULL)',
			`CREATE TABLE outbox (
        id {{id}}, channel TEXT NOT NULL, item TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0, last_error TEXT, progress TEXT NOT NULL DEFAULT '{}', intent TEXT)`,
			'CREATE INDEX outbox_channel ON outbox (channel, failed, id)',
			'CREATE TABLE channel_ids (channel TEXT PRIMARY KEY, channel_id TEXT NOT NULL)',
			`CREATE TABLE digests (
        channel_id TEXT NOT NULL, ts TEXT NOT NULL, alert_keys TEXT NOT NULL, resolved_keys TEXT NOT NULL,
        PRIMARY KEY (channel_id, ts))`,
		],
	},
];
