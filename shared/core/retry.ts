import { headerValue, type TransportResponse } from '../transport/types';

/** Retry policy (docs/assumptions.md, "Shared core"). */
export interface RetryOptions {
	/** Attempts in total, including the first. Default 4. 1 disables retries. */
	maxAttempts?: number;
	/** First backoff step. Default 250 ms. */
	baseDelayMs?: number;
	/** Largest backoff step and largest Retry-After honoured. Default 8 s / 60 s. */
	maxDelayMs?: number;
	maxRetryAfterMs?: number;
}

export interface RetryPolicy {
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
	maxRetryAfterMs: number;
}

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
	if (options === false)
		return { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 };
	return {
		maxAttempts: Math.max(1, options?.maxAttempts ?? 4),
		baseDelayMs: options?.baseDelayMs ?? 250,
		maxDelayMs: options?.maxDelayMs ?? 8_000,
		maxRetryAfterMs: options?.maxRetryAfterMs ?? 60_000,
	};
}

/** Full-jitter exponential backoff: a random delay in [0, min(max, base * 2^(attempt-1))]. */
export function backoffDelay(
	policy: RetryPolicy,
	attempt: number,
	random: () => number = Math.random,
): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
	return Math.round(random() * ceiling);
}

/** Retry-After in milliseconds (delta-seconds or HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(
	response: TransportResponse,
	now: number = Date.now(),
): number | undefined {
	const value = headerValue(response.headers, 'retry-after');
	if (value === undefined || value.trim() === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
	const at = Date.parse(value);
	return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Statuses worth another attempt: throttling and server-side failures. */
export function isRetryableStatus(status: number): boolean {
	return status === 429 || status === 408 || (status >= 500 && status !== 501 && status !== 505);
}
