import { FencedOut } from '../../cluster/fence';
import type { Outbox, PendingCall } from '../../features/alerts/outbox';
import { PermanentSlackError, SlackRateLimitedError } from '../../kernel/notice';
import { type BotLogger, errorText } from '../../log';
import * as metrics from '../../ops/metrics';
import type { Pacing } from './pacing';
import type { DispatchStats } from './stats';

/**
 * What a failed call means for its channel: another replica leads (the call stays, untouched, for it); Slack asked
 * to wait (only this channel waits); anything else is retried with a growing backoff, and given up (kept in the
 * outbox, flagged, for an operator) after 3 permanent refusals or 10 failures.
 */
export async function handleFailure(
	deps: { outbox: Outbox; pacing: Pacing; stats: DispatchStats; logger: BotLogger },
	channel: string,
	call: PendingCall,
	error: unknown,
): Promise<void> {
	const { outbox, pacing, stats, logger } = deps;
	if (error instanceof FencedOut) {
		logger.warn(
			`slack: ${call.item.kind} to ${channel} left to the replica that leads now (${errorText(error)})`,
		);
		return;
	}
	if (error instanceof SlackRateLimitedError) {
		stats.rateLimited++;
		pacing.hold(channel, error.retryAfterMs);
		logger.warn(
			`slack: ${channel} rate limited, waiting ${error.retryAfterMs} ms (other channels continue)`,
		);
		return;
	}
	const permanent = error instanceof PermanentSlackError;
	const giveUp = permanent ? call.attempts + 1 >= 3 : call.attempts + 1 >= 10;
	await outbox.recordFailure(call.id, errorText(error), giveUp);
	if (giveUp) stats.failed++;
	if (giveUp) metrics.alertFailed();
	const backoff = Math.min(60_000, 500 * 2 ** call.attempts);
	pacing.hold(channel, backoff);
	logger.error(
		`slack: ${call.item.kind} to ${channel} failed (${errorText(error)})${giveUp ? ', given up: kept in the outbox as failed' : `, retrying in ${backoff} ms`}`,
	);
}
