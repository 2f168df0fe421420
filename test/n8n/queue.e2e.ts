/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// n8n's queue mode with both packages installed from their tarballs: Debian's redis-server on
// 127.0.0.1, `n8n start` (main: webhooks, triggers, the queue) and one `n8n worker` (executions),
// sharing one database and user folder of their own. In it:
// - a webhook workflow with the Drive Monitoring node runs on the worker;
// - the push trigger acknowledging "when the execution finishes" turns 200 pushed events into
//   200 executions, none lost and none twice, without stalling (n8n's RabbitMQ trigger stalls in
//   this set-up: n8n-io/n8n#19877);
// - the poll trigger hands each new event on once.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { createClient, type DriveMonitoringClient } from '../../shared';
import { startSimulator, type Simulator } from '../../simulator';
import { installPack, productTarball } from '../../scripts/n8n/install-pack';
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
import {
	ARTIFACTS,
	WORKFLOWS_DIR,
	driveMonitoringCredentialData,
	fill,
	fixtures,
	importCredential,
	importWorkflows,
	readState,
	readWorkflows,
	type WorkflowJson,
} from './harness';

const PUSHED = 200;
const state = readState();
const logs = path.join(ARTIFACTS, 'queue');
let instance: N8nInstance;
let simulator: Simulator;
let redis: RedisServer;
let main: N8nServer;
let worker: N8nWorker;
let receiver: http.Server;
let receiverUrl: string;
const received: Array<{ path: string; body: Record<string, unknown> }> = [];
let values: Record<string, string>;

function startReceiver(): Promise<string> {
	receiver = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			received.push({
				path: request.url ?? '',
				body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>,
			});
			response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
	});
	return new Promise((resolve) =>
		receiver.listen(0, '127.0.0.1', () =>
			resolve(`http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}`),
		),
	);
}

async function until<T>(
	what: string,
	probe: () => T | undefined | false,
	timeoutMs: number,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = probe();
		if (value) return value;
		if (Date.now() > deadline)
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

const handed = (route: string) => received.filter((r) => r.path === route).map((r) => r.body);

function pushWorkflow(): WorkflowJson {
	return {
		id: 'queuePushAck',
		name: 'Queue: pushed events, acknowledged after the execution',
		nodes: [
			{
				name: 'Pushed Events',
				type: 'n8n-nodes-drive-monitoring-push.driveMonitoringPushTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					dataTypes: ['AssetEvent'],
					filters: {},
					options: { acknowledge: 'executionFinishes' },
				},
				credentials: { driveMonitoringPushApi: { id: 'x', name: 'x' } },
			},
			{
				name: 'Hand To Test',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [240, 0],
				parameters: {
					method: 'POST',
					url: `${receiverUrl}/push`,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '={{ JSON.stringify({ messageId: $json.messageId, id: $json.id }) }}',
					options: {},
				},
			},
		],
		connections: {
			'Pushed Events': { main: [[{ node: 'Hand To Test', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

function webhookWorkflow(): WorkflowJson {
	return {
		id: 'queueWebhookOrg',
		name: 'Queue: webhook, then the organization',
		nodes: [
			{
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: 'a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
				parameters: {
					path: 'dm-queue-org',
					httpMethod: 'GET',
					responseMode: 'lastNode',
					options: {},
				},
			},
			{
				name: 'Get Organization',
				type: 'n8n-nodes-drive-monitoring.driveMonitoring',
				typeVersion: 1,
				position: [240, 0],
				parameters: { resource: 'organization', operation: 'get' },
				credentials: { driveMonitoringApi: { id: 'x', name: 'x' } },
			},
		],
		connections: { Webhook: { main: [[{ node: 'Get Organization', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

beforeAll(async () => {
	fs.mkdirSync(logs, { recursive: true });
	// Its own n8n user folder (database, key, community packages), apart from the other e2e files.
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-'));
	instance = {
		runtime: state.instance.runtime,
		userFolder,
		encryptionKey: crypto.randomBytes(24).toString('hex'),
	};
	await installPack(productTarball('n8n-nodes-drive-monitoring'), userFolder);
	await installPack(productTarball('n8n-nodes-drive-monitoring-push'), userFolder);

	simulator = await startSimulator({ push: true });
	receiverUrl = await startReceiver();
	const api = driveMonitoringCredentialData(simulator.info);
	const orgId = simulator.info.credentials.find((c) => c.apiKey === api.apiKey)!.orgId;
	values = { ...fixtures(simulator, orgId), receiverUrl: `${receiverUrl}/poll` };

	const client: DriveMonitoringClient = createClient(api);
	const user = await client.dataSubscription.createUser();
	const topic = `queue-${crypto.randomUUID().slice(0, 8)}`;
	await client.dataSubscription.setDataTypes({
		subCustomerId: user.id,
		topicName: topic,
		subDataTypes: ['AssetEvent'],
	});
	await client.close();

	const apiCredential = { id: 'dmQueueApiCred01', name: 'Simulator (queue)' };
	const pushCredential = { id: 'dmQueuePushCred1', name: 'Simulator push (queue)' };
	await importCredential(instance, { ...apiCredential, type: 'driveMonitoringApi', data: api });
	await importCredential(instance, {
		...pushCredential,
		type: 'driveMonitoringPushApi',
		data: {
			brokerUrl: simulator.info.pushUrls.amqp,
			userName: String(user.userName),
			password: String(user.password),
			topic,
			addressTemplate: '',
		},
	});
	const active = [
		...readWorkflows(path.join(WORKFLOWS_DIR, 'active')).map((w) => fill(w, values)),
		pushWorkflow(),
		webhookWorkflow(),
	];
	await importWorkflows(instance, active, {
		driveMonitoringApi: apiCredential,
		driveMonitoringPushApi: pushCredential,
	});
	for (const workflow of active)
		await n8nCommand(instance, ['publish:workflow', `--id=${workflow.id}`]);

	redis = await startRedis();
	const queue = queueModeEnv(redis.port);
	worker = await startN8nWorker(instance, path.join(logs, 'worker.log'), queue);
	main = await startN8nServer(instance, path.join(logs, 'main.log'), 180_000, queue);
}, 600_000);

afterAll(async () => {
	await main?.stop();
	await worker?.stop();
	await redis?.stop();
	await simulator?.close();
	await new Promise((resolve) => receiver?.close(resolve));
	if (instance) fs.rmSync(instance.userFolder, { recursive: true, force: true });
});

describe('n8n in queue mode (main + one worker on Redis) with both packages', () => {
	it('runs a webhook workflow with the Drive Monitoring node on the worker', async () => {
		// n8n registers production webhooks while it activates workflows, which may end after it
		// reports ready: ask until the path is known.
		let response = await fetch(`${main.url}/webhook/dm-queue-org`);
		for (
			const deadline = Date.now() + 120_000;
			response.status === 404 && Date.now() < deadline;
			response = await fetch(`${main.url}/webhook/dm-queue-org`)
		) {
			await response.text();
			await new Promise((resolve) => setTimeout(resolve, 1_000));
		}
		const text = await response.text();
		expect(response.status).toBe(200);
		expect(text).toContain(String(values.orgId));
		await until(
			'the worker to report the execution',
			() => /started execution|Execution \d+ .*finished|finished execution/i.test(worker.log()),
			30_000,
		);
	});

	it(`turns ${PUSHED} pushed events into ${PUSHED} executions, none lost and none twice, acknowledging each after its execution`, async () => {
		const assetId = Number(values.premiumDriveId);
		const raised: string[] = [];
		for (let i = 0; i < PUSHED; i++)
			raised.push(String(simulator.control.raiseEvent(assetId, { eventType: 'Notification' }).id));
		const done = await until(
			`${PUSHED} executions to hand their event on (so far ${handed('/push').length})`,
			() => (new Set(handed('/push').map((b) => String(b.id))).size >= PUSHED ? true : undefined),
			600_000,
		);
		expect(done).toBe(true);
		// A moment for anything sent twice to arrive, then count.
		await new Promise((resolve) => setTimeout(resolve, 3_000));
		const ids = handed('/push').map((b) => String(b.id));
		expect(new Set(ids).size).toBe(PUSHED);
		expect(ids.length).toBe(PUSHED);
		expect([...new Set(ids)].sort()).toEqual([...raised].sort());
	}, 700_000);

	it('the poll trigger hands each new event on once', async () => {
		const assetId = Number(values.premiumDriveId);
		const polls = () =>
			simulator.requests.api('E14').filter((r) => r.path.includes(`/${assetId}/`)).length;
		const seen = () => handed('/poll').map((b) => Number(b.id));
		const start = polls();
		await until('a poll after the push burst', () => polls() > start, 150_000);
		const first = Number(
			simulator.control.raiseEvent(assetId, {
				eventType: 'Fault',
				eventCode: '2310',
				content: 'Overcurrent (2310)',
			}).id,
		);
		await until(`event ${first} to be handed on`, () => seen().includes(first), 150_000);
		const after = polls();
		await until(
			'one more poll, whose window overlaps the previous',
			() => polls() > after,
			150_000,
		);
		await new Promise((resolve) => setTimeout(resolve, 5_000));
		expect(seen().filter((id) => id === first)).toHaveLength(1);
	}, 500_000);
});
