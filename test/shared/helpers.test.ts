/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Pure helpers of the core: file names of downloads, Retry-After, backoff, the concurrency limiter.
import { fileNameOf } from '../../shared';
import { backoffDelay, retryAfterMs, retryPolicy } from '../../shared/core/retry';
import { forEachLimit, Limiter } from '../../shared/core/limiter';

test('file names from Content-Disposition: filename* wins, quotes and escapes are read', () => {
	expect(fileNameOf('attachment; filename="report-7.pdf"')).toBe('report-7.pdf');
	expect(
		fileNameOf(
			'attachment; filename="fallback.pdf"; filename*=UTF-8\'\'Bericht%20K%C3%BChlung.pdf',
		),
	).toBe('Bericht Kühlung.pdf');
	expect(fileNameOf('attachment; filename=plain.csv')).toBe('plain.csv');
	expect(fileNameOf('attachment; filename="a \\"b\\".csv"')).toBe('a "b".csv');
	expect(fileNameOf(undefined)).toBeUndefined();
});

test('Retry-After in seconds or as an HTTP date', () => {
	const response = (value: string) => ({
		status: 429,
		headers: { 'retry-after': value },
		body: Buffer.alloc(0),
	});
	expect(retryAfterMs(response('2'))).toBe(2000);
	const now = Date.parse('2024-11-21T00:00:00Z');
	expect(retryAfterMs(response('Thu, 21 Nov 2024 00:00:05 GMT'), now)).toBe(5000);
	expect(retryAfterMs(response('soon'))).toBeUndefined();
	expect(retryAfterMs({ status: 503, headers: {}, body: Buffer.alloc(0) })).toBeUndefined();
});

test('full-jitter backoff stays within the exponential ceiling and the cap', () => {
	const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
	expect(backoffDelay(policy, 1, () => 1)).toBe(100);
	expect(backoffDelay(policy, 3, () => 1)).toBe(400);
	expect(backoffDelay(policy, 10, () => 1)).toBe(1000);
	expect(backoffDelay(policy, 3, () => 0)).toBe(0);
	expect(retryPolicy(false).maxAttempts).toBe(1);
});

test('the limiter runs at most its limit at once, in arrival order', async () => {
	const limiter = new Limiter(2);
	const started: number[] = [];
	let running = 0;
	let peak = 0;
	const task = (i: number) => () =>
		new Promise<number>((resolve) => {
			started.push(i);
			peak = Math.max(peak, ++running);
			setTimeout(() => {
				running--;
				resolve(i);
			}, 5);
		});
	const results = await Promise.all([0, 1, 2, 3, 4].map((i) => limiter.run(task(i))));
	expect(results).toEqual([0, 1, 2, 3, 4]);
	expect(started).toEqual([0, 1, 2, 3, 4]);
	expect(peak).toBe(2);
});

test('forEachLimit takes an item only when a worker is free: no task per item made up front', async () => {
	const taken: number[] = [];
	// An array that records which items were read, and when.
	const items = new Proxy([0, 1, 2, 3, 4, 5, 6], {
		get(target, key, receiver) {
			if (typeof key === 'string' && /^\d+$/.test(key)) taken.push(Number(key));
			return Reflect.get(target, key, receiver) as unknown;
		},
	});
	const seen: number[] = [];
	let running = 0;
	let peak = 0;
	let takenAtFirstTask = -1;
	await forEachLimit(items, 2, async (item) => {
		if (takenAtFirstTask < 0) takenAtFirstTask = taken.length;
		peak = Math.max(peak, ++running);
		await new Promise((resolve) => setTimeout(resolve, 2));
		seen.push(item);
		running--;
	});
	expect(takenAtFirstTask).toBe(1);
	expect(peak).toBe(2);
	expect(seen.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
	let calls = 0;
	await forEachLimit(
		[1, 2, 3, 4, 5],
		1,
		async () => void calls++,
		() => calls >= 3,
	);
	expect(calls).toBe(3);
});
