import type { AlertRecord } from '../../kernel/alert';
import type { SqlScope } from '../../state/scope';

/** Where a message about an alert (or an outage) is in Slack. */
export interface MessageRef {
	channel: string;
	/** The id Slack answered with (updates need it; routes may name a channel). */
	channelId: string;
	ts: string;
	/** A message of its own, or a line in a digest (then `ts` is the digest's). */
	via: 'message' | 'digest';
}

/**
 * The alerts the bot knows (one row per platform event, with its last status) and where each was posted: a message
 * of its own, or a line of a digest (whose alert lists are kept to render it again as they close).
 */
export class AlertStore {
	constructor(private readonly scope: SqlScope) {}

	private get sql() {
		return this.scope.sql;
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
}
