import type { AlertRecord, CbmAlert } from '../kernel/alert';
import type { SqlDatabase, SqlExecutor } from './sql';
import type { OutboxItem } from '../kernel/outbox';

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

/**
 * The bot's memory: where each alert was posted, the last CBM status of each unit, polling
 * watermarks and the outbox of Slack calls not yet made. Every change an observation causes is
 * written in one transaction before the observation is acknowledged, so a restart resumes exactly
 * where the bot stopped. Over either store (bot/state/sql.ts); the schema is bot/state/schema.ts.
 */
export class StateStore {
	constructor(
		/** Where this store's statements run: the database, or the transaction this store is bound to. */
		readonly sql: SqlExecutor,
		private readonly db: SqlDatabase,
	) {}

	/** The store over a database: statements outside transactions run on the database itself. */
	static over(db: SqlDatabase): StateStore {
		return new StateStore(db, db);
	}

	get database(): SqlDatabase {
		return this.db;
	}

	close(): Promise<void> {
		return this.db.close();
	}

	/**
	 * Runs `work` in one transaction with a store bound to it (use only that store, and its `sql`, inside).
	 * Inside a transaction already, `work` joins it. `work` may run again (a serialization failure on
	 * PostgreSQL): database calls only, no Slack call, no platform request.
	 */
	transaction<T>(work: (store: StateStore) => Promise<T>): Promise<T> {
		if (this.sql !== this.db) return work(this);
		return this.db.transaction((tx) => work(new StateStore(tx, this.db)));
	}

	async getEvent(key: string): Promise<{ status: string; alert: AlertRecord } | undefined> {
		const row = await this.sql.get<{ status: string; alert: string }>(
			'SELECT status, alert FROM events WHERE key = ?',
			key,
		);
		return row && { status: row.status, alert: JSON.parse(row.alert) as AlertRecord };
	}

	async putEvent(alert: AlertRecord): Promise<void> {
		await this.sql.run(
			'INSERT INTO events (key, status, alert, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET status = excluded.status, alert = excluded.alert, updated_at = excluded.updated_at',
			alert.key,
			alert.status,
			JSON.stringify(alert),
			Date.now(),
		);
	}

	/** Open alerts, for `health` (assets with open faults) and for polling closes. */
	async openAlerts(): Promise<AlertRecord[]> {
		const rows = await this.sql.all<{ alert: string }>(
			"SELECT alert FROM events WHERE status = 'Open'",
		);
		return rows.map((row) => JSON.parse(row.alert) as AlertRecord);
	}

	getMessage(eventKey: string, channel: string): Promise<MessageRef | undefined> {
		return this.sql.get<MessageRef>(
			'SELECT channel, channel_id AS "channelId", ts, via FROM event_messages WHERE event_key = ? AND channel = ?',
			eventKey,
			channel,
		);
	}

	async putMessage(eventKey: string, ref: MessageRef): Promise<void> {
		await this.sql.run(
			'INSERT INTO event_messages (event_key, channel, channel_id, ts, via) VALUES (?, ?, ?, ?, ?) ON CONFLICT (event_key, channel) DO UPDATE SET channel_id = excluded.channel_id, ts = excluded.ts, via = excluded.via',
			eventKey,
			ref.channel,
			ref.channelId,
			ref.ts,
			ref.via,
		);
	}

	async getCbmStatus(key: string): Promise<string | undefined> {
		return (
			await this.sql.get<{ status: string }>('SELECT status FROM cbm_units WHERE key = ?', key)
		)?.status;
	}

	async getCbmUnit(key: string): Promise<CbmAlert | undefined> {
		const row = await this.sql.get<{ unit: string }>(
			'SELECT unit FROM cbm_units WHERE key = ?',
			key,
		);
		return row ? (JSON.parse(row.unit) as CbmAlert) : undefined;
	}

	/** Notes a unit first seen during a first CBM round, for the digest that ends the round. */
	async stageCbmFirstSighting(key: string): Promise<void> {
		await this.sql.run(
			'INSERT INTO cbm_first_round (key) VALUES (?) ON CONFLICT (key) DO NOTHING',
			key,
		);
	}

	/** The units staged by stageCbmFirstSighting, in the order staged, and none staged any more. */
	async takeStagedCbmFirstSightings(): Promise<string[]> {
		const keys = (
			await this.sql.all<{ key: string }>('SELECT key FROM cbm_first_round ORDER BY id')
		).map((r) => r.key);
		await this.sql.run('DELETE FROM cbm_first_round');
		return keys;
	}

	async putCbmStatus(unit: CbmAlert): Promise<void> {
		await this.sql.run(
			'INSERT INTO cbm_units (key, status, unit, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET status = excluded.status, unit = excluded.unit, updated_at = excluded.updated_at',
			unit.key,
			unit.status,
			JSON.stringify(unit),
			Date.now(),
		);
	}

	/** The last known state of every unit whose status is one of `statuses`. */
	async cbmUnits(statuses: readonly string[]): Promise<CbmAlert[]> {
		const rows = await this.sql.all<{ unit: string }>(
			`SELECT unit FROM cbm_units WHERE status IN (${statuses.map(() => '?').join(',')})`,
			...statuses,
		);
		return rows.map((r) => JSON.parse(r.unit) as CbmAlert);
	}

	async getCbmMessage(key: string, channel: string): Promise<string | undefined> {
		return (
			await this.sql.get<{ ts: string }>(
				'SELECT ts FROM cbm_messages WHERE cbm_key = ? AND channel = ?',
				key,
				channel,
			)
		)?.ts;
	}

	async putCbmMessage(key: string, channel: string, ts: string): Promise<void> {
		await this.sql.run(
			'INSERT INTO cbm_messages (cbm_key, channel, ts) VALUES (?, ?, ?) ON CONFLICT (cbm_key, channel) DO UPDATE SET ts = excluded.ts',
			key,
			channel,
			ts,
		);
	}

	async getWatermark(name: string): Promise<string | undefined> {
		return (
			await this.sql.get<{ value: string }>('SELECT value FROM watermarks WHERE name = ?', name)
		)?.value;
	}

	async setWatermark(name: string, value: string): Promise<void> {
		await this.sql.run(
			'INSERT INTO watermarks (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
			name,
			value,
		);
	}

	async enqueue(channel: string, item: OutboxItem): Promise<void> {
		await this.sql.run(
			'INSERT INTO outbox (channel, item) VALUES (?, ?)',
			channel,
			JSON.stringify(item),
		);
	}

	async channelsWithPending(): Promise<string[]> {
		return (
			await this.sql.all<{ channel: string }>(
				'SELECT DISTINCT channel FROM outbox WHERE failed = 0',
			)
		).map((r) => r.channel);
	}

	async pending(channel: string, limit: number): Promise<PendingCall[]> {
		const rows = await this.sql.all<{
			id: number;
			channel: string;
			item: string;
			attempts: number;
			progress: string;
			intent: string | null;
		}>(
			'SELECT id, channel, item, attempts, progress, intent FROM outbox WHERE channel = ? AND failed = 0 ORDER BY id LIMIT ?',
			channel,
			limit,
		);
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
	async setIntent(id: number, intent: CallIntent | undefined): Promise<void> {
		await this.sql.run(
			'UPDATE outbox SET intent = ? WHERE id = ?',
			intent ? JSON.stringify(intent) : null,
			id,
		);
	}

	/** Slack accepted this sub-step: recorded before the next call, so no retry repeats it. */
	markStep(id: number, step: string, result: unknown): Promise<void> {
		return this.transaction(async (store) => {
			const row = await store.sql.get<{ progress: string }>(
				'SELECT progress FROM outbox WHERE id = ?',
				id,
			);
			if (!row) return;
			const progress = JSON.parse(row.progress) as Record<string, unknown>;
			progress[step] = result ?? true;
			await store.sql.run(
				'UPDATE outbox SET progress = ?, intent = NULL WHERE id = ?',
				JSON.stringify(progress),
				id,
			);
		});
	}

	async getChannelId(channel: string): Promise<string | undefined> {
		return (
			await this.sql.get<{ channel_id: string }>(
				'SELECT channel_id FROM channel_ids WHERE channel = ?',
				channel,
			)
		)?.channel_id;
	}

	async putChannelId(channel: string, channelId: string): Promise<void> {
		await this.sql.run(
			'INSERT INTO channel_ids (channel, channel_id) VALUES (?, ?) ON CONFLICT (channel) DO UPDATE SET channel_id = excluded.channel_id',
			channel,
			channelId,
		);
	}

	/** The alerts (and resolutions) a digest message lists, so it can be re-rendered as they close. */
	async putDigest(
		channelId: string,
		ts: string,
		alertKeys: readonly string[],
		resolvedKeys: readonly string[],
	): Promise<void> {
		await this.sql.run(
			'INSERT INTO digests (channel_id, ts, alert_keys, resolved_keys) VALUES (?, ?, ?, ?) ON CONFLICT (channel_id, ts) DO UPDATE SET alert_keys = excluded.alert_keys, resolved_keys = excluded.resolved_keys',
			channelId,
			ts,
			JSON.stringify(alertKeys),
			JSON.stringify(resolvedKeys),
		);
	}

	async getDigest(
		channelId: string,
		ts: string,
	): Promise<{ alertKeys: string[]; resolvedKeys: string[] } | undefined> {
		const row = await this.sql.get<{ alert_keys: string; resolved_keys: string }>(
			'SELECT alert_keys, resolved_keys FROM digests WHERE channel_id = ? AND ts = ?',
			channelId,
			ts,
		);
		return (
			row && {
				alertKeys: JSON.parse(row.alert_keys) as string[],
				resolvedKeys: JSON.parse(row.resolved_keys) as string[],
			}
		);
	}

	/** Every alert shown in one message of its own (a drive and its motor may share one: inhibition), in the order they joined it. */
	async keysInMessage(channelId: string, ts: string): Promise<string[]> {
		const rows = await this.sql.all<{ event_key: string }>(
			"SELECT event_key FROM event_messages WHERE channel_id = ? AND ts = ? AND via = 'message' ORDER BY id",
			channelId,
			ts,
		);
		return rows.map((r) => r.event_key);
	}

	/** Where an alert was posted, in every channel. */
	messagesOf(eventKey: string): Promise<MessageRef[]> {
		return this.sql.all<MessageRef>(
			'SELECT channel, channel_id AS "channelId", ts, via FROM event_messages WHERE event_key = ? ORDER BY id',
			eventKey,
		);
	}

	async countPending(): Promise<number> {
		return Number(
			(await this.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM outbox WHERE failed = 0'))?.n ??
				0,
		);
	}

	async complete(ids: readonly number[]): Promise<void> {
		for (const id of ids) await this.sql.run('DELETE FROM outbox WHERE id = ?', id);
	}

	/** A call Slack refused for good (e.g. channel_not_found) is kept, flagged, for an operator. */
	async recordFailure(id: number, error: string, giveUp: boolean): Promise<void> {
		await this.sql.run(
			'UPDATE outbox SET attempts = attempts + 1, last_error = ?, failed = ? WHERE id = ?',
			error,
			giveUp ? 1 : 0,
			id,
		);
	}

	failedCalls(): Promise<Array<{ id: number; channel: string; lastError: string }>> {
		return this.sql.all<{ id: number; channel: string; lastError: string }>(
			'SELECT id, channel, last_error AS "lastError" FROM outbox WHERE failed = 1',
		);
	}
}
