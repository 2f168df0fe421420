import { createHash } from 'node:crypto';
import { raceAbort } from '../timers/wait';
import type { AccessToken, ApiCredentials } from './token';

export interface TokenCacheOptions {
	/** Refresh this long before expiry. Default: a fifth of the lifetime, at most 5 minutes. */
	refreshAheadMs?: number;
	now?: () => number;
}

interface Entry {
	token?: AccessToken;
	inflight?: Promise<AccessToken>;
}

/**
 * Tokens per credential set. Concurrent callers share one fetch (single flight). A token near
 * expiry is still handed out while one background refresh runs; an expired one waits for it.
 */
export class TokenCache {
	private readonly entries = new Map<string, Entry>();
	private readonly now: () => number;

	constructor(private readonly options: TokenCacheOptions = {}) {
		this.now = options.now ?? Date.now;
	}

	/** The cached token when it is fresh (no refresh due), synchronously; undefined otherwise. */
	peek(credentials: ApiCredentials): string | undefined {
		const token = this.entries.get(credentialKey(credentials))?.token;
		return token && this.now() < token.expiresAt - this.refreshAhead(token)
			? token.accessToken
			: undefined;
	}

	async get(
		credentials: ApiCredentials,
		fetch: () => Promise<AccessToken>,
		signal?: AbortSignal,
	): Promise<string> {
		const key = credentialKey(credentials);
		const entry = this.entry(key);
		const token = entry.token;
		const now = this.now();
		if (token && now < token.expiresAt - this.refreshAhead(token)) return token.accessToken;
		const refresh = this.refresh(entry, fetch);
		if (token && now < token.expiresAt - 5_000) {
			// Still valid: hand it out and let the refresh finish in the background.
			refresh.catch(() => undefined);
			return token.accessToken;
		}
		return (await raceAbort(refresh, signal)).accessToken;
	}

	/** Forget `token` after the API refused it (a 401). A newer token fetched meanwhile is kept. */
	invalidate(credentials: ApiCredentials, token: string): void {
		const entry = this.entries.get(credentialKey(credentials));
		if (entry?.token?.accessToken === token) entry.token = undefined;
	}

	clear(): void {
		this.entries.clear();
	}

	private entry(key: string): Entry {
		let entry = this.entries.get(key);
		if (!entry) {
			entry = {};
			this.entries.set(key, entry);
		}
		return entry;
	}

	private refresh(entry: Entry, fetch: () => Promise<AccessToken>): Promise<AccessToken> {
		entry.inflight ??= fetch()
			.then((token) => {
				// Expiry on this cache's clock, from the lifetime the token endpoint gave.
				entry.token = { ...token, expiresAt: this.now() + token.expiresIn * 1000 };
				return entry.token;
			})
			.finally(() => {
				entry.inflight = undefined;
			});
		return entry.inflight;
	}

	private refreshAhead(token: AccessToken): number {
		if (this.options.refreshAheadMs !== undefined) return this.options.refreshAheadMs;
		return Math.min(5 * 60_000, (token.expiresIn * 1000) / 5);
	}
}

const keys = new WeakMap<ApiCredentials, string>();

/** Cache key of a credential set: a hash, so the secret is never kept as a map key in clear. */
export function credentialKey(credentials: ApiCredentials): string {
	let key = keys.get(credentials);
	if (key === undefined) {
		key = hashCredentials(credentials);
		keys.set(credentials, key);
	}
	return key;
}

function hashCredentials(credentials: ApiCredentials): string {
	return createHash('sha256')
		.update(
			JSON.stringify([
				credentials.authUrl.replace(/\/+$/, ''),
				credentials.tenantId,
				credentials.apiKey,
				credentials.apiScopeId,
				credentials.apiSecret,
			]),
		)
		.digest('base64url');
}

/** The process-wide cache: clients with the same credentials share their token. */
export const sharedTokenCache = new TokenCache();
