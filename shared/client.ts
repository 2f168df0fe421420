// createClient: the one entry point the n8n nodes and the Slack bot use (docs/architecture.md).
import { sharedTokenCache, TokenCache } from './auth/cache';
import { fetchAccessToken, type AccessToken, type ApiCredentials } from './auth/token';
import { Limiter } from './core/limiter';
import { safeLogger, type Logger } from './core/logger';
import { ApiCore } from './core/request';
import { backoffDelay, retryPolicy, type RetryOptions, type RetryPolicy } from './core/retry';
import { raceAbort, sleep } from './core/wait';
import { assetDataEndpoints } from './endpoints/assetData';
import { assetEndpoints } from './endpoints/assets';
import { EndpointContext } from './endpoints/context';
import { dataSubscriptionEndpoints } from './endpoints/dataSubscription';
import { organizationEndpoints } from './endpoints/organization';
import { subscriptionEndpoints } from './endpoints/subscription';
import { formatDuration, TransportError, UnexpectedResponseError, ValidationError } from './errors';
import { filesApi } from './files';
import { levelOfSubscriptions, rangesApi } from './ranges';
import { REDACTED, registerSecret } from './redact';
import type { Level } from './spec';
import type { Transport } from './transport/types';
import { createDefaultTransport } from './transport/default';

export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Total deadline of one call, retries and backoff included (assumption C12). */
export const DEFAULT_DEADLINE_MS = 90_000;
/** How long an asset's level read for a 102403 explanation (or `level: 'auto'`) is reused. */
const LEVEL_CACHE_MS = 5 * 60_000;
const LEVEL_CACHE_SIZE = 1000;

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

const CREDENTIAL_FIELDS = ['authUrl', 'tenantId', 'apiKey', 'apiSecret', 'apiScopeId'] as const;

function credentialsOf(options: ClientOptions): ApiCredentials {
	for (const field of CREDENTIAL_FIELDS) {
		const value = options[field];
		if (typeof value !== 'string' || value.trim() === '') {
			throw new ValidationError({
				field,
				value: field === 'apiSecret' && value ? REDACTED : value,
				rule: 'is required unless an authenticatedTransport is given',
			});
		}
	}
	registerSecret(options.apiSecret);
	return {
		authUrl: options.authUrl!.trim(),
		tenantId: options.tenantId!.trim(),
		apiKey: options.apiKey!.trim(),
		apiSecret: options.apiSecret!,
		apiScopeId: options.apiScopeId!.trim(),
	};
}

function checkUrl(field: string, value: unknown): string {
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

/** Fetch a token, retrying network failures and 5xx/429 answers (an AuthError is final). */
async function fetchWithRetry(
	credentials: ApiCredentials,
	transport: Transport,
	policy: RetryPolicy,
	timeoutMs: number,
	signal?: AbortSignal,
): Promise<AccessToken> {
	for (let attempt = 1; ; attempt++) {
		const outcome = await fetchAccessToken(credentials, { transport, timeoutMs, signal }).then(
			(token) => ({ token }),
			(error: unknown) => ({ error }),
		);
		if ('token' in outcome) return outcome.token;
		const { error } = outcome;
		const transient =
			(error instanceof TransportError && error.reason !== 'ABORTED') ||
			(error instanceof UnexpectedResponseError &&
				(error.httpStatus >= 500 || error.httpStatus === 429));
		if (!transient || attempt >= policy.maxAttempts || signal?.aborted) throw error;
		await sleep(backoffDelay(policy, attempt), signal);
	}
}

export function createClient(options: ClientOptions) {
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
	const ownTransport = options.transport
		? undefined
		: createDefaultTransport({
				connections: Math.max(concurrency, 4),
				headersTimeoutMs: timeoutMs,
				bodyTimeoutMs: timeoutMs,
			});
	const plainTransport = options.transport ?? ownTransport!;
	const logger = safeLogger(options.logger);

	let auth: ConstructorParameters<typeof ApiCore>[0]['auth'];
	if (!options.authenticatedTransport) {
		const credentials = credentialsOf(options);
		checkUrl('authUrl', credentials.authUrl);
		const cache = options.tokenCache ?? sharedTokenCache;
		auth = {
			credentials,
			cache,
			fetch: (signal) => {
				logger.debug('requesting an access token');
				return fetchWithRetry(credentials, plainTransport, retry, timeoutMs, signal);
			},
		};
	}

	const limiter = new Limiter(concurrency);
	const levels = new Map<number, { at: number; level: Promise<Level | undefined> }>();
	// One E9 call per asset and few minutes, shared by `level: 'auto'` and 102403 explanations.
	const levelOf = (assetId: number, signal?: AbortSignal): Promise<Level | undefined> => {
		const now = Date.now();
		const cached = levels.get(assetId);
		if (cached && now - cached.at < LEVEL_CACHE_MS) return raceAbort(cached.level, signal);
		if (levels.size >= LEVEL_CACHE_SIZE) levels.delete(levels.keys().next().value!);
		// Shared by every caller: no caller's signal ends it for the others (each leaves on its own
		// signal); the lookup itself is bounded by the client's deadline like every call.
		const level = assets.listSubscriptions({ assetId }).then(levelOfSubscriptions);
		level.catch(() => levels.delete(assetId));
		levels.set(assetId, { at: now, level });
		return raceAbort(level, signal);
	};
	const deadlineSetting =
		options.deadlineSetting === false || deadlineMs === undefined
			? undefined
			: (options.deadlineSetting ??
				`raise the client's deadlineMs option (now ${formatDuration(deadlineMs)})`);
	const common = {
		baseUrl,
		limiter,
		retry,
		timeoutMs,
		deadlineMs,
		deadlineSetting,
		logger,
		signal: options.signal,
	};
	const core = new ApiCore({
		...common,
		transport: options.authenticatedTransport ?? plainTransport,
		auth,
		levelOf,
	});
	// Temporary links must not carry the bearer token that an authenticated transport adds.
	const downloadCore = options.authenticatedTransport
		? new ApiCore({ ...common, transport: plainTransport })
		: core;
	const ctx = new EndpointContext(core);
	const assetData = assetDataEndpoints(ctx);
	const assets = assetEndpoints(ctx);

	return {
		organization: organizationEndpoints(ctx),
		subscription: subscriptionEndpoints(ctx),
		assets,
		assetData,
		dataSubscription: dataSubscriptionEndpoints(ctx),
		ranges: rangesApi(assetData, {
			concurrency,
			now: options.now ?? Date.now,
			levelOf: async (assetId, requestOptions) => await levelOf(assetId, requestOptions?.signal),
			logger,
			deadlineMs,
			deadlineSetting,
		}),
		files: filesApi(downloadCore),
		/** The bearer token the client would send now (fetched or cached); undefined with an authenticated transport. */
		async accessToken(signal?: AbortSignal): Promise<string | undefined> {
			return auth ? auth.cache.get(auth.credentials, () => auth.fetch(), signal) : undefined;
		},
		/** Close the connection pool the client created (a transport passed in is left open). */
		async close(): Promise<void> {
			await ownTransport?.close?.();
		},
	};
}

export type DriveMonitoringClient = ReturnType<typeof createClient>;
