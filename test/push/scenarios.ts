/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Delivery checks shared by the simulator's brokers and the real ones (test/brokers): the same
// scenario, given a receiver factory and a way to publish event ids to the user's queue.
import { createHook } from 'node:async_hooks';
import type { PushMessage, PushReceiver } from '../../shared/push';
import { waitFor } from './platform';

export interface Target {
	/** A started-later receiver for the user, with test-fast reconnects. */
	receiver(extra?: object): PushReceiver;
	/** Puts AssetEvent messages with these event ids in the user's queue, in order. */
	publish(ids: number[]): Promise<void>;
}

const eventId = (m: PushMessage): number => (m.record as { id: number }).id;

/**
 * `concurrency` handlers finish in the same tick, the ones in `failing` by throwing: each failed
 * message must come back (rhea merged such settlements into one `accepted` range).
 */
export async function sameTickSettlement(
	target: Target,
	concurrency = 10,
	failing = [2, 3, 5, 8],
): Promise<Map<number, number>> {
	const attempts = new Map<number, number>();
	let gate!: () => void;
	const opened = new Promise<void>((resolve) => (gate = resolve));
	const receiver = target.receiver({ prefetch: concurrency });
	await receiver.start(async (message) => {
		const id = eventId(message);
		const attempt = (attempts.get(id) ?? 0) + 1;
		attempts.set(id, attempt);
		if ([...attempts.values()].length === concurrency && attempt === 1) gate();
		await opened;
		if (attempt === 1 && failing.includes(id)) throw new Error(`handler fails for ${id}`);
	});
	await target.publish(Array.from({ length: concurrency }, (_, i) => i + 1));
	await waitFor(
		() => failing.every((id) => (attempts.get(id) ?? 0) >= 2),
		'every failed message to come back',
		30_000,
	);
	await settleDown();
	expect(receiver.stats.failed).toBe(failing.length);
	expect(receiver.stats.delivered).toBe(concurrency);
	return attempts;
}

/**
 * A burst of `count` with 1% failing handlers (first attempt): every message handled, each
 * failure handled again, nothing lost.
 */
export async function burstWithFailures(
	target: Target,
	count: number,
	extra: object = {},
): Promise<{ receiver: PushReceiver; attempts: Map<number, number> }> {
	const attempts = new Map<number, number>();
	const receiver = target.receiver(extra);
	await receiver.start((message) => {
		const id = eventId(message);
		const attempt = (attempts.get(id) ?? 0) + 1;
		attempts.set(id, attempt);
		if (attempt === 1 && id % 100 === 0) throw new Error(`handler fails for ${id}`);
	});
	await target.publish(Array.from({ length: count }, (_, i) => i + 1));
	const failing = Array.from({ length: count / 100 }, (_, i) => (i + 1) * 100);
	await waitFor(
		() => receiver.stats.delivered >= count,
		`${count} messages handled (${receiver.stats.delivered} so far)`,
		240_000,
	);
	await settleDown();
	const missing = Array.from({ length: count }, (_, i) => i + 1).filter((id) => !attempts.has(id));
	expect(missing).toEqual([]);
	expect(failing.filter((id) => (attempts.get(id) ?? 0) < 2)).toEqual([]);
	expect(receiver.stats.failed).toBe(failing.length);
	expect(receiver.stats.delivered).toBe(count);
	return { receiver, attempts };
}

function settleDown(): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, 300));
}

/**
 * Runs a first connection that must fail and checks that no timer it made is still pending (one
 * left behind keeps the process, and jest, up for the whole connect timeout). Only meaningful with
 * the broker in another process: an in-process broker's own timers would be counted too. Jest's
 * own timers are not counted: run in band (`-i`), its status reporter ticks in this process.
 */
export async function failsLeavingNoTimer(start: () => Promise<unknown>): Promise<unknown> {
	const pending = new Set<number>();
	const hook = createHook({
		init: (id, type) => {
			if (type === 'Timeout' && !/[\\/]@jest[\\/]/.test(new Error().stack ?? '')) pending.add(id);
		},
		destroy: (id) => void pending.delete(id),
	});
	hook.enable();
	let error: unknown;
	try {
		error = await start().then(
			() => undefined,
			(e: unknown) => e,
		);
		for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
	} finally {
		hook.disable();
	}
	expect(error).toBeInstanceOf(Error);
	expect(pending.size).toBe(0);
	return error;
}

/** `prefetch` handlers may run at once, never more; nothing lost. Returns the peak seen. */
export async function handlesAtOnce(target: Target, prefetch: number, count = 60): Promise<number> {
	let running = 0;
	let peak = 0;
	const handled = new Set<number>();
	const receiver = target.receiver({ prefetch });
	await receiver.start(async (message) => {
		running++;
		peak = Math.max(peak, running);
		// Long enough for the next deliveries to arrive while this one runs.
		await new Promise((resolve) => setTimeout(resolve, 20));
		handled.add(eventId(message));
		running--;
	});
	await target.publish(Array.from({ length: count }, (_, i) => i + 1));
	await waitFor(() => handled.size >= count, `${count} messages handled`, 60_000);
	await settleDown();
	expect(handled.size).toBe(count);
	expect(peak).toBeLessThanOrEqual(prefetch);
	return peak;
}
