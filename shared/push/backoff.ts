/** Exponential backoff with "equal jitter": half the delay fixed, half random, capped. */
export function backoffDelay(
	attempt: number,
	initialMs: number,
	maxMs: number,
	random: () => number = Math.random,
): number {
	const ceiling = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
	return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
