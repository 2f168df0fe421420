/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code, not code n8n loads: it runs a consumer in a child process to freeze it; n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import mqtt from 'mqtt';
import { create_container, type EventContext } from 'rhea';
import type { PushEnvelope } from '../../shared/push';
import { SimulatorBus } from '../../simulator/bus';
import { startAmqpBroker } from '../../simulator/push/amqp-broker';
import type { PushHost, SubscriberRecord } from '../../simulator/push/host';
import { startMqttBroker } from '../../simulator/push/mqtt-broker';

const user: SubscriberRecord = {
	id: 'u1',
	orgId: 1,
	userName: 'sub-user',
	password: 'sub-secret-1',
	topic: 'org1topic',
	subDataTypes: [1, 2, 3, 4],
};
const host: PushHost = {
	bus: new SimulatorBus(),
	findSubscriber: (name) => (name === user.userName ? user : undefined),
	listSubscribers: () => [user],
};
const envelope = (n: number): PushEnvelope => ({
	messageId: `m${n}`,
	dataType: 'AssetEvent',
	orgId: 1,
	assetId: 7,
	time: new Date(0).toISOString(),
	data: { n },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, limitMs: number, condition: () => boolean): Promise<void> {
	const start = Date.now();
	while (!condition()) {
		if (Date.now() - start > limitMs) throw new Error(`${what}: not within ${limitMs} ms`);
		await sleep(50);
	}
}

/** The TCP state of our local socket on `localPort`, from the kernel (the frozen process cannot tell): 01 established, 08 close-wait. */
function tcpState(localPort: number): string | undefined {
	const hex = localPort.toString(16).toUpperCase().padStart(4, '0');
	const line = readFileSync('/proc/net/tcp', 'utf8')
		.split('\n')
		.find((l) => l.trim().split(/\s+/)[1]?.endsWith(`:${hex}`));
	return line?.trim().split(/\s+/)[3];
}

interface Consumer {
	process: ChildProcess;
	events: Array<{ event: string; id?: string; localPort?: number }>;
}
const consumers: Consumer[] = [];
function frozenConsumer(env: Record<string, string>): Consumer {
	const consumer: Consumer = {
		process: spawn(process.execPath, [join(__dirname, 'broker-consumer.js')], {
			env: { ...process.env, ...env },
			stdio: ['ignore', 'pipe', 'inherit'],
		}),
		events: [],
	};
	createInterface({ input: consumer.process.stdout! }).on('line', (line) =>
		consumer.events.push(JSON.parse(line) as Consumer['events'][number]),
	);
	consumers.push(consumer);
	return consumer;
}
afterEach(() => {
	for (const c of consumers.splice(0)) {
		c.process.kill('SIGCONT');
		c.process.kill('SIGKILL');
	}
});
const received = (c: Consumer) => c.events.filter((e) => e.event === 'message').map((e) => e.id);
const localPort = (c: Consumer) => c.events.find((e) => e.event === 'ready')!.localPort!;

describe("the simulator's brokers and a frozen consumer (real clients over real sockets)", () => {
	it('MQTT: a client silent for 1.5x its keep-alive is disconnected; its next session gets the unacknowledged QoS 1 messages', async () => {
		const broker = await startMqttBroker(host, { host: '127.0.0.1', queueLimit: 1000 });
		try {
			const address = `dm/${user.topic}/#`;
			const frozen = frozenConsumer({
				BROKER_PROTOCOL: 'mqtt',
				BROKER_URL: broker.url,
				BROKER_USER: user.userName,
				BROKER_PASSWORD: user.password,
				BROKER_CLIENT_ID: 'bot-push-1',
				BROKER_ADDRESS: address,
				BROKER_KEEPALIVE_S: '2',
			});
			await waitFor('the consumer subscribes', 10_000, () =>
				frozen.events.some((e) => e.event === 'ready'),
			);
			for (let n = 1; n <= 3; n++) broker.publish(user.topic, envelope(n));
			// mqtt.js hands over the next message only once the previous one is acknowledged: the first waits unacknowledged.
			await waitFor('the consumer receives the first', 10_000, () => received(frozen).length >= 1);
			frozen.process.kill('SIGSTOP');
			for (let n = 4; n <= 5; n++) broker.publish(user.topic, envelope(n));
			expect(received(frozen)).toEqual(['m1']);
			expect(tcpState(localPort(frozen))).toBe('01');
			// Keep-alive 2 s: the broker closes the connection after 3 s of silence.
			await waitFor(
				'the broker disconnects the frozen client',
				8_000,
				() => tcpState(localPort(frozen)) !== '01',
			);
			expect(tcpState(localPort(frozen))).toBe('08');

			const next = await mqtt.connectAsync(broker.url, {
				username: user.userName,
				password: user.password,
				clientId: 'bot-push-1',
				clean: false,
				protocolVersion: 4,
				reconnectPeriod: 0,
			});
			const ids: string[] = [];
			next.on('message', (_topic, payload) =>
				ids.push((JSON.parse(payload.toString()) as PushEnvelope).messageId),
			);
			try {
				await waitFor('the next session receives all five', 10_000, () => new Set(ids).size === 5);
				expect([...new Set(ids)].sort()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
			} finally {
				await next.endAsync();
			}
		} finally {
			await broker.close();
		}
	}, 40_000);

	it('AMQP: the endpoint advertises an idle time-out and closes a frozen receiver; its unsettled deliveries go to another receiver', async () => {
		const broker = await startAmqpBroker(
			host,
			{ host: '127.0.0.1', idleTimeOutMs: 1_000 },
			() => true,
		);
		const { hostname, port } = new URL(broker.url);
		const container = create_container({ id: 'second-consumer' });
		let advertised: number | undefined;
		const ids: string[] = [];
		container.on(
			'connection_open',
			(context: EventContext) =>
				(advertised = (
					context.connection as unknown as { remote: { open: { idle_time_out?: number } } }
				).remote.open.idle_time_out),
		);
		container.on('message', (context: EventContext) => {
			ids.push(String(context.message?.message_id));
			context.delivery?.accept();
		});
		const connection = container.connect({
			host: hostname,
			port: Number(port),
			username: user.userName,
			password: user.password,
			reconnect: false,
		});
		try {
			const frozen = frozenConsumer({
				BROKER_PROTOCOL: 'amqp',
				BROKER_HOST: hostname,
				BROKER_PORT: port,
				BROKER_USER: user.userName,
				BROKER_PASSWORD: user.password,
				BROKER_ADDRESS: user.topic,
			});
			await waitFor('the frozen-to-be receiver attaches', 10_000, () =>
				frozen.events.some((e) => e.event === 'ready'),
			);
			for (let n = 1; n <= 3; n++) broker.enqueue(user.userName, envelope(n));
			await waitFor('it receives three, unsettled', 10_000, () => received(frozen).length === 3);
			frozen.process.kill('SIGSTOP');

			connection.open_receiver({ source: { address: user.topic } });
			await waitFor('the second receiver is open', 10_000, () => advertised !== undefined);
			expect(advertised).toBe(1_000);
			for (let n = 4; n <= 5; n++) broker.enqueue(user.userName, envelope(n));
			// Idle time-out 1 s advertised, closed after 2 s of silence (AMQP 1.0 2.4.5), the socket 1 s later.
			await waitFor('the second receiver gets all five', 10_000, () => new Set(ids).size === 5);
			expect([...new Set(ids)].sort()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
			expect(tcpState(localPort(frozen))).not.toBe('01');
		} finally {
			connection.close();
			await sleep(100);
			await broker.close();
		}
	}, 40_000);
});
