import { createHash } from 'node:crypto';
import type { SqlExecutor } from '../state/sql';

/**
 * What makes a Slack payload the same one again: Slack repeats `event_id` on an Events API retry and
 * `trigger_id` on a retried interaction or slash command; anything else is known by its content.
 */
export function payloadKey(body: Record<string, unknown>): string {
	for (const field of ['event_id', 'trigger_id'] as const) {
		const value = body[field];
		if (typeof value === 'string' && value !== '') return `${field}:${value}`;
	}
	const stable = (value: unknown): unknown =>
		Array.isArray(value)
			? value.map(stable)
			: value && typeof value === 'object'
				? Object.fromEntries(
						Object.keys(value)
							.sort()
							.map((k) => [k, stable((value as Record<string, unknown>)[k])]),
					)
				: value;
	return (
		'sha256:' +
		createHash('sha256')
			.update(JSON.stringify(stable(body)))
			.digest('hex')
	);
}

/**
 * True for the one replica (and the one attempt) that may act on this payload: one statement, so two replicas
 * claiming at once are ordered by the key's unique index, on either store (portable SQL, schema step 6).
 */
export async function claimPayload(
	sql: SqlExecutor,
	key: string,
	now = Date.now(),
): Promise<boolean> {
	return (
		(
			await sql.run(
				'INSERT INTO slack_payloads (key, seen_at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING',
				key,
				now,
			)
		).changes === 1
	);
}

/** The claim's holder failed to act: the payload is free again for Slack's retry (or another replica's copy). */
export async function releasePayload(sql: SqlExecutor, key: string): Promise<void> {
	await sql.run('DELETE FROM slack_payloads WHERE key = ?', key);
}

/** Hours a claim is kept: Slack retries within minutes and refuses requests older than 5 minutes. */
export const PAYLOAD_RETENTION_HOURS = 24;

/** Claims older than the retention are forgotten; returns how many. */
export async function forgetOldPayloads(
	sql: SqlExecutor,
	olderThanHours = PAYLOAD_RETENTION_HOURS,
	now = Date.now(),
): Promise<number> {
	return (
		await sql.run('DELETE FROM slack_payloads WHERE seen_at < ?', now - olderThanHours * 3_600_000)
	).changes;
}
