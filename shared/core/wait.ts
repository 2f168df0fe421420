import { TransportError } from '../errors';

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
  sleep(ms: number, signal?: AbortSignal): Promise<unknown>;
}

let timers: Timers | undefined;

/** Installs the host's timers (last call wins; tests may install a fake clock). */
export function useTimers(host: Timers): void {
  timers = host;
}

/** Sleep that an AbortSignal ends early (rejecting with the core's abort error). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  if (!timers) {
    return Promise.reject(
      new Error('The Drive Monitoring core has no timers: a Node program imports shared/runtime/node first, n8n nodes import shared/runtime/n8n'),
    );
  }
  // The host's own abort error is replaced by ours; raceAbort also covers hosts whose sleep
  // ignores the signal (n8n-workflow before 2.x takes only the delay).
  const waited = timers.sleep(ms, signal).then(
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

/** Combine optional signals into one (undefined when none). */
export function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  if (present.length <= 1) return present[0];
  return AbortSignal.any(present);
}
