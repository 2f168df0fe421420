/* eslint-disable @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-unused-vars -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The token flow: one function, a cache per credential set with single flight and refresh
// ahead of expiry, one re-authentication on a 401 (never a loop), and refusals that say which
// credential was wrong, without ever printing a secret.
import { createUndiciTransport } from '../../shared/runtime/node';
import {
	AuthError,
	DriveMonitoringApiError,
	fetchAccessToken,
	TokenCache,
	type Transport,
} from '../../shared';
import { startHarness, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
	h = await startHarness();
});

afterAll(async () => {
	await h.close();
});

beforeEach(() => {
	h.sim.faults.clear();
	h.sim.requests.clear();
});

const apiCalls = (path: string) => h.sim.requests.entries.filter((r) => r.path.endsWith(path));
const tokenRequests = () => h.sim.requests.entries.filter((r) => r.endpoint === 'token').length;

describe('token cache', () => {
	test('100 parallel calls on a cold cache make exactly one token request', async () => {
		const client = h.client({ concurrency: 16 });
		const results = await Promise.all(Array.from({ length: 100 }, () => client.organization.get()));
		expect(new Set(results.map((o) => o.id)).size).toBe(1);
		expect(tokenRequests()).toBe(1);
		expect(h.sim.requests.api('E1')).toHaveLength(100);
	});

	test('clients with the same credentials share one token cache; another credential set gets its own token', async () => {
		const cache = new TokenCache();
		const a = h.client({ tokenCache: cache });
		const b = h.client({ tokenCache: cache });
		const cp = h.client({ tokenCache: cache, orgType: 'CP' });
		await Promise.all([a.organization.get(), b.organization.get(), cp.organization.get()]);
		expect(tokenRequests()).toBe(2);
	});

	test('refreshes ahead of expiry: the old token is served while one refresh runs', async () => {
		let now = Date.now();
		const cache = new TokenCache({ now: () => now, refreshAheadMs: 60_000 });
		const client = h.client({ tokenCache: cache });
		const first = await client.accessToken();
		now += 3599_000 - 30_000; // inside the refresh window, still valid
		const second = await client.accessToken();
		expect(second).toBe(first);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(tokenRequests()).toBe(2);
		const third = await client.accessToken();
		expect(third).not.toBe(first);
		expect(tokenRequests()).toBe(2);
	});

	test('a token endpoint failing with a 5xx is asked again', async () => {
		h.sim.faults.set({ paths: ['/oauth2/'], errorRate: 1, times: 1 });
		const org = await h.client().organization.get();
		expect(org.id).toBe(h.credentials().orgId);
		expect(
			h.sim.requests.entries.filter((r) => r.path.endsWith('/token')).map((r) => r.status),
		).toEqual([503, 200]);
	});

	test('a 401 triggers one re-authentication and one retry', async () => {
		const client = h.client();
		await client.organization.get();
		expect(tokenRequests()).toBe(1);
		// Platform wall time jumps two hours: the cached token has expired there, not in the cache.
		h.sim.clock.advance(2 * 3600 * 1000);
		const org = await client.organization.get();
		expect(org.id).toBe(h.credentials().orgId);
		expect(tokenRequests()).toBe(2);
		expect(apiCalls('/organization').map((r) => r.status)).toEqual([200, 401, 200]);
	});

	test('a 401 that persists is reported after one retry, never a loop', async () => {
		const inner = createUndiciTransport();
		// A gateway that mangles the bearer token on its way to the API.
		const mangling: Transport = {
			request: (req) =>
				inner.request(
					req.url.includes('/oauth2/')
						? req
						: { ...req, headers: { ...req.headers, authorization: 'Bearer not.a.token' } },
				),
		};
		const client = h.client({ transport: mangling });
		const error = await client.organization.get().catch((e: unknown) => e);
		await inner.close?.();
		expect(error).toBeInstanceOf(DriveMonitoringApiError);
		expect(error).toMatchObject({ httpStatus: 401, code: 100401, endpoint: { id: 'E1' } });
		expect((error as Error).message).toMatch(
			/^The platform refused the access token\. It was refused even after a new token/,
		);
		expect(error).toMatchObject({ kind: 'authentication', name: 'AuthenticationError' });
		expect(apiCalls('/organization').map((r) => r.status)).toEqual([401, 401]);
		expect(tokenRequests()).toBe(2);
	});
});

describe('token endpoint refusals say which credential was refused', () => {
	const cases: Array<[string, Record<string, string>, AuthError['refused'], RegExp]> = [
		['tenant', { tenantId: 'no-such-tenant' }, 'tenant', /tenant id "no-such-tenant" was refused/],
		['API key', { apiKey: 'unknown-key' }, 'clientId', /API key \(client id\) is not known/],
		['API secret', { apiSecret: `wrong-${'value'}-123` }, 'clientSecret', /API secret was refused/],
		[
			'scope',
			{ apiScopeId: 'api://other' },
			'scope',
			/scope "api:\/\/other\/.default" was refused/,
		],
	];

	test.each(cases)('wrong %s', async (_what, override, refused, message) => {
		const { orgId: _orgId, baseUrl: _baseUrl, ...credentials } = h.credentials();
		const wrong = { ...credentials, ...override };
		const error = await fetchAccessToken(wrong as typeof credentials).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(AuthError);
		expect(error).toMatchObject({ refused });
		expect((error as Error).message).toMatch(message);
		const serialized = `${(error as Error).message} ${JSON.stringify(error)}`;
		expect(serialized).not.toContain(wrong.apiSecret);
		// The token server's own text (it echoes the API key, and carries trace and correlation ids)
		// stays out of the message; the details keep it scrubbed.
		const auth = error as AuthError;
		expect(auth.message).not.toMatch(/AADSTS|Trace ID|Correlation ID/);
		expect(auth.message).not.toContain(wrong.apiKey);
		expect(auth.kind).toBe('authentication');
		expect(auth.hint).toMatch(/^Check the .* in the Drive Monitoring API credentials\.$/);
		expect(auth.oauthDescription).toMatch(/^AADSTS\d+: /);
		expect(serialized).not.toContain(wrong.apiKey);
		expect(serialized).not.toMatch(/(Trace|Correlation) ID: [0-9a-f]{8}-/);
		// Through a client: the same error, no API request sent, and no retry of a refusal.
		h.sim.requests.clear();
		const viaClient = await h
			.client(override)
			.organization.get()
			.catch((e: unknown) => e);
		expect(viaClient).toBeInstanceOf(AuthError);
		expect(h.sim.requests.api()).toHaveLength(0);
		expect(tokenRequests()).toBe(1);
	});
});

test('an authenticated transport (as n8n adds the bearer itself) makes the core skip tokens', async () => {
	const { orgId, baseUrl: _b, ...credentials } = h.credentials();
	const token = await fetchAccessToken(credentials);
	const inner = createUndiciTransport();
	const authenticated: Transport = {
		request: (req) =>
			inner.request({
				...req,
				headers: { ...req.headers, authorization: `Bearer ${token.accessToken}` },
			}),
	};
	h.sim.requests.clear();
	const client = h.client({
		authenticatedTransport: authenticated,
		apiKey: undefined,
		apiSecret: undefined,
		authUrl: undefined,
		tenantId: undefined,
		apiScopeId: undefined,
	});
	const org = await client.organization.get();
	await inner.close?.();
	expect(org.id).toBe(orgId);
	expect(tokenRequests()).toBe(0);
	expect(await client.accessToken()).toBeUndefined();
});

test('no secret, token or password reaches a log line or an error', async () => {
	const lines: string[] = [];
	const logger = {
		debug: (m: string, meta?: unknown) => lines.push(m + JSON.stringify(meta ?? '')),
		info: (m: string, meta?: unknown) => lines.push(m + JSON.stringify(meta ?? '')),
		warn: (m: string, meta?: unknown) => lines.push(m + JSON.stringify(meta ?? '')),
		error: (m: string, meta?: unknown) => lines.push(m + JSON.stringify(meta ?? '')),
	};
	const client = h.client({ logger });
	const { apiSecret } = h.credentials();
	h.sim.faults.set([{ paths: ['/organization'], errorRate: 1, times: 1 }]);
	await client.organization.get();
	h.sim.clock.advance(2 * 3600 * 1000);
	await client.organization.get();
	for (const user of await client.dataSubscription.getUsers())
		await client.dataSubscription.deleteUser({ subCustomerId: user.id });
	const user = await client.dataSubscription.createUser();
	const errors: unknown[] = [];
	errors.push(await client.dataSubscription.createUser().catch((e: unknown) => e)); // one per organization
	errors.push(await client.assets.get({ id: 999_999 }).catch((e: unknown) => e));
	const token = await client.accessToken();
	const text = [
		...lines,
		...errors.map((e) => `${(e as Error).message} ${JSON.stringify(e)} ${(e as Error).stack}`),
	].join('\n');
	expect(lines.some((l) => /retrying/.test(l))).toBe(true);
	expect(lines.some((l) => /HTTP 401/.test(l))).toBe(true);
	expect(text).not.toContain(apiSecret);
	expect(text).not.toContain(token!);
	expect(text).not.toContain(user.password!);
	await client.dataSubscription.deleteUser({ subCustomerId: user.id });
});
