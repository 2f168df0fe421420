import type { AssetRef } from '../../kernel/alert';
import type { Outage } from '../../kernel/outage';
import type { SqlScope } from '../../state/scope';

/** One asset's last known link, as stored. */
export interface AssetRow {
	asset_id: number;
	online: number;
	since: string;
	last_seen: string;
	asset: string;
	announced: number;
	gateway: string | null;
}

/** An outage message with changes not yet in the outbox. */
export interface DirtyOutage {
	key: string;
	channel: string;
	outage: Outage;
	returned: number[];
}

/** Connectivity's tables: the last known link of each asset, and the outage messages (open, and what changed). */
export class ConnectivityStore {
	constructor(private readonly scope: SqlScope) {}

	private get sql() {
		return this.scope.sql;
	}

	asset(assetId: number): Promise<AssetRow | undefined> {
		return this.sql.get<AssetRow>('SELECT * FROM conn_assets WHERE asset_id = ?', assetId);
	}

	async putAsset(row: {
		assetId: number;
		online: boolean;
		since: string;
		lastSeen: string;
		asset: AssetRef;
		announced: number;
		gateway: string | null;
	}): Promise<void> {
		await this.sql.run(
			`INSERT INTO conn_assets (asset_id, online, since, last_seen, asset, announced, gateway) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (asset_id) DO UPDATE SET online = excluded.online, since = excluded.since, last_seen = excluded.last_seen,
           asset = excluded.asset, announced = excluded.announced, gateway = excluded.gateway`,
			row.assetId,
			row.online ? 1 : 0,
			row.since,
			row.lastSeen,
			JSON.stringify(row.asset),
			row.announced,
			row.gateway,
		);
	}

	async setAnnounced(assetId: number, announced: boolean): Promise<void> {
		await this.sql.run(
			'UPDATE conn_assets SET announced = ? WHERE asset_id = ?',
			announced ? 1 : 0,
			assetId,
		);
	}

	/** Offline assets not announced yet. */
	async unannounced(): Promise<number[]> {
		return (
			await this.sql.all<{ asset_id: number }>(
				'SELECT asset_id FROM conn_assets WHERE online = 0 AND announced = 0',
			)
		).map((r) => r.asset_id);
	}

	/** How many assets have been observed at all. */
	async countAssets(): Promise<number> {
		return Number(
			(await this.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM conn_assets'))?.n ?? 0,
		);
	}

	/** Every asset, longest in its state first. */
	allAssets(): Promise<AssetRow[]> {
		return this.sql.all<AssetRow>('SELECT * FROM conn_assets ORDER BY since, asset_id');
	}

	/** The newest open outage of a channel and scope (`organization/group` or `organization/plant`). */
	async openOutage(channel: string, scopeKey: string): Promise<Outage | undefined> {
		const open = await this.sql.get<{ key: string; outage: string }>(
			'SELECT key, outage, returned FROM conn_outages WHERE channel = ? AND scope = ? AND open = 1 ORDER BY opened_at DESC LIMIT 1',
			channel,
			scopeKey,
		);
		return open ? (JSON.parse(open.outage) as Outage) : undefined;
	}

	/** Every open outage, with the assets back since its last message. */
	async openOutages(): Promise<Array<{ outage: Outage; returned: number[] }>> {
		const rows = await this.sql.all<{ key: string; outage: string; returned: string }>(
			'SELECT key, outage, returned FROM conn_outages WHERE open = 1',
		);
		return rows.map((row) => ({
			outage: JSON.parse(row.outage) as Outage,
			returned: JSON.parse(row.returned) as number[],
		}));
	}

	/** An outage whose members changed (one joined): its message is to be updated. */
	async updateOutage(outage: Outage): Promise<void> {
		await this.sql.run(
			'UPDATE conn_outages SET outage = ?, dirty = 1 WHERE key = ?',
			JSON.stringify(outage),
			outage.key,
		);
	}

	/** A new outage of `scopeKey`: its message is to be posted. */
	async addOutage(outage: Outage, scopeKey: string): Promise<void> {
		await this.sql.run(
			'INSERT INTO conn_outages (key, channel, scope, opened_at, open, outage, dirty) VALUES (?, ?, ?, ?, 1, ?, 1) ON CONFLICT (key) DO NOTHING',
			outage.key,
			outage.channel,
			scopeKey,
			outage.openedAt,
			JSON.stringify(outage),
		);
	}

	/** Members came back: the message is to be updated and the returns replied to; closed when none is offline. */
	async outageBack(outage: Outage, returned: number[], open: boolean): Promise<void> {
		await this.sql.run(
			'UPDATE conn_outages SET outage = ?, returned = ?, open = ?, dirty = 1 WHERE key = ?',
			JSON.stringify(outage),
			JSON.stringify(returned),
			open ? 1 : 0,
			outage.key,
		);
	}

	/** Outages with changes not yet in the outbox. */
	async dirtyOutages(): Promise<DirtyOutage[]> {
		const rows = await this.sql.all<{
			key: string;
			channel: string;
			outage: string;
			returned: string;
		}>('SELECT key, channel, outage, returned FROM conn_outages WHERE dirty = 1');
		return rows.map((row) => ({
			key: row.key,
			channel: row.channel,
			outage: JSON.parse(row.outage) as Outage,
			returned: JSON.parse(row.returned) as number[],
		}));
	}

	/** The outage's changes are in the outbox. */
	async markSent(key: string): Promise<void> {
		await this.sql.run("UPDATE conn_outages SET dirty = 0, returned = '[]' WHERE key = ?", key);
	}
}
