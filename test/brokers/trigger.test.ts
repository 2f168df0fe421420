/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The built Drive Monitoring Trigger's push mode in n8n-core's trigger machinery against real
// brokers (RabbitMQ 3.x over AMQP 1.0 and MQTT, Mosquitto 2.0), default address, every
// acknowledge mode, Parallel Messages 1 and 10: nothing lost, a failed execution's message
// redelivered when acknowledging on success. Bursts of 300 (3 failing) per combination keep the
// 18 runs short; the receiver's own 10,000 bursts are in rabbitmq.test.ts and mosquitto.test.ts.
import type { IExecuteFunctions, INode, INodeExecutionData, INodeType } from 'n8n-workflow';
import { N8nTestEngine } from '../helpers/n8n/engine';
import { waitFor } from '../push/platform';
import { activateTrigger, type ActiveTrigger } from '../push/n8n-trigger';
import { startMosquitto, type Mosquitto } from './mosquitto';
import { startRabbitMq, type RabbitMq } from './rabbitmq';
import { provision, type BrokerKind, type BrokerTarget, type Subscriber } from './targets';

jest.setTimeout(300_000);

const PUSH: INode['credentials'] = { driveMonitoringPushApi: { id: 'push', name: 'Push' } };
const COUNT = 300;
let rabbit: RabbitMq;
let mosquitto: Mosquitto;
let engine: N8nTestEngine;
const active: ActiveTrigger[] = [];
/** Event ids whose first execution fails (the downstream node throws). */
const failedOnce = new Set<number>();

/** Fails the first execution of every 100th event id. */
const failSomeNode = {
	description: {
		displayName: 'Fail Some',
		name: 'failSome',
		group: ['transform'],
		version: 1,
		description: 'Fails every 100th event once',
		defaults: { name: 'Fail Some' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		for (const item of this.getInputData()) {
			const id = Number(item.json.id);
			if (id % 100 === 0 && !failedOnce.has(id)) {
				failedOnce.add(id);
				throw new Error(`downstream failed for event ${id}`);
			}
		}
		return [this.getInputData()];
	},
} as unknown as INodeType;

beforeAll(async () => {
	[rabbit, mosquitto] = await Promise.all([startRabbitMq(), startMosquitto()]);
	engine = new N8nTestEngine();
	// The workflow's downstream node (activateTrigger names it test.flaky).
	engine.addNodeTypes({ 'test.flaky': failSomeNode });
}, 180_000);
afterEach(async () => {
	await Promise.all(active.splice(0).map((t) => t.close()));
	failedOnce.clear();
});
afterAll(async () => {
	await Promise.all([rabbit?.stop(), mosquitto?.stop()]);
}, 120_000);

type Broker = Exclude<BrokerKind, 'simulator-amqp' | 'simulator-mqtt'>;

const provisioned = (broker: Broker): Promise<BrokerTarget> =>
	provision({ rabbit, mosquitto }, broker, { orgId: 33, assetId: 3300 });

async function activate(
	{ url, ...user }: Subscriber,
	options: Record<string, unknown>,
): Promise<ActiveTrigger> {
	engine.addCredential({
		id: 'push',
		name: 'Push',
		type: 'driveMonitoringPushApi',
		data: { brokerUrl: url, ...user, addressTemplate: '' },
	});
	const trigger = await activateTrigger(
		engine,
		{ mode: 'push', dataTypes: ['AssetEvent'], options } as never,
		PUSH,
		{ withFlaky: true },
	);
	active.push(trigger);
	return trigger;
}

const BROKERS: Broker[] = ['rabbitmq-amqp', 'rabbitmq-mqtt', 'mosquitto'];
const MODES = ['immediately', 'executionFinishes', 'executionFinishesSuccessfully'] as const;
const combos = BROKERS.flatMap((broker) =>
	MODES.flatMap((acknowledge) =>
		[1, 10].map((parallel) => [broker, acknowledge, parallel] as const),
	),
);

describe.each(combos)(
	'%s, acknowledge %s, Parallel Messages %d',
	(broker, acknowledge, parallel) => {
		test(`a burst of ${COUNT}: every event emitted${acknowledge === 'executionFinishesSuccessfully' ? ', each failed execution run again' : ''}`, async () => {
			const target = await provisioned(broker);
			const trigger = await activate(target.settings, { acknowledge, parallelMessages: parallel });
			await target.publish(Array.from({ length: COUNT }, (_, i) => i + 1));
			const emittedIds = (): number[] => trigger.emitted.map((items) => Number(items[0].json.id));
			const failing = Array.from({ length: COUNT / 100 }, (_, i) => (i + 1) * 100);
			const redelivers = acknowledge === 'executionFinishesSuccessfully';
			await waitFor(
				() =>
					new Set(emittedIds()).size >= COUNT &&
					(!redelivers || failing.every((id) => emittedIds().filter((e) => e === id).length >= 2)),
				`${COUNT} distinct events emitted (${new Set(emittedIds()).size} so far)${redelivers ? ' and each failed one again' : ''}`,
				240_000,
			);
			await waitFor(
				() => trigger.runs.length >= trigger.emitted.length,
				'every execution finished',
			);
			expect(trigger.errors).toEqual([]);
			expect([...new Set(emittedIds())].sort((a, b) => a - b)).toEqual(
				Array.from({ length: COUNT }, (_, i) => i + 1),
			);
			expect(trigger.runs.filter((r) => r.data.resultData.error)).toHaveLength(failing.length);
			// Executions that succeeded: each event once, whatever was redelivered.
			const succeeded = trigger.runs.filter((r) => !r.data.resultData.error);
			expect(succeeded.length).toBe(redelivers ? COUNT : COUNT - failing.length);
		});
	},
);

test('RabbitMQ: the queue deleted while the workflow is active reaches n8n as the explained, terminal error', async () => {
	const { settings: user } = await provisioned('rabbitmq-amqp');
	const trigger = await activate(user, {});
	await rabbit.ctl('delete_queue', user.topic);
	await waitFor(() => trigger.errors.length === 1, 'the trigger error', 60_000);
	expect(trigger.errors[0].message).toMatch(/queue "\/amq\/queue\/q-[0-9a-f]+"/);
	expect(trigger.errors[0].message).toMatch(/deleted|has no queue/);
	expect(trigger.errors[0].message).not.toContain(user.password);
});

test.each(['rabbitmq-amqp', 'mosquitto'] as const)(
	'%s: a wrong password fails the activation with the credentials sentence',
	async (broker) => {
		const { settings: user } = await provisioned(broker);
		const error = await activate({ ...user, password: 'wrong-password' }, {}).catch(
			(e: unknown) => e as Error,
		);
		expect((error as Error).message).toContain(
			'credentials rejected: was the password reset or the user deleted?',
		);
		expect((error as Error).message).not.toContain('wrong-password');
	},
);

test.each(['rabbitmq-amqp', 'rabbitmq-mqtt', 'mosquitto'] as const)(
	'%s: Events per Execution 100: every event once, in order within each batch, batches as large as the broker lets be in flight',
	async (broker) => {
		const target = await provisioned(broker);
		const trigger = await activate(target.settings, { eventsPerExecution: 100, batchWindow: 0.5 });
		const count = 1000;
		await target.publish(Array.from({ length: count }, (_, i) => i + 1));
		const emittedIds = (): number[] =>
			trigger.emitted.flatMap((items) => items.map((item) => Number(item.json.id)));
		await waitFor(
			() => new Set(emittedIds()).size >= count && trigger.runs.length >= trigger.emitted.length,
			`${count} events in batches (${new Set(emittedIds()).size} so far)`,
			120_000,
		);
		await new Promise((r) => setTimeout(r, 500));
		expect([...emittedIds()].sort((a, b) => a - b)).toEqual(
			Array.from({ length: count }, (_, i) => i + 1),
		);
		for (const items of trigger.emitted) {
			const ids = items.map((item) => Number(item.json.id));
			expect(ids).toEqual([...ids].sort((a, b) => a - b));
		}
		const largest = Math.max(...trigger.emitted.map((items) => items.length));
		// RabbitMQ's AMQP 1.0 takes our link credit; so does Mosquitto 2.0 in practice (100 here, with
		// max_inflight_messages 20 in its config); RabbitMQ's MQTT plugin caps a client at its
		// mqtt.prefetch (10 by default).
		expect(largest).toBe({ 'rabbitmq-amqp': 100, mosquitto: 100, 'rabbitmq-mqtt': 10 }[broker]);
		expect(trigger.errors).toEqual([]);
	},
);
