// The fast path that reads answers (parsePayload) against zod itself: for every response schema
// and every payload the simulator sends, and for variants of them (other casings, other key
// order, unknown keys, missing fields, numerals as text, wrong types), both give the same
// result: the same success, the same output with the same key order, the same issues.
import type { z } from 'zod/v4';
import { schemas, type TransportResponse } from '../../shared';
import { fastOf, parsePayload } from '../../shared/schemas/model';
import { createUndiciTransport } from '../../shared/runtime/node';
import { startEuHarness, type Harness } from './harness';

const bodies: unknown[] = [];
let h: Harness;

beforeAll(async () => {
	const undici = createUndiciTransport();
	const recording = {
		async request(request: Parameters<typeof undici.request>[0]): Promise<TransportResponse> {
			const response = await undici.request(request);
			if (!request.url.includes('oauth2'))
				bodies.push((JSON.parse(response.body.toString('utf8')) as { payload: unknown }).payload);
			return response;
		},
		close: async () => await undici.close?.(),
	};
	({ h } = await startEuHarness());
	const client = h.client({ transport: recording });
	const orgId = h.credentials().orgId;
	const now = h.sim.clock.now();
	const mine = h.sim.fleet.assets().filter((a) => a.orgId === orgId);
	const drive =
		mine.find((a) => a.assetType === 'Drive' && a.level === 'Premium' && a.cbmCapable) ??
		mine.find((a) => a.assetType === 'Drive')!;
	await client.organization.get();
	await client.organization.getNodes();
	await client.organization.listAssets({ orgId });
	await client.organization.getAssetStatistics({ orgId });
	await client.assets.get({ id: drive.id });
	await client.assets.listSubscriptions({ assetId: drive.id });
	await client.assetData.listEvents({
		assetId: drive.id,
		startTime: new Date(now - 7 * 86_400_000),
		endTime: new Date(now),
	});
	const config = await client.assetData.getTrendSignalConfig({ assetId: drive.id });
	const codes = [...config.trends, ...config.signals].slice(0, 3).map((p) => p.code);
	await client.assetData.queryTrendSignalData({
		assetId: drive.id,
		parameters: codes,
		startTime: new Date(now - 86_400_000),
		endTime: new Date(now),
	});
	await client.assetData.getConditions({ assetId: drive.id });
	await client.assetData.getCbm({ assetId: drive.id }).catch(() => undefined);
	await client.assetData.listReports({ assetId: drive.id });
	await client.assetData.listParameterBackups({
		assetId: drive.id,
		startTime: new Date(now - 30 * 86_400_000),
		endTime: new Date(now),
	});
	await client.dataSubscription.getUsers();
	await recording.close();
});

afterAll(async () => await h.close());

const SCHEMAS: Array<[string, z.ZodType]> = Object.entries(schemas)
	.filter(([, value]) => typeof value === 'object' && value !== null && '_zod' in value)
	.map(([name, value]) => [name, value as unknown as z.ZodType]);

/** Variants of a payload that the fast path must read exactly as zod does, or leave to zod. */
function variants(payload: unknown): unknown[] {
	const out: unknown[] = [payload];
	const objects: Array<Record<string, unknown>> = [];
	const walk = (value: unknown): void => {
		if (Array.isArray(value)) value.forEach(walk);
		else if (value !== null && typeof value === 'object') {
			objects.push(value as Record<string, unknown>);
			Object.values(value).forEach(walk);
		}
	};
	walk(payload);
	const first = objects[0];
	if (!first) return out;
	const change = (edit: (o: Record<string, unknown>) => Record<string, unknown>): unknown => {
		const copy = structuredClone(payload);
		let done = false;
		const visit = (value: unknown, replace: (v: unknown) => void): void => {
			if (done) return;
			if (Array.isArray(value)) value.forEach((v, i) => visit(v, (n) => (value[i] = n)));
			else if (value !== null && typeof value === 'object') {
				done = true;
				replace(edit(value as Record<string, unknown>));
			}
		};
		let root: unknown = copy;
		visit(copy, (n) => (root = n));
		return root;
	};
	const entries = Object.entries(first);
	const pascal = (k: string) => k.charAt(0).toUpperCase() + k.slice(1);
	out.push(change((o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [pascal(k), v]))));
	out.push(change((o) => Object.fromEntries(Object.entries(o).reverse())));
	out.push(change((o) => ({ ...o, addedLater: { nested: true } })));
	for (const [key, value] of entries) {
		out.push(change((o) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key))));
		out.push(change((o) => ({ ...o, [key]: null })));
		out.push(
			change((o) => ({
				...o,
				[key]: typeof value === 'number' ? String(value) : typeof value === 'string' ? 12 : 'text',
			})),
		);
		out.push(change((o) => ({ ...o, [key]: typeof value === 'number' ? 1.5 : [] })));
	}
	out.push(change((o) => ({ ...o, [entries[0][0]]: Number.POSITIVE_INFINITY })));
	return out;
}

test('the simulator answered every endpoint read', () => {
	expect(bodies.length).toBeGreaterThanOrEqual(14);
});

test('every response schema but the envelope has a fast reader', () => {
	const without = SCHEMAS.filter(([, schema]) => !fastOf(schema)).map(([name]) => name);
	expect(without.sort()).toEqual(['DataSubscriptionUser', 'Empty', 'Envelope']);
});

test('for every schema and every payload variant, the fast path gives what zod gives', () => {
	let compared = 0;
	let fastHits = 0;
	for (const body of bodies) {
		for (const payload of variants(body)) {
			for (const [name, schema] of SCHEMAS) {
				const slow = schema.safeParse(structuredClone(payload));
				const fast = parsePayload(schema, structuredClone(payload));
				const context = `${name} on ${JSON.stringify(payload).slice(0, 200)}`;
				expect({ context, success: fast.success }).toEqual({ context, success: slow.success });
				if (slow.success) {
					// Same values and the same key order (what n8n shows).
					expect({ context, json: JSON.stringify(fast.data) }).toEqual({
						context,
						json: JSON.stringify(slow.data),
					});
					if (fastOf(schema)) fastHits++;
				} else {
					expect(fast.error?.issues).toEqual(slow.error.issues);
				}
				compared++;
			}
		}
	}
	expect(compared).toBeGreaterThan(10_000);
	expect(fastHits).toBeGreaterThan(100);
});

test('the fast path leaves the input as it was and shares no object with it', () => {
	const detail = bodies.find(
		(b) => typeof b === 'object' && b !== null && 'expertService' in b,
	) as Record<string, unknown>;
	const before = JSON.stringify(detail);
	const read = parsePayload(schemas.AssetDetail, detail);
	expect(read.success).toBe(true);
	expect(JSON.stringify(detail)).toBe(before);
	expect((read.data as Record<string, unknown>).expertService).not.toBe(detail.expertService);
	expect(read.data).not.toBe(detail);
});
