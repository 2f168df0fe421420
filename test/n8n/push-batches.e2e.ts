/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The push trigger's batches in a real n8n 2.41 (`n8n start`, regular mode) on real brokers:
// Debian's RabbitMQ (AMQP 1.0) and Mosquitto 2.0 (MQTT 3.1.1), started here on 127.0.0.1.
// - A batch of 100 over each: every event once across executions, in order within a batch, and
//   (AMQP, where the broker shows it) unacknowledged until the execution ends.
// - A failed batch (acknowledge after a successful execution) comes back whole.
// - Two workflows on one credential over Mosquitto, both active for TWO_WORKFLOWS_MS: both
//   receive every event; Mosquitto never logs "already connected", n8n never loses the connection.
import fs from 'node:fs';
import path from 'node:path';

import {
	n8nCommand,
	startN8nServer,
	type N8nInstance,
	type N8nServer,
} from '../../scripts/n8n/instance';
import { startMosquitto, type Mosquitto } from '../brokers/mosquitto';
import { startRabbitMq, type RabbitMq } from '../brokers/rabbitmq';
import { provision, type BrokerTarget } from '../brokers/targets';
import { ARTIFACTS, importCredential, importWorkflows } from './harness';
import {
	pushInstance,
	pushWorkflow,
	queueDepth,
	range,
	Receiver,
	repeats,
	sleep,
	until,
	type TriggerOptions,
} from './push-harness';

/**
 * How long the two workflows on one credential stay active while events arrive. What this guards
 * against is two workflows on one credential taking the session from each other, one take-over every
 * few seconds, and n8n re-activates a trigger it deactivated within seconds: 2 minutes hold dozens of
 * such cycles, and events are published across the whole span, not only at its start.
 */
const TWO_WORKFLOWS_MS = 120_000;
const TWO_WORKFLOWS_EVENTS = 200;
const BATCH = 100;
const WHERE = { orgId: 28, assetId: 2800 };

const logs = path.join(ARTIFACTS, 'push-batches');
let instance: N8nInstance;
let rabbit: RabbitMq;
let mosquitto: Mosquitto;
let main: N8nServer;
const receiver = new Receiver();
const targets: Record<string, BrokerTarget> = {};

const batched: TriggerOptions = { eventsPerExecution: BATCH, batchWindow: 3 };

beforeAll(async () => {
	fs.mkdirSync(logs, { recursive: true });
	[rabbit, mosquitto] = await Promise.all([startRabbitMq(), startMosquitto({ log: true })]);
	instance = await pushInstance('n8n-push-batches-');
	await receiver.start();

	const workflows = [];
	const credential = async (name: string, target: BrokerTarget) => {
		const ref = { id: `dmPushCred${name}`.padEnd(16, '0').slice(0, 16), name: `Push ${name}` };
		const { url, ...user } = target.settings;
		await importCredential(instance, {
			...ref,
			type: 'driveMonitoringPushApi',
			data: { brokerUrl: url, ...user, addressTemplate: '' },
		});
		return ref;
	};
	for (const [name, kind] of [
		['amqp', 'rabbitmq-amqp'],
		['mqtt', 'mosquitto'],
		['failAmqp', 'rabbitmq-amqp'],
		['failMqtt', 'mosquitto'],
		['two', 'mosquitto'],
	] as const) {
		targets[name] = await provision({ rabbit, mosquitto }, kind, WHERE);
	}
	workflows.push(
		pushWorkflow('pushBatchAmqp', await credential('amqp', targets.amqp), receiver.url, 'amqp', {
			...batched,
			acknowledge: 'executionFinishes',
		}),
	);
	workflows.push(
		pushWorkflow('pushBatchMqtt', await credential('mqtt', targets.mqtt), receiver.url, 'mqtt', {
			...batched,
			acknowledge: 'executionFinishes',
		}),
	);
	workflows.push(
		pushWorkflow(
			'pushFailAmqp',
			await credential('failAmqp', targets.failAmqp),
			receiver.url,
			'failAmqp',
			{ ...batched, acknowledge: 'executionFinishesSuccessfully' },
		),
	);
	workflows.push(
		pushWorkflow(
			'pushFailMqtt',
			await credential('failMqtt', targets.failMqtt),
			receiver.url,
			'failMqtt',
			{ ...batched, acknowledge: 'executionFinishesSuccessfully' },
		),
	);
	const shared = await credential('two', targets.two);
	for (const which of ['twoA', 'twoB'])
		workflows.push(
			pushWorkflow(`pushShared${which}`, shared, receiver.url, which, {
				eventsPerExecution: 50,
				batchWindow: 1,
			}),
		);
	await importWorkflows(instance, workflows, {});
	for (const workflow of workflows)
		await n8nCommand(instance, ['publish:workflow', `--id=${workflow.id}`]);
	main = await startN8nServer(instance, path.join(logs, 'main.log'), 240_000);
	// Over MQTT a session that does not exist yet misses what is published before it subscribes:
	// one probe event (id 0) per Mosquitto target, sent again every few seconds until taken (the
	// trigger hands on a message id once), proves each trigger is listening.
	for (const [name, routes] of [
		['mqtt', ['mqtt']],
		['failMqtt', ['failMqtt']],
		['two', ['twoA', 'twoB']],
	] as const) {
		const taken = () =>
			routes.every((route) => receiver.of(route).some((h) => h.id === 0 && h.status === 200));
		for (const deadline = Date.now() + 180_000; !taken(); await sleep(5_000)) {
			if (Date.now() > deadline)
				throw new Error(
					`the ${routes.join(' and ')} trigger(s) took no probe event within 180 s; see ${logs}`,
				);
			await targets[name].publish([0]);
		}
	}
}, 900_000);

afterAll(async () => {
	await main?.stop();
	await receiver.stop();
	await Promise.all([rabbit?.stop(), mosquitto?.stop()]);
	if (instance) fs.rmSync(instance.userFolder, { recursive: true, force: true });
}, 180_000);

const n8nLog = () => fs.readFileSync(path.join(logs, 'main.log'), 'utf8');
const eventsOf = (batches: Array<{ ids: number[] }>) =>
	batches.flatMap((b) => b.ids).filter((id) => id > 0);

describe('Drive Monitoring Push Trigger in a real n8n: batches on real brokers', () => {
	it(`AMQP (RabbitMQ): a batch of ${BATCH} in one execution, in order, acknowledged only after it`, async () => {
		receiver.mode('amqp', 'hold');
		await targets.amqp.publish(range(1, BATCH));
		await until(
			() => `the batch's ${BATCH} items (${receiver.of('amqp').length} so far)`,
			() => receiver.of('amqp').length >= BATCH,
			120_000,
		);
		// The execution is running (its requests are held): the broker still holds every message.
		const during = await queueDepth(rabbit, targets.amqp.settings.topic);
		expect(during).toEqual({ ready: 0, unacked: BATCH });
		receiver.release('amqp');
		let after = during;
		for (
			const deadline = Date.now() + 60_000;
			(after.unacked > 0 || after.ready > 0) && Date.now() < deadline;
			await sleep(500)
		)
			after = await queueDepth(rabbit, targets.amqp.settings.topic);
		expect(after).toEqual({ ready: 0, unacked: 0 });
		const batches = receiver.batches('amqp', 200);
		expect(batches).toHaveLength(1);
		expect(batches[0].ids).toEqual(range(1, BATCH));
	});

	it(`MQTT (Mosquitto): ${BATCH} events, each once across executions, in order within each batch`, async () => {
		await targets.mqtt.publish(range(1, BATCH));
		await until(
			() => `${BATCH} events (${new Set(eventsOf(receiver.batches('mqtt', 200))).size} so far)`,
			() => new Set(eventsOf(receiver.batches('mqtt', 200))).size >= BATCH,
			120_000,
		);
		await sleep(3_000); // a repeat would show here
		const batches = receiver.batches('mqtt', 200).filter((b) => b.ids.some((id) => id > 0));
		const ids = eventsOf(batches);
		expect(ids.sort((a, b) => a - b)).toEqual(range(1, BATCH));
		for (const batch of batches) expect(batch.ids).toEqual([...batch.ids].sort((a, b) => a - b));
		// Batched: fewer executions than events, none above the option.
		expect(batches.length).toBeLessThan(BATCH / 2);
		expect(Math.max(...batches.map((b) => b.ids.length))).toBeLessThanOrEqual(BATCH);
		fs.writeFileSync(
			path.join(logs, 'mqtt-batch-sizes.txt'),
			`${batches.map((b) => b.ids.length).join(', ')}\n`,
		);
	});

	it('AMQP: a failed batch comes back whole and is then acknowledged', async () => {
		receiver.mode('failAmqp', 'failFirstExecution');
		await targets.failAmqp.publish(range(1, BATCH));
		await until(
			() =>
				`the failed batch to come back (${receiver.batches('failAmqp', 200).length} successful executions so far)`,
			() => eventsOf(receiver.batches('failAmqp', 200)).length >= BATCH,
			180_000,
		);
		const failed = receiver.batches('failAmqp', 500);
		expect(failed).toHaveLength(1);
		const [again] = receiver.batches('failAmqp', 200);
		// Whole and in order: the same events as the failed execution's batch.
		expect(again.ids).toEqual(range(1, BATCH));
		for (const id of failed[0].ids) expect(again.ids).toContain(id);
		await sleep(3_000);
		expect(eventsOf(receiver.batches('failAmqp', 200))).toEqual(range(1, BATCH));
		let depth = await queueDepth(rabbit, targets.failAmqp.settings.topic);
		for (
			const deadline = Date.now() + 30_000;
			depth.unacked + depth.ready > 0 && Date.now() < deadline;
			await sleep(500)
		)
			depth = await queueDepth(rabbit, targets.failAmqp.settings.topic);
		expect(depth).toEqual({ ready: 0, unacked: 0 });
	});

	it('MQTT: the events of a failed batch come back, each then handled once', async () => {
		receiver.mode('failMqtt', 'failFirstExecution');
		await targets.failMqtt.publish(range(1, BATCH));
		await until(
			() =>
				`every event after the failed batch (${new Set(eventsOf(receiver.batches('failMqtt', 200))).size} so far)`,
			() => new Set(eventsOf(receiver.batches('failMqtt', 200))).size >= BATCH,
			180_000,
		);
		await sleep(3_000);
		const failed = receiver.batches('failMqtt', 500).filter((b) => b.ids.some((id) => id > 0));
		expect(failed).toHaveLength(1);
		const handled = eventsOf(receiver.batches('failMqtt', 200));
		expect([...handled].sort((a, b) => a - b)).toEqual(range(1, BATCH));
		for (const id of failed[0].ids) expect(handled).toContain(id);
	});

	it(
		`two workflows on one credential (Mosquitto), both active ${TWO_WORKFLOWS_MS / 60_000} minutes: both receive every event, neither is disconnected`,
		async () => {
			const slices = 10;
			// The MQTT failed-batch test before drops its own session on purpose: this test's lines only.
			const logFrom = n8nLog().length;
			const started = Date.now();
			for (let slice = 0; slice < slices; slice++) {
				await targets.two.publish(
					range(1 + slice * (TWO_WORKFLOWS_EVENTS / slices), TWO_WORKFLOWS_EVENTS / slices),
				);
				await sleep(Math.max(0, started + ((slice + 1) * TWO_WORKFLOWS_MS) / slices - Date.now()));
			}
			const seen = (route: string) => eventsOf(receiver.batches(route, 200));
			await until(
				() =>
					`both workflows to have every event (${new Set(seen('twoA')).size} and ${new Set(seen('twoB')).size})`,
				() =>
					new Set(seen('twoA')).size >= TWO_WORKFLOWS_EVENTS &&
					new Set(seen('twoB')).size >= TWO_WORKFLOWS_EVENTS,
				120_000,
			);
			await sleep(3_000);
			expect(Date.now() - started).toBeGreaterThanOrEqual(TWO_WORKFLOWS_MS);
			for (const route of ['twoA', 'twoB']) {
				expect([...seen(route)].sort((a, b) => a - b)).toEqual(range(1, TWO_WORKFLOWS_EVENTS));
				expect(repeats(seen(route))).toBe(0);
			}
			expect(mosquitto.log()).not.toMatch(/already connected/);
			expect(n8nLog().slice(logFrom)).not.toMatch(
				/push connection lost|was deactivated|failed at runtime/i,
			);
			const clients = new Set(
				[...mosquitto.log().matchAll(/New client connected from \S+ as (\S+) \(.*u'([^']+)'\)/g)]
					.filter((m) => m[2] === targets.two.settings.userName)
					.map((m) => m[1]),
			);
			expect(clients.size).toBe(2);
		},
		TWO_WORKFLOWS_MS + 300_000,
	);
});
