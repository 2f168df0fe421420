import type { Migration } from '../../state/schema';

/** Connectivity's tables: the last known link of each asset, and the outage messages. */
export const CONNECTIVITY_MIGRATIONS: readonly Migration[] = [
	{
		version: 3,
		description: 'connectivity: last known link of each asset, outage messages',
		ddl: [
			`CREATE TABLE conn_assets (
        asset_id BIGINT PRIMARY KEY, online INTEGER NOT NULL, since TEXT NOT NULL, last_seen TEXT NOT NULL,
        asset TEXT NOT NULL, announced INTEGER NOT NULL DEFAULT 0, gateway TEXT)`,
			// scope: organization/group or organization/plant
			`CREATE TABLE conn_outages (
        key TEXT PRIMARY KEY, channel TEXT NOT NULL, scope TEXT NOT NULL, opened_at TEXT NOT NULL,
        open INTEGER NOT NULL, outage TEXT NOT NULL, returned TEXT NOT NULL DEFAULT '[]', dirty INTEGER NOT NULL DEFAULT 0)`,
		],
	},
];
