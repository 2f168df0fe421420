/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Retries (jittered backoff, Retry-After), what is never repeated (creates), bounded
// concurrency, cancellation, and clear errors for answers that are not the API's JSON.
import { createUndiciTransport } from '../../shared/runtime/node';
import {
	RateLimitedError,
	TransportError,
	UnexpectedResponseError,
	type DriveMonitoringClient,
	type Transport,
} from '../../shared';
import { startEuHarness, type Harness } from './harness';

let h: Harness;
let client: DriveMonitoringClient;
let orgId: number;

beforeAll(async () => {
	({ h, client, orgId } = await startEuHarness());
});

afterAll(async () => {
	await h.close();
});

beforeEach(() => {
	h.sim.faults.clear();
	h.sim.requests.clear();
});

const calls = (path: string, method = 'GET') =>
	h.sim.requests.entries.filter((r) => r.path.endsWith(path) && r.method === method);
const groupCount = () => h.sim.fleet.orgs().find((o) => o.id === orgId)!.groupIds.length;

describe('idempotent requests are retried', () => {
	test('5xx gateway pages, then success', async () => {
		h.sim.faults.set({ paths: ['/organization'], errorRate: 1, errorStatus: 502, times: 2 });
		const org = await client.organization.get();
		expect(org.id).toBe(orgId);
		expect(calls('/organization').map((r) => r.status)).toEqual([502, 502, 200]);
	});

	test('connection resets, then success', async () => {
		h.sim.faults.set({ paths: ['/organization'], resetRate: 1, times: 2 });
		const org = await client.organization.get();
		expect(org.id).toBe(orgId);
		expect(calls('/organization')).toHaveLength(3);
	});

	test('429 waits as long as Retry-After says', async () => {
		h.sim.faults.set({ paths: ['/organization'], rateLimitRate: 1, retryAfterSec: 1, times: 1 });
		const started = Date.now();
		await client.organization.get();
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
		expect(calls('/organization').map((r) => r.status)).toEqual([429, 200]);
	});

	test('429 that does not end: reported as rate limiting once the attempts are used up', async () => {
		h.sim.faults.set({ paths: ['/organization'], rateLimitRate: 1, retryAfterSec: 0 });
		const error = await client.organization.get().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(RateLimitedError);
		expect(error).toMatchObject({
			kind: 'rateLimited',
			hint: expect.stringMatching(/^Slow down: lower the concurrency/),
		});
		expect((error as Error).message).toMatch(
			/rate limited \(HTTP 429\) and the retries are used up/,
		);
		expect(calls('/organization')).toHaveLength(4);
	});

	test('PUT (E11) is retried too', async () => {
		const asset = h.sim.fleet.assets().find((a) => a.orgId === orgId && a.assetType === 'Drive')!;
		h.sim.faults.set({ paths: ['/assetmanagement/asset'], errorRate: 1, times: 1 });
		await client.assets.rename({ id: asset.id, name: asset.name });
		expect(calls('/assetmanagement/asset', 'PUT').map((r) => r.status)).toEqual([503, 200]);
	});

	test('gives up after the attempt budget with the last answer, status and excerpt', async () => {
		h.sim.faults.set({ paths: ['/organization'], errorRate: 1, errorStatus: 504 });
		const error = await client.organization.get().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(UnexpectedResponseError);
		expect(error).toMatchObject({
			httpStatus: 504,
			endpoint: { id: 'E1' },
			kind: 'unavailable',
			hint: expect.stringMatching(/Try again in a few minutes/),
		});
		expect((error as Error).message).toMatch(
			/^The platform sent an unexpected answer \(HTTP 504\): an HTML page .*504 Gateway Timeout/,
		);
		expect(calls('/organization')).toHaveLength(4);
	});

	test('a DELETE whose answer was lost, repeated, and now "does not exist": the deletion happened', async () => {
		const inner = createUndiciTransport();
		let lose = 1;
		const losing: Transport = {
			async request(req) {
				const res = await inner.request(req);
				if (req.method === 'DELETE' && lose-- > 0)
					throw new TransportError({
						reason: 'ECONNRESET',
						detail: 'the answer was lost on the way back',
					});
				return res;
			},
		};
		const c = h.client({ transport: losing });
		for (const user of await c.dataSubscription.getUsers())
			await c.dataSubscription.deleteUser({ subCustomerId: user.id });
		const user = await c.dataSubscription.createUser();
		lose = 1;
		await expect(c.dataSubscription.deleteUser({ subCustomerId: user.id })).resolves.toEqual({});
		expect(calls(`/subcustomer/${user.id}`, 'DELETE').map((r) => r.status)).toEqual([200, 400]);
		expect(await c.dataSubscription.getUsers()).toEqual([]);
		await inner.close?.();
	});
});

describe('creates are not repeated blindly', () => {
	test('a 5xx on E5 is reported, not retried, and creates nothing twice', async () => {
		const before = groupCount();
		h.sim.faults.set({ paths: ['/organization/assetgroup'], errorRate: 1, times: 1 });
		const error = await client.organization
			.createAssetGroup({ orgId, name: 'Retry probe' })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(UnexpectedResponseError);
		expect((error as UnexpectedResponseError).hint).toMatch(
			/may have carried it out before failing, so it was not repeated: read the organization tree and look for the asset group/,
		);
		expect(calls('/organization/assetgroup', 'POST')).toHaveLength(1);
		expect(groupCount()).toBe(before);
	});

	test('a reset on E5 after sending is reported, not retried', async () => {
		h.sim.faults.set({ paths: ['/organization/assetgroup'], resetRate: 1, times: 1 });
		const error = await client.organization
			.createAssetGroup({ orgId, name: 'Reset probe' })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(TransportError);
		expect(calls('/organization/assetgroup', 'POST')).toHaveLength(1);
		// From the client's side a reset after sending cannot tell whether the platform handled it.
		expect(error).toMatchObject({
			reason: 'ECONNRESET',
			mayHaveSucceeded: true,
			kind: 'unavailable',
		});
		expect((error as TransportError).hint).toBe(
			'The platform may have carried it out before the answer was lost, so it was not repeated: read the organization tree and look for the asset group before creating it again.',
		);
		expect((error as Error).message).not.toMatch(/\bE5\b/);
	});

	test('a 429 on E5 was refused, not processed: retried once, exactly one group created', async () => {
		const before = groupCount();
		h.sim.faults.set({
			paths: ['/organization/assetgroup'],
			rateLimitRate: 1,
			retryAfterSec: 0,
			times: 1,
		});
		const group = await client.organization.createAssetGroup({ orgId, name: 'Throttled probe' });
		expect(group.name).toBe('Throttled probe');
		expect(calls('/organization/assetgroup', 'POST').map((r) => r.status)).toEqual([429, 200]);
		expect(groupCount()).toBe(before + 1);
	});

	test('a refused connection (nothing sent) is retried even for a create', async () => {
		let refusals = 1;
		const inner = createUndiciTransport();
		const flaky: Transport = {
			request: (req) =>
				req.method === 'POST' && !req.url.includes('oauth2') && refusals-- > 0
					? inner.request({ ...req, url: 'http://127.0.0.1:1/' })
					: inner.request(req),
		};
		const c = h.client({ transport: flaky });
		const group = await c.organization.createAssetGroup({ orgId, name: 'After refusal' });
		await inner.close?.();
		expect(group.name).toBe('After refusal');
		expect(calls('/organization/assetgroup', 'POST')).toHaveLength(1);
	});
});

describe('answers that are not the API JSON', () => {
	test.each([
		['html', /an HTML page instead of JSON .*Request blocked/],
		['truncated', /truncated or invalid JSON/],
	] as const)('%s body', async (kind, message) => {
		h.sim.faults.set({
			paths: ['/organization/nodes'],
			malformedRate: 1,
			malformedKind: kind,
			times: 1,
		});
		const error = await client.organization.getNodes().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(UnexpectedResponseError);
		expect(error).toMatchObject({ httpStatus: 200, endpoint: { id: 'E2' } });
		expect((error as UnexpectedResponseError).message).toMatch(message);
		expect((error as UnexpectedResponseError).excerpt.length).toBeLessThanOrEqual(203);
	});

	test('empty body', async () => {
		const inner = createUndiciTransport();
		const emptying: Transport = {
			async request(req) {
				const res = await inner.request(req);
				return req.url.endsWith('/organization') ? { ...res, body: Buffer.alloc(0) } : res;
			},
		};
		const error = await h
			.client({ transport: emptying })
			.organization.get()
			.catch((e: unknown) => e);
		await inner.close?.();
		expect(error).toBeInstanceOf(UnexpectedResponseError);
		expect((error as Error).message).toMatch(
			/^The platform sent an unexpected answer \(HTTP 200\): empty body/,
		);
	});

	test('the content type decides only what a non-envelope is: an envelope labelled text/html is read, a broken JSON labelled so is named an HTML page', async () => {
		const inner = createUndiciTransport();
		let breakIt = false;
		const relabelling: Transport = {
			async request(req) {
				const res = await inner.request(req);
				if (!req.url.endsWith('/organization')) return res;
				return {
					status: res.status,
					headers: { ...res.headers, 'content-type': 'text/html' },
					body: breakIt ? res.body.subarray(0, 10) : res.body,
				};
			},
		};
		const relabelled = h.client({ transport: relabelling });
		expect(await relabelled.organization.get()).toMatchObject({ id: orgId });
		breakIt = true;
		const error = await relabelled.organization.get().catch((e: unknown) => e);
		await inner.close?.();
		expect(error).toBeInstanceOf(UnexpectedResponseError);
		expect((error as Error).message).toMatch(/an HTML page instead of JSON/);
	});

	test('a base address that is not the API: the plain-text 404 is named, with a hint', async () => {
		const error = await h
			.client({ baseUrl: `${h.sim.info.baseUrl}/wrong` })
			.organization.get()
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(UnexpectedResponseError);
		expect((error as Error).message).toMatch(
			/HTTP 404\): a text\/plain answer instead of the JSON envelope; check that baseUrl is the platform address.*Not found/,
		);
	});

	test('unknown fields are kept', async () => {
		h.sim.faults.set({
			paths: ['/organization'],
			malformedRate: 1,
			malformedKind: 'extra-fields',
			times: 1,
		});
		const org = await client.organization.get();
		expect(org).toMatchObject({ id: orgId, unknownFieldAddedLater: 'ignored by clients' });
	});

	test('a payload that does not fit names the endpoint and the field', async () => {
		const inner = createUndiciTransport();
		const bending: Transport = {
			async request(req) {
				const res = await inner.request(req);
				if (!req.url.endsWith('/organization')) return res;
				const json = JSON.parse(res.body.toString()) as { payload: Record<string, unknown> };
				json.payload.id = 'eleven';
				return { ...res, body: Buffer.from(JSON.stringify(json)) };
			},
		};
		const error = await h
			.client({ transport: bending })
			.organization.get()
			.catch((e: unknown) => e);
		await inner.close?.();
		expect(error).toBeInstanceOf(UnexpectedResponseError);
		expect((error as Error).message).toMatch(
			/^The platform sent an unexpected answer \(HTTP 200\): payload field payload\.id does not fit the spec: expected an integer$/,
		);
	});
});

describe('bounded concurrency and cancellation', () => {
	test('never more requests in flight than the limit', async () => {
		const inner = createUndiciTransport();
		let inFlight = 0;
		let peak = 0;
		const counting: Transport = {
			async request(req) {
				peak = Math.max(peak, ++inFlight);
				try {
					return await inner.request(req);
				} finally {
					inFlight--;
				}
			},
		};
		h.sim.faults.set({ paths: ['/organization'], latencyMs: 20 });
		const c = h.client({ transport: counting, concurrency: 3 });
		await Promise.all(Array.from({ length: 12 }, () => c.organization.get()));
		await inner.close?.();
		expect(peak).toBe(3);
	});

	test('an abort takes a call waiting for a free slot out of the queue, unsent', async () => {
		h.sim.faults.set({ paths: ['/organization'], latencyMs: 300 });
		const c = h.client({ concurrency: 1 });
		await c.accessToken();
		h.sim.requests.clear();
		const first = c.organization.get();
		const controller = new AbortController();
		const queued = c.organization.get({ signal: controller.signal }).catch((e: unknown) => e);
		controller.abort();
		expect(await queued).toMatchObject({ reason: 'ABORTED' });
		await first;
		expect(calls('/organization')).toHaveLength(1);
	});

	test('an abort ends a backoff wait at once', async () => {
		h.sim.faults.set({ paths: ['/organization'], errorRate: 1 });
		const c = h.client({ retry: { baseDelayMs: 10_000, maxDelayMs: 10_000 } });
		const controller = new AbortController();
		const started = Date.now();
		setTimeout(() => controller.abort(), 100);
		const error = await c.organization.get({ signal: controller.signal }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(TransportError);
		expect(error).toMatchObject({ reason: 'ABORTED' });
		expect(Date.now() - started).toBeLessThan(5_000);
	});

	test("the client's own signal cancels every call in flight and every later one", async () => {
		h.sim.faults.set({ paths: ['/organization'], latencyMs: 1_000 });
		const controller = new AbortController();
		const c = h.client({ signal: controller.signal });
		await c.accessToken();
		const calls = [c.organization.get(), c.organization.getNodes()].map((p) =>
			p.catch((e: unknown) => e),
		);
		setTimeout(() => controller.abort(), 50);
		expect(await Promise.all(calls)).toEqual([
			expect.objectContaining({ reason: 'ABORTED' }),
			expect.objectContaining({ reason: 'ABORTED' }),
		]);
		expect(await c.organization.get().catch((e: unknown) => e)).toMatchObject({
			reason: 'ABORTED',
		});
	});

	test('a per-attempt deadline turns a stalled answer into a TIMEOUT', async () => {
		h.sim.faults.set({ paths: ['/organization'], latencyMs: 2_000 });
		const c = h.client({ timeoutMs: 100, retry: false });
		const error = await c.organization.get().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(TransportError);
		expect(error).toMatchObject({ reason: 'TIMEOUT', endpoint: { id: 'E1' } });
	});

	test('the total deadline ends a call whose attempts keep stalling, retries included', async () => {
		h.sim.faults.set({ paths: ['/organization'], latencyMs: 5_000 });
		const c = h.client({
			timeoutMs: 200,
			deadlineMs: 500,
			retry: { maxAttempts: 10, baseDelayMs: 1, maxDelayMs: 1 },
		});
		await c.accessToken();
		h.sim.requests.clear();
		const error = await c.organization.get().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(TransportError);
		expect(error).toMatchObject({
			reason: 'DEADLINE',
			endpoint: { id: 'E1' },
			kind: 'unavailable',
		});
		// Which operation, after how long, and the option that gives it more time.
		expect((error as Error).message).toBe(
			'Get own organization did not finish within 0.5 s: the Drive Monitoring platform did not answer in time, retries included.',
		);
		expect((error as TransportError).hint).toBe(
			"Try again in a few minutes; if the platform is often this slow, allow more time: raise the client's deadlineMs option (now 0.5 s).",
		);
		// Ten attempts of 200 ms would be 2 s: the deadline stopped them after a few.
		expect(calls('/organization').length).toBeLessThan(10);
	});

	test('deadlineMs must be positive (or false)', () => {
		expect(() => h.client({ deadlineMs: 0 })).toThrow(
			/Invalid deadlineMs: 0; must be a positive number of milliseconds/,
		);
	});
});
