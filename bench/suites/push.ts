/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a benchmark program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Pushed data, for both brokers of the simulator: the Drive Monitoring Trigger (built, in n8n-core's
// trigger machinery, each emit starting a workflow execution) against a bare protocol client of the
// same data-subscription user on the same broker, same run:
// - latency from the simulator publishing an AssetEvent to the trigger emitting it (p50, p95), one
//   event at a time; the bare client's arrival latency is the baseline;
// - throughput of a burst of BENCH_PUSH_EVENTS (default 10,000) events, every one accounted for
//   (emitted once, none lost); the bare client receiving the same burst is the baseline.
// The trigger runs with "Acknowledge: immediately" and 10 parallel messages, the bare clients with
// automatic acknowledgement and the same credit of 10 (MQTT: QoS 1, as the trigger subscribes).
// Reproduce: `npm run bench -- push` (results in bench/results/latest.md).
import { randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import { create_container, type EventContext } from 'rhea';
import { DEFAULT_ADDRESS_TEMPLATES, fillAddressTemplate } from '../../shared/push';
import { startFixture, type Fixture } from '../../test/nodes/fixture';
import { activateTrigger } from '../../test/push/n8n-trigger';
import type { BenchSuite, Figure } from '../suite';

type Protocol = 'amqp' | 'mqtt';
interface PushUser {
	userName: string;
	password: string;
	topic: string;
}
/** A consumer under measurement: calls `arrived(eventId)` for each AssetEvent it hands on. */
interface Consumer {
	close(): Promise<void>;
}

const BURST = Number(process.env.BENCH_PUSH_EVENTS ?? 10_000);
const LATENCY_SAMPLES = Number(process.env.BENCH_PUSH_SAMPLES ?? 200);
const CREDIT = 10;

function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function eventIdOf(body: unknown): number {
	const text = Buffer.isBuffer(body)
		? body.toString('utf8')
		: typeof body === 'string'
			? body
			: JSON.stringify(body);
	return Number((JSON.parse(text) as { data: { id: number } }).data.id);
}

/** A bare rhea receiver on the user's address, settling each delivery as it arrives. */
async function bareAmqp(
	url: string,
	user: PushUser,
	arrived: (id: number) => void,
): Promise<Consumer> {
	const target = new URL(url);
	const connection = create_container({ id: `bench-${randomUUID()}` }).connect({
		host: target.hostname,
		port: Number(target.port),
		username: user.userName,
		password: user.password,
		reconnect: false,
	});
	const receiver = connection.open_receiver({
		source: { address: fillAddressTemplate(DEFAULT_ADDRESS_TEMPLATES.amqp, user) },
		credit_window: CREDIT,
		autoaccept: true,
	});
	receiver.on('message', (context: EventContext) => {
		const body = context.message?.body as { content?: Buffer } | Buffer | string;
		arrived(eventIdOf(Buffer.isBuffer(body) || typeof body === 'string' ? body : body.content));
	});
	await new Promise<void>((resolve, reject) => {
		receiver.once('receiver_open', () => resolve());
		connection.once('connection_error', (context: EventContext) =>
			reject(new Error(String(context.connection.error))),
		);
	});
	return {
		close: () =>
			new Promise<void>((resolve) => {
				connection.once('connection_close', () => resolve());
				connection.close();
			}),
	};
}

/** A bare mqtt.js client subscribed at QoS 1 to the user's topic filter. */
async function bareMqtt(
	url: string,
	user: PushUser,
	arrived: (id: number) => void,
): Promise<Consumer> {
	const client = await mqtt.connectAsync(url, {
		username: user.userName,
		password: user.password,
		clientId: `bench-${randomUUID().slice(0, 8)}`,
		clean: true,
		reconnectPeriod: 0,
	});
	client.on('message', (_topic, payload) => arrived(eventIdOf(payload)));
	await client.subscribeAsync(fillAddressTemplate(DEFAULT_ADDRESS_TEMPLATES.mqtt, user), {
		qos: 1,
	});
	return { close: () => client.endAsync() };
}

/** The built trigger in push mode, activated as n8n activates a workflow. */
async function trigger(
	fx: Fixture,
	protocol: Protocol,
	user: PushUser,
	arrived: (id: number) => void,
): Promise<Consumer> {
	fx.engine.addCredential({
		id: 'push',
		name: 'Push',
		type: 'driveMonitoringPushApi',
		data: { brokerUrl: fx.sim.info.pushUrls[protocol], ...user, addressTemplate: '' },
	});
	const active = await activateTrigger(
		fx.engine,
		{
			mode: 'push',
			dataTypes: ['AssetEvent'],
			options: { acknowledge: 'immediately', parallelMessages: CREDIT },
		} as never,
		{ driveMonitoringPushApi: { id: 'push', name: 'Push' } },
		{ onEmit: (items) => items.forEach((item) => arrived(Number(item.json.id))) },
	);
	return { close: () => active.close() };
}

interface Measured {
	p50: number;
	p95: number;
	perSecond: number;
	received: number;
	distinct: number;
}

/** One consumer through both measurements: sequential latency samples, then the burst. */
async function measure(
	fx: Fixture,
	driveId: number,
	start: (arrived: (id: number) => void) => Promise<Consumer>,
): Promise<Measured> {
	let waiting: { id: number; resolve: () => void } | undefined;
	const burst = new Set<number>();
	let received = 0;
	let burstDone: (() => void) | undefined;
	const consumer = await start((id) => {
		received++;
		if (waiting?.id === id) waiting.resolve();
		burst.add(id);
		if (burstDone && burst.size >= BURST) burstDone();
	});
	try {
		const latencies: number[] = [];
		for (let i = 0; i < LATENCY_SAMPLES + 20; i++) {
			const started = process.hrtime.bigint();
			await new Promise<void>((resolve, reject) => {
				const timer = setTimeout(
					() => reject(new Error('an event did not arrive within 10 s')),
					10_000,
				);
				const event = fx.sim.control.raiseEvent(driveId, { eventType: 'Fault' });
				waiting = { id: Number(event.id), resolve: () => (clearTimeout(timer), resolve()) };
			});
			// The first 20 warm the path (JIT, connection, first executions) and are not counted.
			if (i >= 20) latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
		}
		waiting = undefined;
		burst.clear();
		received = 0;
		const all = new Promise<void>((resolve) => (burstDone = resolve));
		const started = process.hrtime.bigint();
		for (let i = 0; i < BURST; i++) fx.sim.control.raiseEvent(driveId, { eventType: 'Fault' });
		await Promise.race([
			all,
			new Promise((_, reject) =>
				setTimeout(
					() =>
						reject(
							new Error(`the burst did not fully arrive within 300 s (${burst.size} of ${BURST})`),
						),
					300_000,
				).unref(),
			),
		]);
		const seconds = Number(process.hrtime.bigint() - started) / 1e9;
		await new Promise((resolve) => setTimeout(resolve, 500)); // late duplicates would show here
		return {
			p50: percentile(latencies, 50),
			p95: percentile(latencies, 95),
			perSecond: BURST / seconds,
			received,
			distinct: burst.size,
		};
	} finally {
		await consumer.close();
	}
}

function figures(protocol: Protocol, bare: Measured, ours: Measured): Figure[] {
	const ms = (value: number) => `${value.toFixed(2)} ms`;
	return [
		{
			name: `${protocol}: publish to trigger emit, p50 (${LATENCY_SAMPLES} events one at a time)`,
			value: ms(ours.p50),
			baseline: `${ms(bare.p50)} bare ${protocol} client`,
			ratio: (ours.p50 / bare.p50).toFixed(2),
		},
		{
			name: `${protocol}: publish to trigger emit, p95`,
			value: ms(ours.p95),
			baseline: `${ms(bare.p95)} bare ${protocol} client`,
			ratio: (ours.p95 / bare.p95).toFixed(2),
		},
		{
			name: `${protocol}: burst of ${BURST} AssetEvents through the trigger (each emit runs a workflow)`,
			value: `${ours.perSecond.toFixed(0)} events/s`,
			baseline: `${bare.perSecond.toFixed(0)} events/s bare ${protocol} client`,
			ratio: (ours.perSecond / bare.perSecond).toFixed(2),
		},
		{
			name: `${protocol}: burst events emitted (distinct / emits)`,
			value: `${ours.distinct} / ${ours.received}`,
			baseline: `${bare.distinct} / ${bare.received} bare ${protocol} client`,
			target: `${BURST} / ${BURST}: none lost, none twice`,
			met: ours.distinct === BURST && ours.received === BURST,
		},
	];
}

const suite: BenchSuite = {
	name: 'push',
	async run() {
		const fx = await startFixture({ push: true });
		try {
			const created = await fx.direct.dataSubscription.createUser();
			const topic = `bench-${randomUUID().slice(0, 8)}`;
			await fx.direct.dataSubscription.setDataTypes({
				subCustomerId: created.id,
				topicName: topic,
				subDataTypes: ['AssetEvent'],
			});
			const user: PushUser = {
				userName: String(created.userName),
				password: String(created.password),
				topic,
			};
			const driveId = fx.asset(
				(a) => a.assetType === 'Drive' && !a.unsubscribed,
				'subscribed drive',
			).id;
			const result: Figure[] = [];
			for (const protocol of ['amqp', 'mqtt'] as const) {
				const url = fx.sim.info.pushUrls[protocol]!;
				const bare = await measure(fx, driveId, (arrived) =>
					protocol === 'amqp' ? bareAmqp(url, user, arrived) : bareMqtt(url, user, arrived),
				);
				const ours = await measure(fx, driveId, (arrived) => trigger(fx, protocol, user, arrived));
				result.push(...figures(protocol, bare, ours));
			}
			return {
				name: 'push',
				description:
					"The Drive Monitoring Trigger (push mode, acknowledge immediately, 10 parallel messages) in n8n-core against a bare rhea / mqtt.js client of the same user on the simulator's brokers, same run. Latency: simulator publish to emit, one event at a time after 20 warm-up events. Burst: all events raised at once, timed until each was emitted.",
				figures: result,
			};
		} finally {
			await fx.close();
		}
	},
};

export default suite;
