// The built Drive Monitoring Trigger (dist/) in n8n-core's trigger and poll machinery, against
// the simulator over real sockets: pushed data through both brokers, polled data over HTTP.
import { randomUUID } from 'node:crypto';
import type { INode } from 'n8n-workflow';
import { startFixture, type Fixture } from '../nodes/fixture';
import { activateTrigger, flakyNode, poller, type ActiveTrigger } from './n8n-trigger';
import { waitFor } from './platform';

let fx: Fixture;
let user: { userName: string; password: string; topic: string };
let driveId: number;
const active: ActiveTrigger[] = [];
const PUSH: INode['credentials'] = { driveMonitoringPushApi: { id: 'push', name: 'Push' } };
const API: INode['credentials'] = { driveMonitoringApi: { id: 'eu', name: 'Drive Monitoring (end user)' } };

beforeAll(async () => {
  fx = await startFixture({ push: true });
  const created = await fx.direct.dataSubscription.createUser();
  const topic = `plant-${randomUUID().slice(0, 8)}`;
  await fx.direct.dataSubscription.setDataTypes({ subCustomerId: created.id, topicName: topic, subDataTypes: ['AssetEvent', 'AssetCBM'] });
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
  fx.engine.addCredential({ id: 'push', name: 'Push', type: 'driveMonitoringPushApi', data: { brokerUrl: fx.sim.info.pushUrls[protocol], ...user, addressTemplate: '' } });
}

async function activate(parameters: Record<string, unknown>, withFlaky = false, holdExecutions?: () => boolean): Promise<ActiveTrigger> {
  const trigger = await activateTrigger(fx.engine, { mode: 'push', dataTypes: ['AssetEvent'], ...parameters } as never, PUSH, { withFlaky, holdExecutions });
  active.push(trigger);
  return trigger;
}

describe.each(['amqp', 'mqtt'] as const)('push mode over %s', (protocol) => {
  beforeAll(() => pushCredential(protocol));

  test('emits one item per pushed event, filtered, and acknowledges after the execution finished', async () => {
    let hold = true;
    const first = await activate({ filters: { eventTypes: ['Fault'] }, options: { acknowledge: 'executionFinishes', includeRaw: true } }, false, () => hold);
    const fault = fx.sim.control.raiseEvent(driveId, { eventType: 'Fault' });
    fx.sim.control.raiseEvent(driveId, { eventType: 'Notification' }); // filtered out
    await waitFor(() => first.emitted.length === 1 && first.runs.length === 1, 'the fault to be emitted and executed');
    const item = first.emitted[0][0].json;
    expect(item).toMatchObject({ dataType: 'AssetEvent', assetId: driveId, id: fault.id, eventType: 'Fault', eventStatus: 'Open' });
    expect(item.raw).toMatchObject({ dataType: 'AssetEvent', messageId: item.messageId });
    expect(JSON.stringify(first.emitted)).not.toContain(user.password);
    // The execution ran but is not finished for n8n yet (donePromise open): deactivating now
    // leaves the message unacknowledged, so the next activation receives it again.
    await first.close();
    active.splice(active.indexOf(first), 1);
    hold = false;
    const second = await activate({ filters: { eventTypes: ['Fault'] }, options: { acknowledge: 'executionFinishes' } });
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
    const trigger = await activate({ options: { acknowledge: 'executionFinishesSuccessfully' } }, true);
    const event = fx.sim.control.raiseEvent(driveId, { eventType: 'Warning' });
    await waitFor(() => trigger.runs.length >= 1, 'the failing execution');
    expect(trigger.runs[0].data.resultData.error).toBeDefined();
    failing = false;
    await waitFor(() => trigger.runs.some((r) => !r.data.resultData.error), 'a successful execution of the redelivery', 20_000);
    await new Promise((r) => setTimeout(r, 300));
    const ids = trigger.emitted.map((items) => items[0].json.id);
    expect(new Set(ids)).toEqual(new Set([event.id]));
    expect(trigger.runs.filter((r) => !r.data.resultData.error)).toHaveLength(1);
  });
});

test('push mode with a wrong password fails the activation with the terminal message', async () => {
  fx.engine.addCredential({ id: 'push', name: 'Push', type: 'driveMonitoringPushApi', data: { brokerUrl: fx.sim.info.pushUrls.amqp, ...user, password: 'wrong-password' } });
  const error = await activate({}).catch((e: unknown) => e as Error);
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).toContain('credentials rejected: was the password reset or the user deleted?');
  expect((error as Error).message).not.toContain('wrong-password');
});

test('poll mode emits each new event exactly once across consecutive polls, window boundaries included', async () => {
  const poll = poller(fx.engine, { mode: 'poll', watch: ['events'], scope: 'assets', assetIds: String(driveId), options: { lateMarginMinutes: 0 } } as never, API);
  const tick = () => new Promise((r) => setTimeout(r, 1100)); // API times are whole seconds
  fx.sim.control.raiseEvent(driveId, { eventType: 'Fault' }); // listed before activation: baseline only
  await tick();
  expect(await poll()).toEqual([]);
  const emitted: number[] = [];
  const raised: number[] = [];
  for (let round = 0; round < 4; round++) {
    // One event right before a poll, one while it runs: both sit on the boundary of two windows.
    raised.push(Number(fx.sim.control.raiseEvent(driveId, { eventType: round % 2 ? 'Warning' : 'Fault' }).id));
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
  const expired = fx.sim.fleet.assets().filter((a) => a.orgId === fx.euOrgId && a.level === 'expired');
  expect(expired.length).toBeGreaterThan(0);
  const poll = poller(fx.engine, { mode: 'poll', watch: ['events'], scope: 'organization', orgId: fx.euOrgId, options: { lateMarginMinutes: 0 } } as never, API);
  expect(await poll()).toEqual([]);
  const fault = fx.sim.control.raiseEvent(driveId, { eventType: 'Fault' });
  const items = await poll();
  expect(items.map((i) => i.json.id)).toEqual([fault.id]);
  const refused = fx.sim.requests.api('E14').filter((c) => expired.some((a) => c.path.endsWith(`/assetdata/${a.id}/event`)));
  expect(refused.length).toBeGreaterThan(0);
  expect(refused.every((c) => c.status === 400)).toBe(true);
});
