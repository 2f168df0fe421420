// Test helpers over the bot's outbox and sources: what a test asserts on or waits for, and nothing the bot needs.
import type { SqlDatabase } from '../../bot/state/sql';

/** Outbox calls Slack refused for good (kept, flagged, for an operator). */
export function failedCalls(
	database: SqlDatabase,
): Promise<Array<{ id: number; channel: string; lastError: string }>> {
	return database.all<{ id: number; channel: string; lastError: string }>(
		'SELECT id, channel, last_error AS "lastError" FROM outbox WHERE failed = 1',
	);
}
