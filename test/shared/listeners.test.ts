/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// client.ranges.* fetches many windows at once under one cancellation. Each request must get a
// signal of its own: listeners that transports (undici, n8n's axios) add to a signal shared by
// every window pile up into MaxListenersExceededWarning in n8n's and the bot's logs.
import { getEventListeners } from 'node:events';
import { liveObjects } from '../helpers/heap';
import { type Transport } from '../../shared';
import { createUndiciTransport } from '../../shared/runtime/node';
import { startHarness, type Harness } from './harness';

const DAY = 86_400_000;
let h: Harness;

beforeAll(async () => {
	h = await startHarness({ seed: 'listeners' });
});
afterAll(() => h.close());

test.each([
	['the default deadline', {}],
	['no deadline', { deadlineMs: false as const }],
])(
	'60 days of events and of series at the default concurrency, %s: no signal is shared by two requests in flight',
	async (_what, options) => {
		const inner = createUndiciTransport();
		const inFlight = new Map<AbortSignal, number>();
		let mostSharing = 0;
		let mostListeners = 0;
		const watching: Transport = {
			async request(request) {
				const { signal } = request;
				if (!signal) return await inner.request(request);
				inFlight.set(signal, (inFlight.get(signal) ?? 0) + 1);
				mostSharing = Math.max(mostSharing, inFlight.get(signal)!);
				try {
					const answer = inner.request(request);
					mostListeners = Math.max(mostListeners, getEventListeners(signal, 'abort').length);
					return await answer;
				} finally {
					inFlight.set(signal, inFlight.get(signal)! - 1);
				}
			},
		};
		const client = h.client({ transport: watching, ...options });
		const drive = h.sim.fleet
			.assets()
			.find(
				(a) =>
					a.assetType === 'Drive' && a.level === 'Premium' && a.orgId === h.credentials().orgId,
			)!;
		const now = h.sim.clock.now();
		const config = await client.assetData.getTrendSignalConfig({ assetId: drive.id });
		const codes = config.trends.slice(0, 2).map((c) => c.code);
		const range = {
			assetId: drive.id,
			startTime: new Date(now - 60 * DAY),
			endTime: new Date(now),
		};
		const [events, series] = await Promise.all([
			client.ranges.events(range),
			client.ranges.trendSignalData(
				{ ...range, parameters: codes },
				{ signal: new AbortController().signal },
			),
		]);
		await inner.close?.();
		expect(Array.isArray(events)).toBe(true);
		expect(series.paramDatas.length).toBe(codes.length);
		expect(events.every((e) => typeof e.id === 'number')).toBe(true);
		expect(mostSharing).toBe(1);
		expect(mostListeners).toBeLessThanOrEqual(2);
		// The file-level hook (test/helpers/no-process-warnings.ts) also fails on any process warning.
	},
);

test("a client's own signal gets one listener however many calls are in flight, and none is left after them", async () => {
	const controller = new AbortController();
	const client = h.client({ signal: controller.signal, concurrency: 16 });
	await client.accessToken();
	let most = 0;
	const calls = Array.from({ length: 40 }, async () => {
		const answer = client.organization.get();
		most = Math.max(most, getEventListeners(controller.signal, 'abort').length);
		return await answer;
	});
	await Promise.all(calls);
	expect(most).toBe(1);
	// Once no call follows it, the listener is gone: a composite signal (AbortSignal.any) with a
	// listener is kept alive by Node until it aborts.
	expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
	// Aborting later still ends calls started after the first ones finished.
	const late = client.organization.get().catch((e: unknown) => e);
	controller.abort();
	expect(await late).toMatchObject({ reason: 'ABORTED' });
});

test('finished range reads leave no signal alive: after a full garbage collection the count of AbortSignals is back where it was', async () => {
	const caller = AbortSignal.any([new AbortController().signal]);
	const client = h.client({ signal: caller });
	const drive = h.sim.fleet
		.assets()
		.find(
			(a) => a.assetType === 'Drive' && a.level === 'Premium' && a.orgId === h.credentials().orgId,
		)!;
	const now = h.sim.clock.now();
	const range = { assetId: drive.id, startTime: new Date(now - 60 * DAY), endTime: new Date(now) };
	await client.ranges.events(range);
	const before = await liveObjects('AbortSignal');
	const reads = 20;
	for (let i = 0; i < reads; i++)
		await client.ranges.events(range, { signal: AbortSignal.any([caller]) });
	const after = await liveObjects('AbortSignal');
	// Each read makes a signal per window and per call; kept, they were several per read.
	expect(after - before).toBeLessThan(reads);
	expect(getEventListeners(caller, 'abort')).toHaveLength(0);
});
