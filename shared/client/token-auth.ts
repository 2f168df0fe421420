import { sharedTokenCache } from '../auth/cache';
import { fetchAccessToken, type AccessToken, type ApiCredentials } from '../auth/token';
import type { SafeLogger } from '../core/logger';
import type { TokenAuth } from '../core/request';
import { backoffDelay, type RetryPolicy } from '../core/retry';
import { sleep } from '../timers/wait';
import { TransportError, UnexpectedResponseError, ValidationError } from '../errors';
import { REDACTED, registerSecret } from '../redact';
import type { Transport } from '../transport/types';
import { checkUrl, type ClientOptions } from './options';

/**
 * The client's own token handling: the credentials checked, and tokens fetched through the plain
 * transport and cached. Undefined with an authenticated transport, which needs none.
 */
export function tokenAuth(
	options: ClientOptions,
	transport: Transport,
	retry: RetryPolicy,
	timeoutMs: number,
	logger: SafeLogger,
): TokenAuth | undefined {
	if (options.authenticatedTransport) return undefined;
	const credentials = credentialsOf(options);
	checkUrl('authUrl', credentials.authUrl);
	return {
		credentials,
		cache: options.tokenCache ?? sharedTokenCache,
		fetch: (signal) => {
			logger.debug('requesting an access token');
			return fetchWithRetry(credentials, transport, retry, timeoutMs, signal);
		},
	};
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
