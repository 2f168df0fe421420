/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// kill -9 of the consumer process and a restart, and a broker restart, against the simulator's
// brokers, RabbitMQ (AMQP 1.0, MQTT) and Mosquitto: nothing lost. The consumer process runs the
// built receiver (test/brokers/consumer.js).
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- the consumer process is what this test kills; this is not node code */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createPushReceiver, type PushMessage, type PushReceiver } from '../../shared/push';
import { startTestPlatform, waitFor, type TestPlatform } from '../push/platform';
import { startMosquitto, type Mosquitto } from './mosquitto';
import { startRabbitMq, type RabbitMq } from './rabbitmq';
import { provision, type BrokerKind, type BrokerTarget } from './targets';

jest.setTimeout(300_000);

let rabbit: RabbitMq;
let mosquitto: Mosquitto;
let platform: TestPlatform;
const cleanup: Array<() => Promise<unknown> | void> = [];

beforeAll(async () => {
	[rabbit, mosquitto, platform] = await Promise.all([
		startRabbitMq(),
		startMosquitto(),
		startTestPlatform(),
	]);
}, 180_000);
afterEach(async () => {
	for (const step of cleanup.splice(0).reverse()) await step();
});
afterAll(async () => {
	await Promise.all([rabbit?.stop(), mosquitto?.stop(), platform?.close()]);
}, 120_000);

const target = (broker: BrokerKind): Promise<BrokerTarget> =>
	provision({ rabbit, mosquitto, platform }, broker, { orgId: 35, assetId: 3500 });

/** Starts test/brokers/consumer.js; `handled` collects the ids it reports. */
async function consumerProcess(
	settings: BrokerTarget['settings'],
	handled: number[],
): Promise<ChildProcess> {
	const child = spawn(process.execPath, [join(__dirname, 'consumer.js')], {
		env: {
			...process.env,
			DM_URL: settings.url,
			DM_USER: settings.userName,
			DM_PASSWORD: settings.password,
			DM_TOPIC: settings.topic,
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const exited = new Promise((resolve) => child.once('exit', resolve));
	cleanup.push(() => {
		if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
		return exited;
	});
	let stderr = '';
	child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	let buffered = '';
	let ready = false;
	child.stdout!.on('data', (chunk: Buffer) => {
		buffered += chunk.toString();
		const lines = buffered.split('\n');
		buffered = lines.pop()!;
		for (const line of lines) {
			if (line === 'ready') ready = true;
			else if (line.startsWith('handled ')) handled.push(Number(line.slice(8)));
		}
	});
	await waitFor(() => ready || child.exitCode !== null, 'the consumer process to connect', 60_000);
	if (!ready) throw new Error(`the consumer process failed: ${stderr}`);
	return child;
}

const BROKERS: BrokerKind[] = [
	'simulator-amqp',
	'simulator-mqtt',
	'rabbitmq-amqp',
	'rabbitmq-mqtt',
	'mosquitto',
];
const COUNT = 2000;

test.each(BROKERS)(
	`%s: kill -9 of the consumer mid-burst of ${COUNT}, then a new one: nothing lost`,
	async (broker) => {
		const t = await target(broker);
		const handled: number[] = [];
		const first = await consumerProcess(t.settings, handled);
		await t.publish(Array.from({ length: COUNT }, (_, i) => i + 1));
		await waitFor(() => handled.length >= 200, 'a part of the burst handled', 120_000);
		const exited = new Promise((resolve) => first.once('exit', resolve));
		first.kill('SIGKILL');
		await exited;
		const beforeKill = handled.length;
		expect(beforeKill).toBeLessThan(COUNT);
		await consumerProcess(t.settings, handled);
		await waitFor(
			() => new Set(handled).size >= COUNT,
			`all ${COUNT} handled (${new Set(handled).size} so far)`,
			240_000,
		);
		const missing = Array.from({ length: COUNT }, (_, i) => i + 1).filter(
			(n) => !handled.includes(n),
		);
		expect(missing).toEqual([]);
	},
);

test.each(['rabbitmq-mqtt', 'mosquitto'] as const)(
	'%s: a broker restart: the receiver reconnects and nothing published around it is lost',
	async (broker) => {
		const t = await target(broker);
		const got: PushMessage[] = [];
		const receiver: PushReceiver = createPushReceiver({
			...t.settings,
			reconnect: { initialDelayMs: 100, maxDelayMs: 1000 },
		});
		cleanup.push(() => receiver.close());
		await receiver.start((m) => void got.push(m));
		await t.publish([1, 2, 3]);
		await waitFor(() => got.length >= 3, 'three messages');
		await (broker === 'mosquitto' ? mosquitto.restart() : rabbit.restart());
		await waitFor(() => receiver.stats.reconnects >= 1, 'the reconnect', 120_000);
		await t.publish([4, 5, 6]);
		await waitFor(
			() => new Set(got.map((m) => (m.record as { id: number }).id)).size >= 6,
			'three more after the restart',
			120_000,
		);
		expect(
			[...new Set(got.map((m) => (m.record as { id: number }).id))].sort((a, b) => a - b),
		).toEqual([1, 2, 3, 4, 5, 6]);
	},
);
