/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The built Drive Monitoring Trigger (dist/) in n8n-core's trigger and poll machinery, against
// the simulator over real sockets: pushed data through both brokers, polled data over HTTP.
import { randomUUID } from 'node:crypto';
import type { INode } from 'n8n-workflow';
import { startFixture, type Fixture } from '../nodes/fixture';
import {
	activateTrigger,
	flakyNode,
	poller,
	publishAsN8nDoes,
	PUSH_TRIGGER_TYPE,
	type ActiveTrigger,
} from './n8n-trigger';
import { waitFor } from './platform';

let fx: Fixture;
let user: { userName: string; password: string; topic: string };
let driveId: number;
const active: ActiveTrigger[] = [];
const PUSH: INode['credentials'] = { driveMonitoringPushApi: { id: 'push', name: 'Push' } };
const API: INode['credentials'] = {
	driveMonitoringApi: { id: 'eu', name: 'Drive Monitoring (end user)' },
};

beforeAll(async () => {
	fx = await startFixture({ push: true });
	const created = await fx.direct.dataSubscription.createUser();
	const topic = `plant-${randomUUID().slice(0, 8)}`;
	await fx.direct.dataSubscription.setDataTypes({
		subCustomerId: created.id,
		topicName: topic,
		subDataTypes: ['AssetEvent', 'AssetCBM'],
	});
	user = { userName: String(created.userName), password: String(created.password), topic };
	driveId = fx.asset((a) => a.assetType === 'Drive' && !a.unsubscribed, 'subscribed drive').id;
	fx.engine.addNodeTypes({ 'test.flaky': flakyNode(() => failing) });
});
afterEach(async () => {
	await Promise.all(active.splice(0).map((t) => t.close()));
});
afterAll(async () => {
	await fx.close();
});

let failing = false;

function pushCredential(protocol: 'amqp' | 'mqtt'): void {
	fx.engine.addCredential({
		id: 'push',
		name: 'Push',
		type: 'driveMonitoringPushApi',
		data: { brokerUrl: fx.sim.info.pushUrls[protocol], ...user, addressTemplate: '' },
	});
}

async function activate(
	parameters: Record<string, unknown>,
	withFlaky = false,
	holdExecutions?: () => boolean,
): Promise<ActiveTrigger> {
	const trigger = await activateTrigger(
		fx.engine,
		{ mode: 'push', dataTypes: ['AssetEvent'], ...parameters } as never,
		PUSH,
		{ withFlaky, holdExecutions },
	);
	active.push(trigger);
	return trigger;
}

describe.each(['amqp', 'mqtt'] as const)('push mode over %s', (protocol) => {
	beforeAll(() => pushCredential(protocol));

	test('emits one item per pushed event, filtered, and acknowledges after the execution finished', async () => {
		let hold = true;
		const first = await activate(
			{
				filters: { eventTypes: ['Fault'] },
				options: { acknowledge: 'executionFinishes', includeRaw: true },
			},
			false,
			() => hold,
		);
		const fault = fx.sim.control.raiseEvent(driveId, { eventType: 'Fault' });
		fx.sim.control.raiseEvent(driveId, { eventType: 'Notification' }); // filtered out
		await waitFor(
			() => first.emitted.length === 1 && first.runs.length === 1,
			'the fault to be emitted and executed',
		);
		const item = first.emitted[0][0].json;
		expect(item).toMatchObject({
			dataType: 'AssetEvent',
			assetId: driveId,
			id: fault.id,
			eventType: 'Fault',
			eventStatus: 'Open',
		});
		expect(item.raw).toMatchObject({ dataType: 'AssetEvent', messageId: item.messageId });
		expect(JSON.stringify(first.emitted)).not.toContain(user.password);
		// The execution ran but is not finished for n8n yet (donePromise open): deactivating now
		// leaves the message unacknowledged, so the next activation receives it again.
		await first.close();
		active.splice(active.indexOf(first), 1);
		hold = false;
		const second = await activate({
			filters: { eventTypes: ['Fault'] },
			options: { acknowledge: 'executionFinishes' },
		});
		await waitFor(() => second.runs.length === 1, 'the unacknowledged fault again');
		expect(second.emitted[0][0].json.messageId).toBe(item.messageId);
		await new Promise((r) => setTimeout(r, 300)); // let the acknowledgement reach the broker
		await second.close();
		active.splice(active.indexOf(second), 1);
		// Acknowledged after that execution: a third activation gets nothing old.
		const third = await activate({ options: { acknowledge: 'executionFinishes' } });
		const later = fx.sim.control.raiseEvent(driveId, { eventType: 'Warning' });
		await waitFor(() => third.emitted.length >= 1, 'the new warning');
		await new Promise((r) => setTimeout(r, 300));
		expect(third.emitted.map((items) => items[0].json.id)).toEqual([later.id]);
		expect(third.errors).toEqual([]);
	});

	test('"after execution finished successfully" gives a failed execution its message again', async () => {
		failing = true;
		const trigger = await activate(
			{ options: { acknowledge: 'executionFinishesSuccessfully' } },
			true,
		);
		const event = fx.sim.control.raiseEvent(driveId, { eventType: 'Warning' });
		await waitFor(() => trigger.runs.length >= 1, 'the failing execution');
		expect(trigger.runs[0].data.resultData.error).toBeDefined();
		failing = false;
		await waitFor(
			() => trigger.runs.some((r) => !r.data.resultData.error),
			'a successful execution of the redelivery',
			20_000,
		);
		await new Promise((r) => setTimeout(r, 300));
		const ids = trigger.emitted.map((items) => items[0].json.id);
		expect(new Set(ids)).toEqual(new Set([event.id]));
		expect(trigger.runs.filter((r) => !r.data.resultData.error)).toHaveLength(1);
	});
});

describe.each(['amqp', 'mqtt'] as const)('Events per Execution over %s', (protocol) => {
	beforeAll(() => pushCredential(protocol));

	test('one execution per batch: items in order, each event once, a partial batch after the Batch Window', async () => {
		const trigger = await activate({ options: { eventsPerExecution: 5, batchWindow: 0.3 } });
		const raised = Array.from({ length: 12 }, () =>
			Number(fx.sim.control.raiseEvent(driveId, { eventType: 'Fault' }).id),
		);
		const emittedIds = () =>
			trigger.emitted.flatMap((items) => items.map((item) => Number(item.json.id)));
		await waitFor(
			() =>
				raised.every((id) => emittedIds().includes(id)) &&
				trigger.runs.length >= trigger.emitted.length,
			'every raised event in a batch',
		);
		await new Promise((r) => setTimeout(r, 300)); // a repeat would show here
		// Earlier tests' leftovers in the user's queue may come first; the raised ones once, in order.
		expect(emittedIds().filter((id) => raised.includes(id))).toEqual(raised);
		expect(trigger.emitted.every((items) => items.length <= 5)).toBe(true);
		expect(trigger.emitted.length).toBeLessThan(raised.length); // batched, not one per event
		expect(trigger.emitted.some((items) => items.length === 5)).toBe(true);
		expect(trigger.runs.length).toBe(trigger.emitted.length);
		expect(trigger.errors).toEqual([]);
	});

	test('every event of a failed batch comes back when acknowledging on success; one warning per failed batch', async () => {
		failing = true;
		const warnings: string[] = [];
		const logger = {
			warn: (m: string) => warnings.push(m),
			debug: () => undefined,
			info: () => undefined,
			error: () => undefined,
		};
		const trigger = await activateTrigger(
			fx.engine,
			{
				mode: 'push',
				dataTypes: ['AssetEvent'],
				options: {
					eventsPerExecution: 4,
					batchWindow: 0.3,
					acknowledge: 'executionFinishesSuccessfully',
				},
			} as never,
			PUSH,
			{ withFlaky: true, logger: logger as never },
		);
		active.push(trigger);
		const raised = Array.from({ length: 4 }, () =>
			Number(fx.sim.control.raiseEvent(driveId, { eventType: 'Warning' }).id),
		);
		await waitFor(() => trigger.runs.length >= 1, 'the failing batch');
		failing = false;
		await waitFor(
			() => trigger.runs.some((r) => !r.data.resultData.error),
			'the batch again, succeeding',
			20_000,
		);
		await new Promise((r) => setTimeout(r, 300));
		const succeeded = trigger.runs
			.filter((r) => !r.data.resultData.error)
			.flatMap((r) =>
				r.data.resultData.runData['Drive Monitoring Trigger'][0].data!.main[0]!.map((i) =>
					Number(i.json.id),
				),
			);
		expect(succeeded.sort((a, b) => a - b)).toEqual([...raised].sort((a, b) => a - b));
		const ids = trigger.emitted.flatMap((items) => items.map((item) => Number(item.json.id)));
		expect(new Set(ids)).toEqual(new Set(raised));
		expect(ids.length).toBeGreaterThanOrEqual(2 * raised.length); // the failed ones emitted again
		// A failed execution is one warning, however many messages its batch held: how many, and what becomes of them.
		const failedRuns = trigger.runs.filter((r) => r.data.resultData.error);
		const failedBatches = failedRuns.map(
			(r) => r.data.resultData.runData['Drive Monitoring Trigger'][0].data!.main[0]!.length,
		);
		const told = warnings.filter((w) => w.startsWith('push handler failed'));
		expect(failedBatches.some((size) => size > 1)).toBe(true);
		expect(told).toHaveLength(failedRuns.length);
		for (const [i, size] of failedBatches.entries()) {
			expect(told[i]).toMatch(
				size > 1
					? new RegExp(
							`^push handler failed for a batch of ${size} messages \\(from AssetEvent AssetEvent:\\d+:\\d+:Open\\); all ${size} stay with the broker and are delivered again: the execution failed \\(.+\\) and Acknowledge is "Execution Finishes Successfully"$`,
						)
					: /^push handler failed for AssetEvent .*; it stays with the broker and is delivered again: the execution failed/,
			);
		}
	});
});

describe.each(['amqp', 'mqtt'] as const)('Execution Timeout over %s', (protocol) => {
	beforeAll(() => pushCredential(protocol));

	test('an execution that never reports back: its message is released after the timeout, a warning names it, and the trigger keeps consuming', async () => {
		const logged: Record<'warn' | 'debug', string[]> = { warn: [], debug: [] };
		const logger = {
			warn: (m: string) => logged.warn.push(m),
			debug: (m: string) => logged.debug.push(m),
			info: () => undefined,
			error: () => undefined,
		};
		const stuck = { id: NaN };
		let lost = false;
		// The first execution of the first event is lost (its donePromise never settles), as when a
		// queue-mode worker is killed mid-run; Parallel Messages 1: without a timeout nothing more came.
		const trigger = await activateTrigger(
			fx.engine,
			{
				dataTypes: ['AssetEvent'],
				options: { parallelMessages: 1, executionTimeout: 0.02 },
			} as never,
			PUSH,
			{
				logger: logger as never,
				neverReports: (items) => {
					if (lost || Number(items[0].json.id) !== stuck.id) return false;
					lost = true;
					return true;
				},
			},
		);
		active.push(trigger);
		stuck.id = Number(fx.sim.control.raiseEvent(driveId, { eventType: 'Fault' }).id);
		const next = { id: Number(fx.sim.control.raiseEvent(driveId, { eventType: 'Warning' }).id) };
		const emittedIds = () => trigger.emitted.map((items) => Number(items[0].json.id));
		await waitFor(
			() =>
				emittedIds().filter((id) => id === stuck.id).length === 2 && emittedIds().includes(next.id),
			'the stuck event again, then the next one',
			20_000,
		);
		// Released, not acknowledged: it came back, and the next one was taken too.
		await new Promise((r) => setTimeout(r, 300)); // a third run of either would show here
		expect(
			emittedIds()
				.filter((id) => id === stuck.id || id === next.id)
				.sort((a, b) => a - b),
		).toEqual([stuck.id, stuck.id, next.id].sort((a, b) => a - b));
		expect(trigger.errors).toEqual([]);
		const warning = logged.warn.find((m) => m.includes('did not report back'));
		expect(warning).toContain(`AssetEvent AssetEvent:${driveId}:${String(stuck.id)}:Open`);
		expect(warning).toMatch(
			/started at \d{4}-\d\d-\d\dT[\d:.]+Z .*Execution Timeout \(1\.2 s\).*released to the broker/,
		);
		expect(
			logged.debug.some((m) =>
				/1 message\(s\) held, oldest held 1\.\d s, 1 execution\(s\) waiting/.test(m),
			),
		).toBe(true);
		expect(JSON.stringify(logged)).not.toContain(user.password);
	});
});

describe.each(['amqp', 'mqtt'] as const)('published in n8n 2.41, over %s', (protocol) => {
	beforeAll(() => pushCredential(protocol));

	test('n8n starts the trigger function once, and a burst runs one execution per event', async () => {
		const { started, trigger } = await publishAsN8nDoes(
			fx.engine,
			{ dataTypes: ['AssetEvent'], options: { parallelMessages: 10 } } as never,
			PUSH,
		);
		active.push(trigger);
		const ids = Array.from({ length: 60 }, () =>
			Number(fx.sim.control.raiseEvent(driveId, { eventType: 'Fault' }).id),
		);
		await waitFor(
			() =>
				new Set(
					trigger.runs.map(
						(r) =>
							r.data.resultData.runData['Drive Monitoring Trigger']?.[0]?.data?.main?.[0]?.[0]?.json
								.id,
					),
				).size >= ids.length,
			'an execution of every event',
			60_000,
		);
		await new Promise((r) => setTimeout(r, 500)); // a late second execution would show here
		const executed = trigger.emitted
			.map((items) => Number(items[0].json.id))
			.filter((id) => ids.includes(id));
		expect(executed.sort()).toEqual([...ids].sort());
		expect(trigger.errors).toEqual([]);
		// n8n 2.41 registers a node once per listing among trigger and poll nodes: a push trigger
		// that also had a poll function would run two receivers, which over MQTT take the persistent
		// session from each other and run the other's unacknowledged messages again (Q1).
		expect(started).toBe(1);
	});

	test('"Listen for test event" (manual mode) hands on one pushed event through the trigger function', async () => {
		const run = fx.engine.run({
			nodes: [
				{
					id: 'push',
					name: 'Push',
					type: PUSH_TRIGGER_TYPE,
					typeVersion: 1,
					position: [0, 0],
					parameters: { dataTypes: ['AssetEvent'], filters: { eventTypes: ['Warning'] } },
					credentials: PUSH,
				},
			],
			connections: {},
		});
		let finished = false;
		void run.finally(() => (finished = true));
		// The test session subscribes once n8n runs the node: raise events until one arrives.
		const raised: number[] = [];
		while (!finished && raised.length < 100) {
			fx.sim.control.raiseEvent(driveId, { eventType: 'Notification' }); // filtered out
			raised.push(Number(fx.sim.control.raiseEvent(driveId, { eventType: 'Warning' }).id));
			await new Promise((r) => setTimeout(r, 200));
		}
		const result = await run;
		const items = result.output('Push') ?? [];
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			dataType: 'AssetEvent',
			assetId: driveId,
			eventType: 'Warning',
		});
		expect(raised).toContain(Number(items[0].json.id));
	});
});

test('push mode with a wrong password fails the activation with the terminal message', async () => {
	fx.engine.addCredential({
		id: 'push',
		name: 'Push',
		type: 'driveMonitoringPushApi',
		data: { brokerUrl: fx.sim.info.pushUrls.amqp, ...user, password: 'wrong-password' },
	});
	const error = await activate({}).catch((e: unknown) => e as Error);
	expect(error).toBeInstanceOf(Error);
	expect((error as Error).message).toContain(
		'credentials rejected: was the password reset or the user deleted?',
	);
	expect((error as Error).message).not.toContain('wrong-password');
});

test('poll mode emits each new event exactly once across consecutive polls, window boundaries included', async () => {
	const poll = poller(
		fx.engine,
		{
			mode: 'poll',
			watch: ['events'],
			scope: 'assets',
			assetIds: String(driveId),
			options: { lateMarginMinutes: 0 },
		} as never,
		API,
	);
	const tick = () => new Promise((r) => setTimeout(r, 1100)); // API times are whole seconds
	fx.sim.control.raiseEvent(driveId, { eventType: 'Fault' }); // listed before activation: baseline only
	await tick();
	expect(await poll()).toEqual([]);
	const emitted: number[] = [];
	const raised: number[] = [];
	for (let round = 0; round < 4; round++) {
		// One event right before a poll, one while it runs: both sit on the boundary of two windows.
		raised.push(
			Number(fx.sim.control.raiseEvent(driveId, { eventType: round % 2 ? 'Warning' : 'Fault' }).id),
		);
		const polled = poll();
		raised.push(Number(fx.sim.control.raiseEvent(driveId, { eventType: 'Notification' }).id));
		emitted.push(...(await polled).map((i) => Number(i.json.id)));
		await tick();
	}
	for (let i = 0; i < 2; i++) {
		emitted.push(...(await poll()).map((item) => Number(item.json.id)));
		await tick();
	}
	expect([...emitted].sort((x, y) => x - y)).toEqual([...raised].sort((x, y) => x - y));
});

test('poll mode over a whole organization leaves out an expired asset instead of failing the poll', async () => {
	const expired = fx.sim.fleet
		.assets()
		.filter((a) => a.orgId === fx.euOrgId && a.level === 'expired');
	expect(expired.length).toBeGreaterThan(0);
	const poll = poller(
		fx.engine,
		{
			mode: 'poll',
			watch: ['events'],
			scope: 'organization',
			orgId: fx.euOrgId,
			options: { lateMarginMinutes: 0 },
		} as never,
		API,
	);
	expect(await poll()).toEqual([]);
	const fault = fx.sim.control.raiseEvent(driveId, { eventType: 'Fault' });
	const items = await poll();
	expect(items.map((i) => i.json.id)).toEqual([fault.id]);
	const refused = fx.sim.requests
		.api('E14')
		.filter((c) => expired.some((a) => c.path.endsWith(`/assetdata/${a.id}/event`)));
	expect(refused.length).toBeGreaterThan(0);
	expect(refused.every((c) => c.status === 400)).toBe(true);
});
