import { type Job, repeat } from './job';

/**
 * Replicas that answer Slack enqueue their calls in the shared outbox: the leader looks for them every second (on
 * SQLite the single process kicks the outbox itself whenever it enqueues).
 */
export function startOutboxPickUp(kick: () => void): Job {
	return repeat(
		1_000,
		async () => kick(),
		() => undefined,
	);
}
