/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Settlement on the simulator's brokers: no failed message is ever acknowledged, whatever the
// concurrency; the simulator refuses an outcome a real broker refuses.
import { create_container, type EventContext } from 'rhea';
import { createPushReceiver, type PushReceiver } from '../../shared/push';
import { startTestPlatform, waitFor, type TestPlatform } from './platform';
import { burstWithFailures, handlesAtOnce, sameTickSettlement, type Target } from './scenarios';

let platform: TestPlatform;
const open: PushReceiver[] = [];

beforeAll(async () => {
	platform = await startTestPlatform();
});
afterEach(async () => {
	await Promise.all(open.splice(0).map((r) => r.close()));
});
afterAll(async () => {
	await platform.close();
});

function simulatorTarget(protocol: 'amqp' | 'mqtt', orgId: number): Target {
	const user = platform.createUser(orgId, [1]);
	return {
		receiver: (extra = {}) => {
			const receiver = createPushReceiver({
				url: platform.channel.urls[protocol],
				...user,
				reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
				...extra,
			});
			open.push(receiver);
			return receiver;
		},
		publish: async (ids) => {
			// In slices: aedes recurses once per message published in one tick.
			for (let i = 0; i < ids.length; i += 200) {
				for (const id of ids.slice(i, i + 200)) platform.raiseEvent(orgId, 900 + orgId, id);
				await new Promise((resolve) => setImmediate(resolve));
			}
		},
	};
}

test('AMQP: ten handlers finishing in one tick, four failing: each failure comes back', async () => {
	const attempts = await sameTickSettlement(simulatorTarget('amqp', 41));
	expect(
		[...attempts.entries()]
			.filter(([, n]) => n > 1)
			.map(([id]) => id)
			.sort((a, b) => a - b),
	).toEqual([2, 3, 5, 8]);
});

// MQTT has no negative acknowledgement: each failure costs a reconnect, and aedes's redelivery
// after one grows with what it still stores, so its burst is 1,000 (10 failures) to keep the run
// short; AMQP takes the full 10,000 (test/brokers runs 10,000 on Mosquitto and RabbitMQ).
test.each([
	['amqp', 10_000],
	['mqtt', 1_000],
] as const)(
	'%s: a burst of %d with 1%% failing handlers loses nothing',
	async (protocol, count) => {
		const { receiver } = await burstWithFailures(
			simulatorTarget(protocol, protocol === 'amqp' ? 42 : 43),
			count,
			{ prefetch: 10 },
		);
		// A failure is settled as `released`: the simulator, like RabbitMQ 3.x, ends the session for
		// `modified`, so an AMQP failure must never cost a reconnect.
		if (protocol === 'amqp') expect(receiver.stats.reconnects).toBe(0);
	},
	300_000,
);

test('the simulator ends the session for a `modified` outcome, as RabbitMQ 3.x does, and redelivers', async () => {
	const user = platform.createUser(44, [1]);
	platform.raiseEvent(44, 944, 1);
	const url = new URL(platform.channel.urls.amqp);
	const connection = create_container({ id: 'modified-probe' }).connect({
		host: url.hostname,
		port: Number(url.port),
		username: user.userName,
		password: user.password,
		reconnect: false,
	});
	const errors: unknown[] = [];
	let deliveries = 0;
	connection.on('session_error', (context: EventContext) => errors.push(context.session?.error));
	const receiver = connection.open_receiver({ source: { address: user.topic }, autoaccept: false });
	receiver.on('message', (context: EventContext) => {
		deliveries++;
		context.delivery!.modified({ delivery_failed: true });
	});
	await waitFor(() => errors.length === 1, 'the session error');
	connection.close();
	expect(errors[0]).toMatchObject({
		condition: 'amqp:not-implemented',
		description: expect.stringContaining('Unrecognised state modified'),
	});
	expect(deliveries).toBe(1);
	// The message was not lost: the next consumer receives it.
	const got: number[] = [];
	const next = createPushReceiver({ url: platform.channel.urls.amqp, ...user });
	open.push(next);
	await next.start((m) => void got.push((m.record as { id: number }).id));
	await waitFor(() => got.length === 1, 'the redelivery');
	expect(got).toEqual([1]);
});

test('a queue limit drops the oldest messages beyond it (P5)', async () => {
	const limited = await startTestPlatform({ queueLimit: 5 });
	try {
		const user = limited.createUser(45, [1]);
		for (let id = 1; id <= 8; id++) limited.raiseEvent(45, 945, id);
		const got: number[] = [];
		const receiver = createPushReceiver({ url: limited.channel.urls.amqp, ...user });
		open.push(receiver);
		await receiver.start((m) => void got.push((m.record as { id: number }).id));
		await waitFor(() => got.length === 5, 'the five kept messages');
		await new Promise((r) => setTimeout(r, 100));
		expect(got).toEqual([4, 5, 6, 7, 8]);
	} finally {
		await Promise.all(open.splice(0).map((r) => r.close()));
		await limited.close();
	}
});

test('an MQTT persistent session keeps the queue limit of unacknowledged messages and drops newer ones (P5)', async () => {
	const limited = await startTestPlatform({ queueLimit: 5 });
	try {
		const user = limited.createUser(47, [1]);
		const got: number[] = [];
		const listen = async () => {
			const receiver = createPushReceiver({ url: limited.channel.urls.mqtt, ...user });
			open.push(receiver);
			await receiver.start((m) => void got.push((m.record as { id: number }).id));
			return receiver;
		};
		// The persistent session exists (subscribed), then its client goes away.
		await (await listen()).close();
		for (let id = 1; id <= 8; id++) limited.raiseEvent(47, 947, id);
		await listen();
		await waitFor(() => got.length === 5, 'the five kept messages');
		await new Promise((r) => setTimeout(r, 100));
		expect(got).toEqual([1, 2, 3, 4, 5]);
		// Acknowledged, they no longer count: the session takes new messages again.
		limited.raiseEvent(47, 947, 9);
		await waitFor(() => got.length === 6, 'a message after the acknowledgements');
		expect(got).toEqual([1, 2, 3, 4, 5, 9]);
	} finally {
		await Promise.all(open.splice(0).map((r) => r.close()));
		await limited.close();
	}
});

test.each([
	['amqp', 1],
	['amqp', 10],
	['mqtt', 1],
	['mqtt', 10],
] as const)(
	'%s with prefetch %d: that many handlers at once, never more',
	async (protocol, prefetch) => {
		const peak = await handlesAtOnce(
			simulatorTarget(protocol, 46 + prefetch + (protocol === 'mqtt' ? 100 : 0)),
			prefetch,
		);
		if (prefetch === 1) expect(peak).toBe(1);
		else expect(peak).toBeGreaterThan(1);
	},
);
