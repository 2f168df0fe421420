/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The push trigger's batches in n8n's queue mode: `n8n start` (main: the trigger, the
// queue) and `n8n worker` on Debian's redis-server, events from Debian's RabbitMQ over AMQP 1.0.
// The worker running a batch is killed with kill -9 (and its task runner with it), a new worker
// is started: the batch comes back (released by the trigger's Execution Timeout, set short here,
// or re-run by n8n's queue when it finds the job stalled) and is processed; nothing is lost, at
// most the batch in flight is repeated, and the trigger goes on taking events.
import fs from 'node:fs';
import path from 'node:path';

import {
	n8nCommand,
	queueModeEnv,
	startN8nServer,
	startN8nWorker,
	type N8nInstance,
	type N8nServer,
	type N8nWorker,
} from '../../scripts/n8n/instance';
import { startRedis, type RedisServer } from '../../scripts/n8n/redis';
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
} from './push-harness';

const BATCH = 100;
/** Execution Timeout (minutes): short, so the batch of the killed worker is released within the test. */
const EXECUTION_TIMEOUT_MIN = 0.5;
const ROUTE = 'queue';

const logs = path.join(ARTIFACTS, 'queue-push');
let instance: N8nInstance;
let rabbit: RabbitMq;
let redis: RedisServer;
let main: N8nServer;
const workers: N8nWorker[] = [];
let target: BrokerTarget;
const receiver = new Receiver();
const queue = () => queueModeEnv(redis.port);

beforeAll(async () => {
	fs.mkdirSync(logs, { recursive: true });
	[rabbit, redis] = await Promise.all([startRabbitMq(), startRedis()]);
	instance = await pushInstance('n8n-queue-push-');
	await receiver.start();
	target = await provision({ rabbit }, 'rabbitmq-amqp', { orgId: 28, assetId: 2810 });
	const credential = { id: 'dmQueuePushCrd28', name: 'Push (queue)' };
	const { url, ...user } = target.settings;
	await importCredential(instance, {
		...credential,
		type: 'driveMonitoringPushApi',
		data: { brokerUrl: url, ...user, addressTemplate: '' },
	});
	const workflow = pushWorkflow('queuePushBatch', credential, receiver.url, ROUTE, {
		eventsPerExecution: BATCH,
		batchWindow: 3,
		executionTimeout: EXECUTION_TIMEOUT_MIN,
		acknowledge: 'executionFinishes',
	});
	await importWorkflows(instance, [workflow], {});
	await n8nCommand(instance, ['publish:workflow', `--id=${workflow.id}`]);
	workers.push(await startN8nWorker(instance, path.join(logs, 'worker-1.log'), queue()));
	main = await startN8nServer(instance, path.join(logs, 'main.log'), 240_000, queue());
}, 900_000);

afterAll(async () => {
	await main?.stop();
	for (const worker of workers) await worker.stop();
	await receiver.stop();
	await Promise.all([redis?.stop(), rabbit?.stop()]);
	if (instance) fs.rmSync(instance.userFolder, { recursive: true, force: true });
}, 180_000);

/** kill -9 of the worker's process group: the worker and the task runner it started. */
async function killWorker(worker: N8nWorker): Promise<void> {
	const exited = new Promise((resolve) => worker.process.once('exit', resolve));
	process.kill(-worker.process.pid!, 'SIGKILL');
	await exited;
}

describe('Drive Monitoring Push Trigger in n8n queue mode (main + worker on Redis, RabbitMQ)', () => {
	it(`a worker killed with kill -9 mid-batch: the batch comes back and is processed, nothing lost, at most the batch in flight repeated`, async () => {
		receiver.mode(ROUTE, 'hold');
		await target.publish(range(1, BATCH));
		// The worker runs the batch: its requests reach the receiver, which holds them.
		await until(
			() => `the worker to start the batch (${receiver.of(ROUTE).length} items so far)`,
			() => receiver.of(ROUTE).length > 0,
			240_000,
		);
		await killWorker(workers[0]);
		// What the killed worker handed on does not count as processed.
		const handedBeforeKill = receiver.handed.length;
		receiver.release(ROUTE);
		const killedAt = Date.now();
		workers.push(await startN8nWorker(instance, path.join(logs, 'worker-2.log'), queue()));

		const processed = () =>
			receiver.handed
				.slice(handedBeforeKill)
				.filter((h) => h.route === ROUTE && h.status === 200)
				.map((h) => h.id);
		await until(
			() =>
				`the batch to be processed after the kill (${new Set(processed()).size} of ${BATCH} events so far)`,
			() => new Set(processed()).size >= BATCH,
			300_000,
		);
		const comeBackMs = Date.now() - killedAt;

		// The trigger goes on: a second batch after the first is processed too.
		await target.publish(range(BATCH + 1, BATCH));
		await until(
			() => `the next batch (${new Set(processed()).size} of ${2 * BATCH} events so far)`,
			() => new Set(processed()).size >= 2 * BATCH,
			240_000,
		);
		await sleep(5_000); // a late repeat would show here
		const ids = processed();
		expect([...new Set(ids)].sort((a, b) => a - b)).toEqual(range(1, 2 * BATCH));
		expect(repeats(ids)).toBeLessThanOrEqual(BATCH);
		expect(await queueDepth(rabbit, target.settings.topic)).toEqual({ ready: 0, unacked: 0 });
		// Each batch in order within its execution.
		for (const batch of receiver.batches(ROUTE, 200))
			expect(batch.ids).toEqual([...batch.ids].sort((a, b) => a - b));
		// Back within the Execution Timeout plus n8n's start of a worker and the batch window.
		expect(comeBackMs).toBeLessThan(EXECUTION_TIMEOUT_MIN * 60_000 + 240_000);
		fs.writeFileSync(
			path.join(logs, 'figures.json'),
			JSON.stringify(
				{
					comeBackMs,
					repeated: repeats(ids),
					batches: receiver
						.batches(ROUTE)
						.map((b) => ({ execution: b.execution, size: b.ids.length })),
				},
				null,
				2,
			),
		);
	}, 900_000);
});
