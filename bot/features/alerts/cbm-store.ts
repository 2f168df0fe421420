import type { CbmAlert } from '../../kernel/alert';
import type { SqlScope } from '../../state/scope';

/** The last known status of each CBM unit, the units staged during a first CBM round, and where each warning was posted. */
export class CbmStore {
	constructor(private readonly scope: SqlScope) {}

	private get sql() {
		return this.scope.sql;
	}

	async getStatus(key: string): Promise<string | undefined> {
		return (
			await this.sql.get<{ status: string }>('SELECT status FROM cbm_units WHERE key = ?', key)
		)?.status;
	}

	async getUnit(key: string): Promise<CbmAlert | undefined> {
		const row = await this.sql.get<{ unit: string }>(
			'SELECT unit FROM cbm_units WHERE key = ?',
			key,
		);
		return row ? (JSON.parse(row.unit) as CbmAlert) : undefined;
	}

	async putStatus(unit: CbmAlert): Promise<void> {
		await this.sql.run(
			'INSERT INTO cbm_units (key, status, unit, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET status = excluded.status, unit = excluded.unit, updated_at = excluded.updated_at',
			unit.key,
			unit.status,
			JSON.stringify(unit),
			Date.now(),
		);
	}

	/** The last known state of every unit whose status is one of `statuses`. */
	async units(statuses: readonly string[]): Promise<CbmAlert[]> {
		const rows = await this.sql.all<{ unit: string }>(
			`SELECT unit FROM cbm_units WHERE status IN (${statuses.map(() => '?').join(',')})`,
			...statuses,
		);
		return rows.map((r) => JSON.parse(r.unit) as CbmAlert);
	}

	/** Notes a unit first seen during a first CBM round, for the digest that ends the round. */
	async stageFirstSighting(key: string): Promise<void> {
		await this.sql.run(
			'INSERT INTO cbm_first_round (key) VALUES (?) ON CONFLICT (key) DO NOTHING',
			key,
		);
	}

	/** The units staged by stageFirstSighting, in the order staged, and none staged any more. */
	async takeStagedFirstSightings(): Promise<string[]> {
		const keys = (
			await this.sql.all<{ key: string }>('SELECT key FROM cbm_first_round ORDER BY id')
		).map((r) => r.key);
		await this.sql.run('DELETE FROM cbm_first_round');
		return keys;
	}

	async getMessage(key: string, channel: string): Promise<string | undefined> {
		return (
			await this.sql.get<{ ts: string }>(
				'SELECT ts FROM cbm_messages WHERE cbm_key = ? AND channel = ?',
				key,
				channel,
			)
		)?.ts;
	}

	async putMessage(key: string, channel: string, ts: string): Promise<void> {
		await this.sql.run(
			'INSERT INTO cbm_messages (cbm_key, channel, ts) VALUES (?, ?, ?) ON CONFLICT (cbm_key, channel) DO UPDATE SET ts = excluded.ts',
			key,
			channel,
			ts,
		);
	}
}
