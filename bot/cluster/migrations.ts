import type { Migration } from '../state/schema';

/**
 * What the replicas share to act as one: the leader lease (its epoch is the fencing token, renewed within a
 * time-to-live) and the Slack payloads already acted on.
 */
export const CLUSTER_MIGRATIONS: readonly Migration[] = [
	{
		version: 5,
		description: 'leader lease: one row whose epoch is the fencing token',
		ddl: [
			`CREATE TABLE leader_lease (
        id INTEGER PRIMARY KEY CHECK (id = 1), epoch BIGINT NOT NULL, holder TEXT NOT NULL, acquired_at BIGINT NOT NULL)`,
		],
	},
	{
		version: 6,
		description: 'Slack payloads already acted on, so a retry or a second replica acts once',
		ddl: [
			'CREATE TABLE slack_payloads (key TEXT PRIMARY KEY, seen_at BIGINT NOT NULL)',
			'CREATE INDEX slack_payloads_seen ON slack_payloads (seen_at)',
		],
	},
	{
		version: 7,
		description:
			'leader lease with a time-to-live: when the leader last renewed it, and its session',
		ddl: [
			// renewed_at: the database's clock (ms), so replicas never compare their own clocks; holder_pid: the leader's
			// session, which a replica ends when the lease is not renewed within its time-to-live (a frozen leader).
			'ALTER TABLE leader_lease ADD COLUMN renewed_at BIGINT NOT NULL DEFAULT 0',
			'ALTER TABLE leader_lease ADD COLUMN holder_pid INTEGER',
		],
	},
];
