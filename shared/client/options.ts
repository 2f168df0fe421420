import type { TokenCache } from '../auth/cache';
import type { ApiCredentials } from '../auth/token';
import type { Logger } from '../core/logger';
import { retryPolicy, type RetryOptions, type RetryPolicy } from '../core/retry';
import { formatDuration, ValidationError } from '../errors';
import type { Transport } from '../transport/types';

export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Total deadline of one call, retries and backoff included (assumption C12). */
export const DEFAULT_DEADLINE_MS = 90_000;

export interface ClientOptions extends Partial<ApiCredentials> {
	/** The platform's base address ({base_url}); `/devcenter/extapi/v1` is appended. */
	baseUrl: string;
	/** Sends API and token requests; the core adds the bearer token. Default: a keep-alive undici transport. */
	transport?: Transport;
	/**
	 * A transport that authenticates by itself (n8n's httpRequestWithAuthentication): the core then
	 * does no token handling and needs no credentials. Downloads of temporary links still go
	 * through `transport` (they must not carry a bearer token).
	 */
	authenticatedTransport?: Transport;
	/** Requests in flight at once for this client (and the default for range functions). Default 8. */
	concurrency?: number;
	/** Retry policy, or false for none. Default: 4 attempts, 250 ms full-jitter exponential backoff, 8 s cap. */
	retry?: RetryOptions | false;
	/** Per-attempt deadline in milliseconds. Default 30 s. */
	timeoutMs?: number;
	/**
	 * Deadline of one whole call in milliseconds, retries and backoff included; a call past it
	 * fails with TransportError reason DEADLINE. Default 90 s; false for none.
	 */
	deadlineMs?: number | false;
	/**
	 * How the person who reads a deadline error gives calls more time, as its hint says it. Default
	 * "raise the client's deadlineMs option (now 90 s)"; false where they cannot (the hint then
	 * only says to ask for less or try again).
	 */
	deadlineSetting?: string | false;
	logger?: Logger;
	/** Cancels every request and wait of this client. */
	signal?: AbortSignal;
	/** Token cache; default the process-wide one (clients with the same credentials share a token). */
	tokenCache?: TokenCache;
	/** The platform's "now" for history checks (tests with a simulated clock). Default Date.now. */
	now?: () => number;
}

/** The client's address and limits, checked, with their defaults. */
export interface ClientLimits {
	baseUrl: string;
	concurrency: number;
	timeoutMs: number;
	deadlineMs: number | undefined;
	/** How a person gives calls more time (undefined: they cannot, or there is no deadline). */
	deadlineSetting: string | undefined;
	retry: RetryPolicy;
}

/** Checks the options a client cannot start without; throws a ValidationError naming the field. */
export function clientLimits(options: ClientOptions): ClientLimits {
	const baseUrl = checkUrl('baseUrl', options.baseUrl);
	const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
	if (!Number.isInteger(concurrency) || concurrency < 1)
		throw new ValidationError({
			field: 'concurrency',
			value: options.concurrency,
			rule: 'must be a positive integer',
		});
	const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	if (!(typeof timeoutMs === 'number' && timeoutMs > 0))
		throw new ValidationError({
			field: 'timeoutMs',
			value: options.timeoutMs,
			rule: 'must be a positive number of milliseconds',
		});
	const deadlineMs =
		options.deadlineMs === false
			? undefined
			: (options.deadlineMs ?? Math.max(DEFAULT_DEADLINE_MS, timeoutMs));
	if (deadlineMs !== undefined && !(typeof deadlineMs === 'number' && deadlineMs > 0)) {
		throw new ValidationError({
			field: 'deadlineMs',
			value: options.deadlineMs,
			rule: 'must be a positive number of milliseconds, or false for none',
		});
	}
	const retry = retryPolicy(options.retry);
	const deadlineSetting =
		options.deadlineSetting === false || deadlineMs === undefined
			? undefined
			: (options.deadlineSetting ??
				`raise the client's deadlineMs option (now ${formatDuration(deadlineMs)})`);
	return { baseUrl, concurrency, timeoutMs, deadlineMs, deadlineSetting, retry };
}

export function checkUrl(field: string, value: unknown): string {
	let url: URL | undefined;
	try {
		url = typeof value === 'string' ? new URL(value) : undefined;
	} catch {
		url = undefined;
	}
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
		throw new ValidationError({
			field,
			value,
			rule: 'must be an absolute http(s) URL such as https://api.example.com',
		});
	}
	return (value as string).replace(/\/+$/, '');
}
