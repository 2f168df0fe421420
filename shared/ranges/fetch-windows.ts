import { follow } from '../timers/wait';
import type { Window } from './windows';

/**
 * Run `fn` over windows with at most `limit` in flight; the first failure cancels the rest.
 * `done[i]` turns true when window i is read (what a deadline error reports as read).
 */
export async function fetchWindows<T>(
	windows: Window[],
	limit: number,
	signal: AbortSignal | undefined,
	fn: (w: Window, signal: AbortSignal) => Promise<T>,
	done: boolean[] = [],
): Promise<T[]> {
	// Controllers that follow one another, never AbortSignal.any(): Node keeps such a composite
	// alive while it has an abort listener, until it aborts (see follow in core/wait).
	const controller = new AbortController();
	const unfollowCaller = signal ? follow(signal, controller) : () => undefined;
	if (signal?.aborted) controller.abort(signal.reason);
	const results = new Array<T>(windows.length);
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async (): Promise<void> => {
		while (next < windows.length && !failure) {
			const index = next++;
			// A signal per window: listeners the transport adds to it do not pile up on one shared
			// signal (MaxListenersExceededWarning at 8 windows in flight).
			const own = new AbortController();
			const unfollow = follow(controller.signal, own);
			if (controller.signal.aborted) own.abort(controller.signal.reason);
			try {
				results[index] = await fn(windows[index], own.signal);
				done[index] = true;
			} catch (error) {
				failure ??= { error };
				controller.abort();
			} finally {
				unfollow();
			}
		}
	};
	try {
		await Promise.all(Array.from({ length: Math.min(limit, windows.length) }, worker));
	} finally {
		unfollowCaller();
	}
	if (failure) throw failure.error;
	return results;
}
