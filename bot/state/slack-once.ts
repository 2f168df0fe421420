/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { createHash } from 'node:crypto';
import type { ClientBase } from 'pg';

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
				? Object.fromEntries(Object.keys(value).sort().map((k) => [k, stable((value as Record<string, unknown>)[k])]))
				: value;
	return 'sha256:' + createHash('sha256').update(JSON.stringify(stable(body))).digest('hex');
}

/**
 * True for the one replica (and the one attempt) that may act on this payload. Run it in the transaction that
 * makes the payload's state change, so a failed change frees the payload for Slack's retry.
 */
export async function claimPayload(client: ClientBase, key: string): Promise<boolean> {
	const { rowCount } = await client.query('INSERT INTO slack_payloads (key, seen_at) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, Date.now()]);
	return rowCount === 1;
}

/** Slack stops retrying within minutes; keys older than a day are forgotten. */
export async function forgetOldPayloads(client: ClientBase, olderThanHours = 24): Promise<number> {
	const { rowCount } = await client.query('DELETE FROM slack_payloads WHERE seen_at < $1', [Date.now() - olderThanHours * 3_600_000]);
	return rowCount ?? 0;
}
