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

/** Sleep that an AbortSignal ends early (rejecting). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
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

/**
 * A signal that aborts once `ms` have passed: the total deadline of one call (retries included).
 * `clear` drops the timer as soon as the call is over, so finished calls leave no timers behind.
 */
export function deadlineSignal(ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`deadline of ${ms} ms passed`, 'TimeoutError')), ms);
  // A call in flight keeps the process alive by itself; its deadline need not.
  (timer as { unref?: () => void }).unref?.();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
