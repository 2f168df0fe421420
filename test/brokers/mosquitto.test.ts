// The receiver against a real Mosquitto 2.0 (Debian's): default address `dm/{topic}/#`, QoS 1,
// persistent session; max_queued_messages raised (P5), or a 10,000 burst is cut at 1,000.
import { createPushReceiver, PushAuthError, type PushReceiver } from '../../shared/push';
// Mosquitto 2.0 grants every SUBSCRIBE and applies the ACL per message: a user without read
// permission is not refused, it receives nothing (README, push notes); nothing to test there.
import { burstWithFailures, handlesAtOnce, type Target } from '../push/scenarios';
import { startMosquitto, type Mosquitto } from './mosquitto';
import { provision, type BrokerTarget, type Subscriber } from './targets';

jest.setTimeout(300_000);

let broker: Mosquitto;
const open: PushReceiver[] = [];

beforeAll(async () => {
	broker = await startMosquitto();
}, 60_000);
afterEach(async () => {
	await Promise.all(open.splice(0).map((r) => r.close()));
});
afterAll(async () => {
	await broker?.stop();
});

const provisioned = (): Promise<BrokerTarget> =>
	provision({ mosquitto: broker }, 'mosquitto', { orgId: 32, assetId: 3200 });

function receiverFor(subscriber: Subscriber, extra: object = {}): PushReceiver {
	const receiver = createPushReceiver({
		...subscriber,
		reconnect: { initialDelayMs: 50, maxDelayMs: 1000 },
		...extra,
	});
	open.push(receiver);
	return receiver;
}

test('a burst of 10,000 with 1% failing handlers: 0 lost, each failure redelivered', async () => {
	const { settings: subscriber, publish } = await provisioned();
	const probe = receiverFor(subscriber);
	await probe.start(() => undefined);
	await probe.close();
	const target: Target = { receiver: (extra = {}) => receiverFor(subscriber, extra), publish };
	const warnings: string[] = [];
	const { receiver } = await burstWithFailures(target, 10_000, {
		logger: { warn: (m: string) => warnings.push(m) },
	});
	// Mosquitto resends stored messages before its SUBACK: a failure then must not count as a
	// failed connect ("reconnect failed", with a backoff growing toward 30 s).
	// One reconnect per failure, or fewer when failures fall into the same connection (prefetch).
	expect(receiver.stats.reconnects).toBeGreaterThan(0);
	expect(receiver.stats.reconnects).toBeLessThanOrEqual(100);
	expect(warnings.filter((w) => w.includes('reconnect failed'))).toEqual([]);
});

test('a wrong password ends with the credentials sentence and no secret', async () => {
	const { settings: subscriber } = await provisioned();
	const error = await receiverFor({ ...subscriber, password: 'not-the-password' })
		.start(() => undefined)
		.catch((e: unknown) => e);
	expect(error).toBeInstanceOf(PushAuthError);
	expect((error as Error).message).not.toContain('not-the-password');
});

test.each([1, 10])(
	'QoS 1 with prefetch %d: that many handlers at once, never more',
	async (prefetch) => {
		const { settings: subscriber, publish } = await provisioned();
		const probe = receiverFor(subscriber);
		await probe.start(() => undefined);
		await probe.close();
		const peak = await handlesAtOnce(
			{ receiver: (extra = {}) => receiverFor(subscriber, extra), publish },
			prefetch,
		);
		if (prefetch === 1) expect(peak).toBe(1);
		else expect(peak).toBeGreaterThan(1);
	},
);
