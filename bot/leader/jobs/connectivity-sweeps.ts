import type { ConnectivityTracker } from '../../features/connectivity/tracker';
import { type BotLogger, errorText } from '../../log';
import { type Job, repeat } from './job';

/**
 * Every 30 s, the assets that reached minOfflineMinutes (or whose silence ended) between two observations are
 * announced; at the start, the changes a previous run (or leader) committed that never reached the outbox are sent.
 */
export function startConnectivitySweeps(tracker: ConnectivityTracker, logger: BotLogger): Job {
	tracker.flushInBackground();
	return repeat(
		30_000,
		() => tracker.sweep(),
		(error) => logger.warn(`connectivity: sweep failed (${errorText(error)})`),
	);
}
