/** What the outbox did since it started: for logs, the benchmark and tests. */
export interface DispatchStats {
	posts: number;
	updates: number;
	digests: number;
	rateLimited: number;
	failed: number;
	/** Posts found already in Slack after their answer was lost (a crash): not made again. */
	reconciled: number;
	reminders: number;
}

export function emptyStats(): DispatchStats {
	return {
		posts: 0,
		updates: 0,
		digests: 0,
		rateLimited: 0,
		failed: 0,
		reconciled: 0,
		reminders: 0,
	};
}
