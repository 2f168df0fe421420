/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Two active workflows on one push credential, each with its own client: over
// Mosquitto each receives every event and neither takes the other's session (the broker's log has
// no "already connected"); a trigger reactivated finds its persistent session again. Over
// RabbitMQ's AMQP 1.0, the user's queue is one queue: two workflows are competing consumers and
// each event reaches one of them, as the node's hint and the guide say.
import type { INode } from 'n8n-workflow';
import { N8nTestEngine } from '../helpers/n8n/engine';
import { waitFor } from '../push/platform';
import { activateTrigger, type ActiveTrigger } from '../push/n8n-trigger';
import { startMosquitto, type Mosquitto } from './mosquitto';
import { startRabbitMq, type RabbitMq } from './rabbitmq';
import { provision, type Subscriber } from './targets';

jest.setTimeout(240_000);

const PUSH: INode['credentials'] = { driveMonitoringPushApi: { id: 'push', name: 'Push' } };
const COUNT = 200;
let rabbit: RabbitMq;
let mosquitto: Mosquitto;
let engine: N8nTestEngine;
const active: ActiveTrigger[] = [];

beforeAll(async () => {
	[rabbit, mosquitto] = await Promise.all([startRabbitMq(), startMosquitto({ log: true })]);
	engine = new N8nTestEngine();
}, 180_000);
afterEach(async () => {
	await Promise.all(active.splice(0).map((t) => t.close()));
});
afterAll(async () => {
	await Promise.all([rabbit?.stop(), mosquitto?.stop()]);
}, 120_000);

async function activate({ url, ...user }: Subscriber, workflowId: string): Promise<ActiveTrigger> {
	engine.addCredential({
		id: 'push',
		name: 'Push',
		type: 'driveMonitoringPushApi',
		data: { brokerUrl: url, ...user, addressTemplate: '' },
	});
	const trigger = await activateTrigger(
		engine,
		{ dataTypes: ['AssetEvent'], options: { parallelMessages: 10 } } as never,
		PUSH,
		{ workflowId },
	);
	active.push(trigger);
	return trigger;
}

const ids = (from: number, count: number): number[] =>
	Array.from({ length: count }, (_, i) => from + i);
const emittedIds = (trigger: ActiveTrigger): number[] =>
	trigger.emitted.map((items) => Number(items[0].json.id));
const distinct = (values: number[]): number[] => [...new Set(values)].sort((a, b) => a - b);

test('Mosquitto: two workflows on one credential each receive every event, and neither is disconnected', async () => {
	const target = await provision({ mosquitto }, 'mosquitto', { orgId: 28, assetId: 2800 });
	const [a, b] = await Promise.all([
		activate(target.settings, 'workflow-a'),
		activate(target.settings, 'workflow-b'),
	]);
	await target.publish(ids(1, COUNT));
	await waitFor(
		() => distinct(emittedIds(a)).length >= COUNT && distinct(emittedIds(b)).length >= COUNT,
		`${COUNT} events in each workflow (${distinct(emittedIds(a)).length} and ${distinct(emittedIds(b)).length} so far)`,
		120_000,
	);
	await waitFor(
		() => a.runs.length >= a.emitted.length && b.runs.length >= b.emitted.length,
		'every execution finished',
	);
	await new Promise((r) => setTimeout(r, 500)); // a late repeat would show here
	for (const trigger of [a, b]) {
		expect(trigger.errors).toEqual([]);
		expect(emittedIds(trigger).sort((x, y) => x - y)).toEqual(ids(1, COUNT)); // each once, no repeats
	}
	expect(mosquitto.log()).not.toMatch(/already connected/);
	// Each workflow logged in with its own 23-byte client id.
	const logins = [
		...mosquitto.log().matchAll(/New client connected from \S+ as (\S+) \(.*u'([^']+)'\)/g),
	];
	const clients = new Set(logins.filter((m) => m[2] === target.settings.userName).map((m) => m[1]));
	expect(clients.size).toBe(2);
	for (const client of clients) expect(Buffer.byteLength(client)).toBeLessThanOrEqual(23);

	// Stable across restarts: workflow A deactivated, events published, A activated again finds
	// its persistent session with what came meanwhile.
	await a.close();
	active.splice(active.indexOf(a), 1);
	await target.publish(ids(COUNT + 1, 20));
	const again = await activate(target.settings, 'workflow-a');
	await waitFor(
		() => distinct(emittedIds(again)).length >= 20 && distinct(emittedIds(b)).length >= COUNT + 20,
		'the events published while workflow A was off',
	);
	expect(distinct(emittedIds(again))).toEqual(ids(COUNT + 1, 20));
	expect(mosquitto.log()).not.toMatch(/already connected/);
});

test("RabbitMQ AMQP 1.0: two workflows on one credential share the user's queue, each event reaching one of them", async () => {
	const target = await provision({ rabbit }, 'rabbitmq-amqp', { orgId: 28, assetId: 2801 });
	const [a, b] = await Promise.all([
		activate(target.settings, 'workflow-a'),
		activate(target.settings, 'workflow-b'),
	]);
	await target.publish(ids(1, COUNT));
	await waitFor(
		() => distinct([...emittedIds(a), ...emittedIds(b)]).length >= COUNT,
		`${COUNT} events across both workflows`,
		120_000,
	);
	await new Promise((r) => setTimeout(r, 500));
	expect([...emittedIds(a), ...emittedIds(b)].sort((x, y) => x - y)).toEqual(ids(1, COUNT));
	expect(a.errors).toEqual([]);
	expect(b.errors).toEqual([]);
	// Competing consumers: both got a share, neither was closed.
	expect(emittedIds(a).length).toBeGreaterThan(0);
	expect(emittedIds(b).length).toBeGreaterThan(0);
});
