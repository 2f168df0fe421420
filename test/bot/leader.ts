/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Test helpers that make the leader's work happen now, and fail (rather than do nothing) when it cannot: a test that
// waits for the outbox or runs a poll pass must not pass because the bot was not leading. Only tests use them.
import { setTimeout as sleep } from 'node:timers/promises';
import type { AlertState } from '../../bot/features/alerts/state';
import type { ConnectivityPoll } from '../../bot/leader/sources/connectivity-poll';
import type { PollSource } from '../../bot/leader/sources/poll';
import type { Dispatcher } from '../../bot/leader/outbox/dispatcher';
import type { SqlDatabase } from '../../bot/state/sql';

/**
 * Resolves once the outbox is empty and no channel is being sent to; throws, saying what is left, when that does not
 * happen within `timeoutMs`.
 */
export async function drain(
	target: { dispatcher: Dispatcher; state: AlertState },
	timeoutMs = 20_000,
): Promise<void> {
	const { dispatcher, state } = target;
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if ((await state.outbox.countPending()) === 0 && dispatcher.idle) return;
		dispatcher.kick();
		await sleep(20);
	}
	const left = await state.outbox.countPending();
	if (left === 0) return;
	const channels = await state.outbox.channelsWithPending();
	throw new Error(
		`the outbox did not drain within ${timeoutMs} ms: ${left} calls left for ${channels.join(', ')} (is this replica leading?)`,
	);
}

/** One full poll pass (every asset, with CBM when asked); fails when the bot does not lead or does not poll. */
export async function pollOnce(
	bot: { poll?: PollSource; leadership(): { isLeader(): boolean } | undefined },
	withCbm = false,
): Promise<void> {
	if (!bot.poll) {
		const lease = bot.leadership();
		throw new Error(
			lease && !lease.isLeader()
				? 'no poll pass: this replica does not lead'
				: 'no poll pass: the bot has no poll source (source.kind is push?)',
		);
	}
	await bot.poll.pollOnce(withCbm);
}

/** One pass of connectivity's E8 reads; fails when the bot does not lead or does not poll connectivity. */
export async function pollConnectivityOnce(bot: {
	connectivityPoll?: ConnectivityPoll;
}): Promise<void> {
	if (!bot.connectivityPoll)
		throw new Error(
			'no connectivity pass: the bot does not lead, polls no connectivity (connectivity.enabled), or gets it pushed',
		);
	await bot.connectivityPoll.pollOnce();
}

/** Outbox calls Slack refused for good (kept, flagged, for an operator). */
export function failedCalls(
	database: SqlDatabase,
): Promise<Array<{ id: number; channel: string; lastError: string }>> {
	return database.all<{ id: number; channel: string; lastError: string }>(
		'SELECT id, channel, last_error AS "lastError" FROM outbox WHERE failed = 1',
	);
}
