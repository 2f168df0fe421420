import { abortError, onAbort } from '../timers/wait';

/**
 * Bounded concurrency: at most `limit` tasks run at once, the rest queue in arrival order.
 * A queued task whose signal aborts leaves the queue without ever starting.
 */
export class Limiter {
	private active = 0;
	private readonly queue: Array<{ start: () => void; stopFollowing?: () => void }> = [];

	constructor(readonly limit: number) {
		if (!Number.isInteger(limit) || limit < 1)
			throw new RangeError(`concurrency must be a positive integer, got ${limit}`);
	}

	run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
		if (this.tryAcquire(signal)) return this.runHeld(task);
		return this.acquire(signal).then(() => this.runHeld(task));
	}

	/**
	 * Takes a free slot at once when there is one and nobody is queued (the caller must `release`
	 * it): the hot path of the core's calls, without a promise of its own.
	 */
	tryAcquire(signal?: AbortSignal): boolean {
		if (this.active >= this.limit || this.queue.length > 0 || signal?.aborted) return false;
		this.active++;
		return true;
	}

	private async runHeld<T>(task: () => Promise<T>): Promise<T> {
		try {
			return await task();
		} finally {
			this.release();
		}
	}

	/** Waits for a slot in arrival order (the caller must `release` it); a queued wait ends when `signal` aborts. */
	acquire(signal?: AbortSignal): Promise<void> {
		if (signal?.aborted) return Promise.reject(abortError(signal));
		if (this.active < this.limit) {
			this.active++;
			return Promise.resolve();
		}
		return new Promise((resolve, reject) => {
			const entry: { start: () => void; stopFollowing?: () => void } = { start: resolve };
			if (signal) {
				entry.stopFollowing = onAbort(signal, () => {
					const at = this.queue.indexOf(entry);
					if (at >= 0) this.queue.splice(at, 1);
					reject(abortError(signal));
				});
			}
			this.queue.push(entry);
		});
	}

	release(): void {
		const next = this.queue.shift();
		if (!next) {
			this.active--;
			return;
		}
		next.stopFollowing?.();
		next.start();
	}
}

/** Run `fn` over items with at most `limit` in flight; results keep the items' order. */
export async function mapLimit<T, R>(
	items: readonly T[],
	limit: number,
	fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
	const limiter = new Limiter(limit);
	return Promise.all(items.map((item, index) => limiter.run(() => fn(item, index))));
}

/**
 * Run `fn` over items, `limit` at a time, by `limit` workers that each take the next item when
 * their last is done: nothing is made per item before its turn (a pass over 10,000 assets that
 * queued a task per asset held 10,000 closures and promises for its whole length). Stops taking
 * items once `stop()` is true. `fn` handles its own errors; the first one thrown ends its worker
 * and rejects the whole.
 */
export async function forEachLimit<T>(
	items: readonly T[],
	limit: number,
	fn: (item: T) => Promise<void>,
	stop: () => boolean = () => false,
): Promise<void> {
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < items.length && !stop()) await fn(items[next++]);
	};
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
