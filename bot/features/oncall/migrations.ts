import type { Migration } from '../../state/schema';

/** The on-call tables: acknowledgements, silences and the alerts they held back, reminders sent. */
export const ONCALL_MIGRATIONS: readonly Migration[] = [
	{
		version: 2,
		description: 'on-call: acknowledgements, silences and what they held back, reminders sent',
		ddl: [
			'CREATE TABLE acks (event_key TEXT PRIMARY KEY, info TEXT NOT NULL)',
			`CREATE TABLE silences (
        id {{id}}, kind TEXT NOT NULL, value TEXT NOT NULL, label TEXT NOT NULL, from_ms BIGINT NOT NULL,
        until_ms BIGINT NOT NULL, reason TEXT, created_by TEXT, ended INTEGER NOT NULL DEFAULT 0, ended_by TEXT)`,
			`CREATE TABLE silenced_events (
        silence_id BIGINT NOT NULL, event_key TEXT NOT NULL, channel TEXT NOT NULL,
        PRIMARY KEY (silence_id, event_key, channel))`,
			`CREATE TABLE reminders_sent (
        event_key TEXT NOT NULL, channel TEXT NOT NULL, level TEXT NOT NULL, PRIMARY KEY (event_key, channel, level))`,
		],
	},
];
