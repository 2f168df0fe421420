import type { OutboxItem } from '../../kernel/outbox';
import type { SqlScope } from '../../state/scope';

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

/**
 * The Slack calls not made yet, per channel, in the order enqueued: every replica enqueues (in the transaction of
 * the change that causes the call), the leader's outbox sends them (bot/leader/outbox). Also the ids Slack
 * answered for channels named #name, which lookups need.
 */
export class Outbox {
	constructor(private readonly scope: SqlScope) {}

	private get sql() {
		return this.scope.sql;
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

	async countPending(): Promise<number> {
		return Number(
			(await this.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM outbox WHERE failed = 0'))?.n ??
				0,
		);
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
		return this.scope.transaction(async (tx) => {
			const row = await tx.sql.get<{ progress: string }>(
				'SELECT progress FROM outbox WHERE id = ?',
				id,
			);
			if (!row) return;
			const progress = JSON.parse(row.progress) as Record<string, unknown>;
			progress[step] = result ?? true;
			await tx.sql.run(
				'UPDATE outbox SET progress = ?, intent = NULL WHERE id = ?',
				JSON.stringify(progress),
				id,
			);
		});
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
}
