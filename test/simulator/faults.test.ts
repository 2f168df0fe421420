/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import {
	callApi,
	expectSuccess,
	type Json,
	requestToken,
	startHarness,
	tokenForm,
	type Harness,
} from './harness';

let h: Harness;
let eu: number;
let token: string;

beforeAll(async () => {
	h = await startHarness();
	eu = h.orgOfType('EU');
	token = await h.token(eu);
});
afterAll(() => h.close());
afterEach(() => h.sim.faults.clear());

const raw = (path: string): Promise<Response> =>
	fetch(`${h.sim.info.baseUrl}/devcenter/extapi/v1${path}`, {
		headers: { authorization: `Bearer ${token}` },
	});

describe('fault injection', () => {
	test('latencyMs delays the answer', async () => {
		h.sim.faults.set({ latencyMs: 300 });
		const started = Date.now();
		expectSuccess(await callApi(h.sim, token, 'GET', '/organization'));
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
	});

	test('errorRate 1 answers a 5xx HTML page and the request is not handled', async () => {
		h.sim.faults.set({ errorRate: 1, errorStatus: 502 });
		const res = await raw('/organization');
		expect(res.status).toBe(502);
		expect(res.headers.get('content-type')).toMatch(/^text\/html/);
		expect(await res.text()).toMatch(/502 Bad Gateway/);
	});

	test('rateLimitRate answers 429 with Retry-After', async () => {
		h.sim.faults.set({ rateLimitRate: 1, retryAfterSec: 7 });
		const res = await raw('/organization');
		expect(res.status).toBe(429);
		expect(res.headers.get('retry-after')).toBe('7');
	});

	test('resetRate resets the connection without an answer', async () => {
		h.sim.faults.set({ resetRate: 1 });
		await expect(raw('/organization')).rejects.toThrow(/fetch failed/);
		expect(h.sim.requests.entries.at(-1)).toMatchObject({
			path: '/devcenter/extapi/v1/organization',
			status: 0,
		});
	});

	test('malformed html answers an HTML page with status 200', async () => {
		h.sim.faults.set({ malformedRate: 1, malformedKind: 'html' });
		const res = await raw('/organization');
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^text\/html/);
		expect(await res.text()).toMatch(/^<html>/);
	});

	test('malformed truncated answers JSON cut in the middle', async () => {
		h.sim.faults.set({ malformedRate: 1, malformedKind: 'truncated' });
		const res = await raw('/organization');
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		const text = await res.text();
		expect(text.startsWith('{"payload"')).toBe(true);
		expect(() => JSON.parse(text)).toThrow();
	});

	test('malformed extra-fields adds unknown fields to the envelope and payload', async () => {
		h.sim.faults.set({ malformedRate: 1, malformedKind: 'extra-fields' });
		const body = (await (await raw('/organization')).json()) as Json;
		expect(body).toMatchObject({ success: true, code: 100200, traceId: expect.any(String) });
		expect(body.payload.unknownFieldAddedLater).toBeDefined();
	});

	test('paths scope a rule: only matching paths fail', async () => {
		h.sim.faults.set({ errorRate: 1, paths: ['/organization/nodes'] });
		expect((await raw('/organization/nodes')).status).toBe(503);
		expect((await raw('/organization')).status).toBe(200);
	});

	test('times: the rule fails that many requests, then is removed', async () => {
		h.sim.faults.set({ errorRate: 1, times: 2 });
		expect((await raw('/organization')).status).toBe(503);
		expect((await raw('/organization')).status).toBe(503);
		expect((await raw('/organization')).status).toBe(200);
		expect(h.sim.faults.list()).toEqual([]);
	});

	test('faults apply to the token endpoint too', async () => {
		h.sim.faults.set({ errorRate: 1, paths: ['/oauth2/'] });
		expect(
			(await requestToken(h.sim, tokenForm(h.sim, eu)).catch(() => ({ status: 503 }))).status,
		).toBe(503);
	});

	test('a share below 1 fails about that share, deterministically per seed', async () => {
		h.sim.faults.set({ errorRate: 0.5 });
		const statuses: number[] = [];
		for (let i = 0; i < 40; i++) statuses.push((await raw('/organization')).status);
		const failed = statuses.filter((s) => s === 503).length;
		expect(failed).toBeGreaterThan(8);
		expect(failed).toBeLessThan(32);
	});

	test('invalid rules are refused with a clear error', () => {
		expect(() => h.sim.faults.set({ errorRate: 2 })).toThrow(/errorRate must be between 0 and 1/);
		expect(() => h.sim.faults.set({ errorStatus: 418 })).toThrow(/errorStatus/);
	});
});

describe('request log', () => {
	test('records method, path, query, status, endpoint and caller; clear() empties it', async () => {
		h.sim.requests.clear();
		expect(h.sim.requests.count).toBe(0);
		await callApi(
			h.sim,
			token,
			'GET',
			'/assetdata/100001/event?startTime=2026-01-01T00:00:00Z&endTime=2026-01-02T00:00:00Z',
		);
		expect(h.sim.requests.entries).toEqual([
			expect.objectContaining({
				method: 'GET',
				path: '/devcenter/extapi/v1/assetdata/100001/event',
				query: { startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-02T00:00:00Z' },
				endpoint: 'E14',
				orgId: eu,
				status: expect.any(Number),
			}),
		]);
		expect(h.sim.requests.api('E14')).toHaveLength(1);
		h.sim.requests.clear();
		expect(h.sim.requests.api()).toEqual([]);
	});

	test('counts the requests in flight and the most at once since clear(), resets included', async () => {
		h.sim.faults.set({ paths: ['/organization'], latencyMs: 300 });
		h.sim.requests.clear();
		const calls = Array.from({ length: 5 }, () => callApi(h.sim, token, 'GET', '/organization'));
		await new Promise((resolve) => setTimeout(resolve, 150));
		expect(h.sim.requests.inFlight).toBe(5);
		await Promise.all(calls);
		expect(h.sim.requests.inFlight).toBe(0);
		expect(h.sim.requests.peakInFlight).toBe(5);
		h.sim.faults.set({ paths: ['/organization'], resetRate: 1 });
		await expect(raw('/organization')).rejects.toThrow();
		expect(h.sim.requests.inFlight).toBe(0);
		h.sim.faults.clear();
		h.sim.requests.clear();
		expect(h.sim.requests.peakInFlight).toBe(0);
		await callApi(h.sim, token, 'GET', '/organization');
		expect(h.sim.requests.peakInFlight).toBe(1);
	});

	test('unknown paths get 404 in the envelope, wrong methods 405 with Allow', async () => {
		const missing = await callApi(h.sim, token, 'GET', '/organization/1/nothing');
		expect(missing.status).toBe(404);
		expect(missing.body).toMatchObject({ success: false, code: 100400 });
		const wrong = await callApi(h.sim, token, 'DELETE', '/organization/nodes');
		expect(wrong.status).toBe(405);
		expect(wrong.headers.get('allow')).toBe('GET');
	});

	test('an invalid JSON body gives 100400', async () => {
		const res = await fetch(`${h.sim.info.baseUrl}/devcenter/extapi/v1/organization/assetgroup`, {
			method: 'POST',
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
			body: '{"orgId": 11,',
		});
		expect(res.status).toBe(400);
		expect(((await res.json()) as { code: number }).code).toBe(100400);
	});
});
