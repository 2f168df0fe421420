// The receiver against a real RabbitMQ 3.x (Debian's, AMQP 1.0 and MQTT plugins), default
// settings, no address template: nothing lost, every broker error explained.
import { randomUUID } from 'node:crypto';
import { createPushReceiver, PushAuthError, PushStreamEndedError, type PushEnd, type PushMessage, type PushReceiver } from '../../shared/push';
import { waitFor } from '../push/platform';
import { burstWithFailures, failsLeavingNoTimer, sameTickSettlement, type Target } from '../push/scenarios';
import { freePorts } from './ports';
import { eventEnvelope, publishAmqp, publishMqtt } from './publish';
import { startRabbitMq, type RabbitMq } from './rabbitmq';

jest.setTimeout(300_000);

let broker: RabbitMq;
const open: PushReceiver[] = [];

beforeAll(async () => {
  broker = await startRabbitMq();
}, 180_000);
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});
afterAll(async () => {
  await broker?.stop();
}, 120_000);

interface Subscriber {
  userName: string;
  password: string;
  topic: string;
}

/** What the platform would set up for an AMQP data-subscription user: its queue, read on it. */
async function amqpUser(grant = true): Promise<Subscriber> {
  const id = randomUUID().slice(0, 8);
  const user = { userName: `dm-${id}`, password: `pw-${randomUUID()}`, topic: `q-${id}` };
  await broker.declareQueue(user.topic);
  await broker.addUser(user.userName, user.password, { configure: '^$', write: '^$', read: grant ? `^${user.topic}$` : '^$' });
  return user;
}

/** An MQTT user: the plugin's own subscription queue and the amq.topic exchange. */
async function mqttUser(grant = true): Promise<Subscriber> {
  const id = randomUUID().slice(0, 8);
  const user = { userName: `dm-${id}`, password: `pw-${randomUUID()}`, topic: `t-${id}` };
  const own = `^mqtt-subscription-dm-${user.userName}qos[01]$`;
  await broker.addUser(user.userName, user.password, grant ? { configure: own, write: own, read: `^(amq\\.topic|mqtt-subscription-dm-${user.userName}qos[01])$` } : { configure: '^$', write: '^$', read: '^$' });
  return user;
}

function receiverFor(protocol: 'amqp' | 'mqtt', user: Subscriber, extra: object = {}): PushReceiver {
  const receiver = createPushReceiver({ url: protocol === 'amqp' ? broker.amqpUrl : broker.mqttUrl, ...user, reconnect: { initialDelayMs: 50, maxDelayMs: 1000 }, ...extra });
  open.push(receiver);
  return receiver;
}

function target(protocol: 'amqp' | 'mqtt', user: Subscriber): Target {
  return {
    receiver: (extra = {}) => receiverFor(protocol, user, extra),
    publish: (ids) => {
      const envelopes = ids.map((id) => eventEnvelope(31, 3100, id));
      return protocol === 'amqp'
        ? publishAmqp(broker.amqpUrl, broker.adminUser, broker.adminPassword, `/amq/queue/${user.topic}`, envelopes)
        : publishMqtt(broker.mqttUrl, broker.adminUser, broker.adminPassword, user.topic, envelopes);
    },
  };
}

const ended = (receiver: PushReceiver): Promise<PushEnd> => new Promise((resolve) => receiver.once('end', resolve));
const ids = (got: PushMessage[]): number[] => got.map((m) => (m.record as { id: number }).id);

describe('AMQP 1.0', () => {
  test('ten handlers settling in one tick, four failing: each failure comes back, no reconnect', async () => {
    const user = await amqpUser();
    await sameTickSettlement(target('amqp', user));
    expect(open[0].stats.reconnects).toBe(0);
  });

  test('a burst of 10,000 with 1% failing handlers: 0 lost, each failure redelivered, no reconnect', async () => {
    const { receiver } = await burstWithFailures(target('amqp', await amqpUser()), 10_000, { prefetch: 10 });
    expect(receiver.stats.reconnects).toBe(0);
  });

  test('a wrong password ends with the credentials sentence and no secret', async () => {
    const user = await amqpUser();
    const error = await failsLeavingNoTimer(() => receiverFor('amqp', { ...user, password: 'not-the-password' }).start(() => undefined));
    expect(error).toBeInstanceOf(PushAuthError);
    expect((error as Error).message).not.toContain('not-the-password');
  });

  test('without read permission: a terminal error that says to ask for it', async () => {
    const user = await amqpUser(false);
    const error = await failsLeavingNoTimer(() => receiverFor('amqp', user).start(() => undefined));
    expect(error).toBeInstanceOf(PushStreamEndedError);
    expect((error as Error).message).toContain(`the broker refused access to queue "/amq/queue/${user.topic}" for the data-subscription user "${user.userName}": ask the platform operator to grant this user read permission`);
    expect((error as Error).message).not.toContain(user.password);
  });

  test('the queue deleted while consuming ends the receiver with a clear terminal error', async () => {
    const user = await amqpUser();
    const got: PushMessage[] = [];
    const receiver = receiverFor('amqp', user);
    const end = ended(receiver);
    await receiver.start((m) => void got.push(m));
    await target('amqp', user).publish([1]);
    await waitFor(() => got.length === 1, 'the first message');
    await broker.ctl('delete_queue', user.topic);
    const { reason, error } = await end;
    expect(reason).toBe('error');
    expect(error).toBeInstanceOf(PushStreamEndedError);
    expect(error!.message).toMatch(/deleted|has no queue/);
  });

  test('the user deleted while consuming ends the receiver (its connection closed, its login refused)', async () => {
    const user = await amqpUser();
    const receiver = receiverFor('amqp', user);
    const end = ended(receiver);
    await receiver.start(() => undefined);
    await broker.ctl('delete_user', user.userName);
    await broker.ctl('close_all_user_connections', user.userName, 'user deleted');
    const { error } = await end;
    expect(error).toBeInstanceOf(PushAuthError);
  });

  test('a broker restart: the receiver reconnects and nothing published around it is lost', async () => {
    const user = await amqpUser();
    const got: PushMessage[] = [];
    const receiver = receiverFor('amqp', user);
    await receiver.start((m) => void got.push(m));
    await target('amqp', user).publish([1, 2, 3]);
    await waitFor(() => got.length === 3, 'three messages');
    await broker.restart();
    await target('amqp', user).publish([4, 5, 6]);
    await waitFor(() => got.length >= 6, 'three more after the restart', 120_000);
    expect([...new Set(ids(got))].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(receiver.stats.reconnects).toBeGreaterThanOrEqual(1);
  });
});

describe('MQTT', () => {
  test('a burst of 10,000 with 1% failing handlers: 0 lost, each failure redelivered', async () => {
    const user = await mqttUser();
    // The persistent session must exist before the burst, as it does for a running consumer.
    const probe = receiverFor('mqtt', user);
    await probe.start(() => undefined);
    await probe.close();
    await burstWithFailures(target('mqtt', user), 10_000);
  });

  test('the user deleted while consuming ends the receiver (its connection closed, its login refused)', async () => {
    const user = await mqttUser();
    const receiver = receiverFor('mqtt', user);
    const end = ended(receiver);
    await receiver.start(() => undefined);
    await broker.ctl('delete_user', user.userName);
    await broker.ctl('close_all_user_connections', user.userName, 'user deleted');
    const { error } = await end;
    expect(error).toBeInstanceOf(PushAuthError);
  });

  test('a wrong password ends with the credentials sentence', async () => {
    const user = await mqttUser();
    const error = await failsLeavingNoTimer(() => receiverFor('mqtt', { ...user, password: 'not-the-password' }).start(() => undefined));
    expect(error).toBeInstanceOf(PushAuthError);
  });

  test('without permissions: a terminal error, not a retry loop', async () => {
    const user = await mqttUser(false);
    const error = await failsLeavingNoTimer(() => receiverFor('mqtt', user).start(() => undefined));
    expect((error as { terminal?: boolean }).terminal).toBe(true);
    expect((error as Error).message).toMatch(/refused|permission/);
  });
});

test.each(['amqp', 'mqtt'] as const)('%s: nothing listening: a transient error, and no timer left behind', async (protocol) => {
  const [port] = await freePorts(1);
  const receiver = createPushReceiver({ url: `${protocol}://127.0.0.1:${port}`, userName: 'dm-nobody', password: 'pw', topic: 'q-none' });
  const error = await failsLeavingNoTimer(() => receiver.start(() => undefined));
  expect((error as { terminal?: boolean }).terminal).toBe(false);
});
