import { TransportError } from '../errors';
import { setDeadline, type Arm } from './deadlines';

/** The error thrown when a caller's signal aborts a wait or a request. */
export function abortError(signal: AbortSignal): TransportError {
	const reason = signal.reason as { name?: string } | undefined;
	const timeout = reason?.name === 'TimeoutError';
	return new TransportError({
		reason: timeout ? 'TIMEOUT' : 'ABORTED',
		detail: timeout ? 'the deadline passed' : 'the operation was cancelled',
		cause: signal.reason,
	});
}

/**
 * The one primitive the core takes from its host: wait `ms`, ending early when `signal` aborts.
 * n8n's pack installs n8n-workflow's `sleep` (shared/runtime/n8n), Node programs install
 * node:timers (shared/runtime/node). The core itself names no timer global, so the same code runs
 * under n8n Cloud's rules and in the bot.
 */
export interface Timers {
	/** `background`: the wait alone should not keep the process alive (a host may ignore it). */
	sleep(ms: number, signal?: AbortSignal, background?: boolean): Promise<unknown>;
	/**
	 * Optional: calls `fire` after `ms` unless the returned cancel is called first, without keeping
	 * the process alive. A per-call deadline is set and cleared on every request, so a host with a
	 * cheap timer (Node) gives one; others fall back to `sleep` with an abort.
	 */
	schedule?(ms: number, fire: () => void): () => void;
}

let timers: Timers | undefined;

/** Installs the host's timers (last call wins; tests may install a fake clock). */
export function useTimers(host: Timers): void {
	timers = host;
}

/** Sleep that an AbortSignal ends early (rejecting with the core's abort error). */
export function sleep(ms: number, signal?: AbortSignal, background = false): Promise<void> {
	if (signal?.aborted) return Promise.reject(abortError(signal));
	if (!timers) {
		return Promise.reject(
			new Error(
				'The Drive Monitoring core has no timers: a Node program imports shared/runtime/node first, n8n nodes import shared/runtime/n8n',
			),
		);
	}
	// The host's own abort error is replaced by ours; raceAbort also covers hosts whose sleep
	// ignores the signal (n8n-workflow before 2.x takes only the delay).
	const waited = timers.sleep(ms, signal, background).then(
		() => undefined,
		(error: unknown) => {
			throw signal?.aborted ? abortError(signal) : error;
		},
	);
	return raceAbort(waited, signal);
}

/** Wait for a shared promise without letting one caller's abort cancel it for the others. */
export function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
	if (!signal) return promise;
	if (signal.aborted) return Promise.reject(abortError(signal));
	return new Promise<T>((resolve, reject) => {
		const onAbort = (): void => reject(abortError(signal));
		signal.addEventListener('abort', onAbort, { once: true });
		promise.then(
			(v) => {
				signal.removeEventListener('abort', onAbort);
				resolve(v);
			},
			(e: unknown) => {
				signal.removeEventListener('abort', onAbort);
				reject(e instanceof Error ? e : new Error(String(e)));
			},
		);
	});
}

/** What `follow` aborts: an AbortController, or a call's own abort (which also runs its hooks). */
export interface Abortable {
	abort(reason?: unknown): void;
}

const followers = new WeakMap<AbortSignal, { children: Set<Abortable>; onAbort: () => void }>();

/**
 * Abort `child` when `parent` aborts. A parent gets one listener however many children follow it
 * (children of a client's signal would otherwise pile up: MaxListenersExceededWarning past 10),
 * and loses it when the last child stops following. A listener left behind kept more than a
 * closure alive: Node holds a signal made by AbortSignal.any() that has an abort listener in a
 * process-wide set until it aborts, so every finished call's signals stayed until a major GC
 * happened to collect their sources (a long-running poller's memory grows).
 * Returns the function that stops following.
 */
export function follow(parent: AbortSignal, child: Abortable): () => void {
	let entry = followers.get(parent);
	if (!entry) {
		const children = new Set<Abortable>();
		const onAbort = (): void => {
			followers.delete(parent);
			for (const c of children) c.abort(parent.reason);
			children.clear();
		};
		entry = { children, onAbort };
		followers.set(parent, entry);
		parent.addEventListener('abort', onAbort, { once: true });
	}
	const own = entry;
	own.children.add(child);
	return () => {
		if (!own.children.delete(child) || own.children.size > 0) return;
		parent.removeEventListener('abort', own.onAbort);
		if (followers.get(parent) === own) followers.delete(parent);
	};
}

/** The error reason of a call whose own deadline passed (abortError reads it as a timeout). */
export class DeadlineReason extends Error {
	override name = 'TimeoutError';
}

/** The reason a deadline timer is cancelled with when no deadline waits on it; nobody sees it. */
const NOT_NEEDED = new Error('no deadline waits on this timer');
const noop = (): void => undefined;

/**
 * The host's timer for deadlines (shared/timers/deadlines): its `schedule` where it has one (Node),
 * else its sleep, aborted with one shared reason (a DOMException and the core's abort error would
 * each capture a stack every time).
 */
const arms = new WeakMap<Timers, Arm>();
function armOf(host: Timers): Arm {
	let arm = arms.get(host);
	if (!arm) {
		const schedule = host.schedule?.bind(host);
		arm =
			schedule ??
			((ms, fire) => {
				const stop = new AbortController();
				host.sleep(ms, stop.signal, true).then(fire, noop);
				return () => stop.abort(NOT_NEEDED);
			});
		arms.set(host, arm);
	}
	return arm;
}

/**
 * The signal of one call: aborted when any parent aborts, or once `deadlineMs` have passed (the
 * total deadline, retries included). `clear` ends the timer and the following as soon as the
 * call is over, so finished calls leave neither timers nor listeners behind.
 */
export function callSignal(
	parents: Array<AbortSignal | undefined>,
	deadlineMs?: number,
): { signal?: AbortSignal; deadlinePassed(): boolean; clear(): void } {
	const present = parents.filter((s): s is AbortSignal => s !== undefined);
	if (deadlineMs === undefined && present.length <= 1)
		return { signal: present[0], deadlinePassed: () => false, clear: () => undefined };
	const controller = new AbortController();
	const signal = controller.signal as HookedSignal;
	const hooks: AbortHooks = [];
	signal[HOOKS] = hooks;
	const call: Abortable = {
		abort(reason?: unknown) {
			if (signal.aborted) return;
			controller.abort(reason);
			for (const hook of hooks) hook?.();
			hooks.length = 0;
		},
	};
	const unfollow = present.map((parent) =>
		parent.aborted ? (call.abort(parent.reason), () => false) : follow(parent, call),
	);
	let passed = false;
	// The deadline waits on the host's timers like every other wait of the core; ending the call
	// cancels it. A call in flight keeps the process alive by itself; its deadline need not.
	const expire = () => {
		passed = true;
		call.abort(new DeadlineReason(`the deadline of ${deadlineMs} ms passed`));
	};
	const cancel =
		deadlineMs !== undefined && timers ? setDeadline(deadlineMs, expire, armOf(timers)) : noop;
	return {
		signal,
		deadlinePassed: () => passed,
		clear: () => {
			cancel();
			for (const stop of unfollow) stop();
		},
	};
}

/**
 * Hooks run when a call's own signal aborts. Adding and removing an 'abort' listener costs about
 * 0.6 us (Node's EventTarget), and the transport did both on every request, for a signal that
 * almost never aborts; a hook on a call's signal is an array slot.
 */
const HOOKS = Symbol('drive-monitoring.abortHooks');
type AbortHooks = Array<(() => void) | undefined>;
type HookedSignal = AbortSignal & { [HOOKS]?: AbortHooks };

/**
 * Calls `fn` once when `signal` aborts (the caller checks `signal.aborted` first); returns what
 * stops it. A call's own signal (callSignal) takes a hook, any other signal a listener.
 */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
	const hooks = (signal as HookedSignal)[HOOKS];
	if (hooks) {
		const at = hooks.push(fn) - 1;
		return () => {
			hooks[at] = undefined;
		};
	}
	signal.addEventListener('abort', fn, { once: true });
	return () => signal.removeEventListener('abort', fn);
}
