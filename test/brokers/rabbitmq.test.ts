// The receiver against a real RabbitMQ 3.x (Debian's, AMQP 1.0 and MQTT plugins), default
// settings, no address template: nothing lost, every broker error explained.
import {
	createPushReceiver,
	PushAuthError,
	PushStreamEndedError,
	type PushEnd,
	type PushMessage,
	type PushReceiver,
} from '../../shared/push';
import { waitFor } from '../push/platform';
import {
	burstWithFailures,
	failsLeavingNoTimer,
	handlesAtOnce,
	sameTickSettlement,
	type Target,
} from '../push/scenarios';
import { freePorts } from './ports';
import { startRabbitMq, type RabbitMq } from './rabbitmq';
import { provision, type BrokerTarget, type Subscriber } from './targets';

jest.setTimeout(300_000);

let broker: RabbitMq;
const open: PushReceiver[] = [];

beforeAll(async () => {
	broker = await startRabbitMq();
}, 180_000);
afterEach(async () => {
	await Promise.all(open.splice(0).map((r) => r.close()));
});
afterAll(async () => {
	await broker?.stop();
}, 120_000);

const provisioned = (
	kind: 'rabbitmq-amqp' | 'rabbitmq-mqtt',
	grant = true,
): Promise<BrokerTarget> =>
	provision({ rabbit: broker }, kind, { orgId: 31, assetId: 3100 }, grant);

function receiverFor(user: Subscriber, extra: object = {}): PushReceiver {
	const receiver = createPushReceiver({
		...user,
		reconnect: { initialDelayMs: 50, maxDelayMs: 1000 },
		...extra,
	});
	open.push(receiver);
	return receiver;
}

/** The scenarios' view of a provisioned user. */
function scenarioTarget({ settings, publish }: BrokerTarget): Target {
	return { receiver: (extra = {}) => receiverFor(settings, extra), publish };
}

const ended = (receiver: PushReceiver): Promise<PushEnd> =>
	new Promise((resolve) => receiver.once('end', resolve));
const ids = (got: PushMessage[]): number[] => got.map((m) => (m.record as { id: number }).id);

describe('AMQP 1.0', () => {
	test('ten handlers settling in one tick, four failing: each failure comes back, no reconnect', async () => {
		await sameTickSettlement(scenarioTarget(await provisioned('rabbitmq-amqp')));
		expect(open[0].stats.reconnects).toBe(0);
	});

	test('a burst of 10,000 with 1% failing handlers: 0 lost, each failure redelivered, no reconnect', async () => {
		const { receiver } = await burstWithFailures(
			scenarioTarget(await provisioned('rabbitmq-amqp')),
			10_000,
			{ prefetch: 10 },
		);
		expect(receiver.stats.reconnects).toBe(0);
	});

	test('a wrong password ends with the credentials sentence and no secret', async () => {
		const { settings: user } = await provisioned('rabbitmq-amqp');
		const error = await failsLeavingNoTimer(() =>
			receiverFor({ ...user, password: 'not-the-password' }).start(() => undefined),
		);
		expect(error).toBeInstanceOf(PushAuthError);
		expect((error as Error).message).not.toContain('not-the-password');
	});

	test('without read permission: a terminal error that says to ask for it', async () => {
		const { settings: user } = await provisioned('rabbitmq-amqp', false);
		const error = await failsLeavingNoTimer(() => receiverFor(user).start(() => undefined));
		expect(error).toBeInstanceOf(PushStreamEndedError);
		expect((error as Error).message).toContain(
			`the broker refused access to queue "/amq/queue/${user.topic}" for the data-subscription user "${user.userName}": ask the platform operator to grant this user read permission`,
		);
		expect((error as Error).message).not.toContain(user.password);
	});

	test('the queue deleted while consuming ends the receiver with a clear terminal error', async () => {
		const { settings: user, publish } = await provisioned('rabbitmq-amqp');
		const got: PushMessage[] = [];
		const receiver = receiverFor(user);
		const end = ended(receiver);
		await receiver.start((m) => void got.push(m));
		await publish([1]);
		await waitFor(() => got.length === 1, 'the first message');
		await broker.ctl('delete_queue', user.topic);
		const { reason, error } = await end;
		expect(reason).toBe('error');
		expect(error).toBeInstanceOf(PushStreamEndedError);
		expect(error!.message).toMatch(/deleted|has no queue/);
	});

	test('a broker restart: the receiver reconnects and nothing published around it is lost', async () => {
		const { settings: user, publish } = await provisioned('rabbitmq-amqp');
		const got: PushMessage[] = [];
		const receiver = receiverFor(user);
		await receiver.start((m) => void got.push(m));
		await publish([1, 2, 3]);
		await waitFor(() => got.length === 3, 'three messages');
		await broker.restart();
		await publish([4, 5, 6]);
		await waitFor(() => got.length >= 6, 'three more after the restart', 120_000);
		expect([...new Set(ids(got))].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
		expect(receiver.stats.reconnects).toBeGreaterThanOrEqual(1);
	});
});

describe('MQTT', () => {
	test('a burst of 10,000 with 1% failing handlers: 0 lost, each failure redelivered', async () => {
		const target = await provisioned('rabbitmq-mqtt');
		// The persistent session must exist before the burst, as it does for a running consumer.
		const probe = receiverFor(target.settings);
		await probe.start(() => undefined);
		await probe.close();
		await burstWithFailures(scenarioTarget(target), 10_000);
	});

	test('a wrong password ends with the credentials sentence', async () => {
		const { settings: user } = await provisioned('rabbitmq-mqtt');
		const error = await failsLeavingNoTimer(() =>
			receiverFor({ ...user, password: 'not-the-password' }).start(() => undefined),
		);
		expect(error).toBeInstanceOf(PushAuthError);
	});

	test('without permissions: a terminal error, not a retry loop', async () => {
		const { settings: user } = await provisioned('rabbitmq-mqtt', false);
		const error = await failsLeavingNoTimer(() => receiverFor(user).start(() => undefined));
		expect((error as { terminal?: boolean }).terminal).toBe(true);
		expect((error as Error).message).toMatch(/refused|permission/);
	});
});

test.each(['amqp', 'mqtt'] as const)(
	'%s: nothing listening: a transient error, and no timer left behind',
	async (protocol) => {
		const [port] = await freePorts(1);
		const receiver = createPushReceiver({
			url: `${protocol}://127.0.0.1:${port}`,
			userName: 'dm-nobody',
			password: 'pw',
			topic: 'q-none',
		});
		const error = await failsLeavingNoTimer(() => receiver.start(() => undefined));
		expect((error as { terminal?: boolean }).terminal).toBe(false);
	},
);

test.each(['rabbitmq-amqp', 'rabbitmq-mqtt'] as const)(
	'%s: the user deleted while consuming (its connections closed, as E29 would) ends the receiver with the credentials sentence',
	async (kind) => {
		const { settings: user } = await provisioned(kind);
		const receiver = receiverFor(user);
		const end = ended(receiver);
		await receiver.start(() => undefined);
		await broker.ctl('delete_user', user.userName);
		await broker.ctl('close_all_user_connections', user.userName, 'user deleted');
		const { error } = await end;
		expect(error).toBeInstanceOf(PushAuthError);
	},
);

test.each([
	['rabbitmq-amqp', 1],
	['rabbitmq-amqp', 10],
	['rabbitmq-mqtt', 1],
	['rabbitmq-mqtt', 10],
] as const)(
	'%s with prefetch %d: that many handlers at once, never more',
	async (kind, prefetch) => {
		const target = await provisioned(kind);
		if (kind === 'rabbitmq-mqtt') {
			const probe = receiverFor(target.settings);
			await probe.start(() => undefined);
			await probe.close();
		}
		const peak = await handlesAtOnce(scenarioTarget(target), prefetch);
		if (prefetch === 1) expect(peak).toBe(1);
		else expect(peak).toBeGreaterThan(1);
	},
);
