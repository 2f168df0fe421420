// kill -9 of the consumer process and a restart, and a broker restart, against the simulator's
// brokers, RabbitMQ (AMQP 1.0, MQTT) and Mosquitto: nothing lost. The consumer process runs the
// built receiver (test/brokers/consumer.js).
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- the consumer process is what this test kills; this is not node code */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createPushReceiver, type PushMessage, type PushReceiver } from '../../shared/push';
import { startTestPlatform, waitFor, type TestPlatform } from '../push/platform';
import { startMosquitto, type Mosquitto } from './mosquitto';
import { eventEnvelope, publishAmqp, publishMqtt } from './publish';
import { startRabbitMq, type RabbitMq } from './rabbitmq';

jest.setTimeout(300_000);

let rabbit: RabbitMq;
let mosquitto: Mosquitto;
let platform: TestPlatform;
const cleanup: Array<() => Promise<unknown> | void> = [];

beforeAll(async () => {
  [rabbit, mosquitto, platform] = await Promise.all([startRabbitMq(), startMosquitto(), startTestPlatform()]);
}, 180_000);
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});
afterAll(async () => {
  await Promise.all([rabbit?.stop(), mosquitto?.stop(), platform?.close()]);
}, 120_000);

type Broker = 'simulator-amqp' | 'simulator-mqtt' | 'rabbitmq-amqp' | 'rabbitmq-mqtt' | 'mosquitto';
interface Target {
  settings: { url: string; userName: string; password: string; topic: string };
  publish(ids: number[]): Promise<void>;
}

async function target(broker: Broker): Promise<Target> {
  const id = randomUUID().slice(0, 8);
  const user = { userName: `dm-${id}`, password: `pw-${randomUUID()}`, topic: `q-${id}` };
  const envelopes = (ids: number[]) => ids.map((n) => eventEnvelope(35, 3500, n));
  switch (broker) {
    case 'simulator-amqp':
    case 'simulator-mqtt': {
      const simUser = platform.createUser(35, [1]);
      return {
        settings: { url: platform.channel.urls[broker === 'simulator-amqp' ? 'amqp' : 'mqtt'], ...simUser },
        publish: async (ids) => {
          for (let i = 0; i < ids.length; i += 200) {
            for (const n of ids.slice(i, i + 200)) platform.raiseEvent(35, 3500, n);
            await new Promise((resolve) => setImmediate(resolve));
          }
        },
      };
    }
    case 'rabbitmq-amqp':
      await rabbit.declareQueue(user.topic);
      await rabbit.addUser(user.userName, user.password, { configure: '^$', write: '^$', read: `^${user.topic}$` });
      return { settings: { url: rabbit.amqpUrl, ...user }, publish: (ids) => publishAmqp(rabbit.amqpUrl, rabbit.adminUser, rabbit.adminPassword, `/amq/queue/${user.topic}`, envelopes(ids)) };
    case 'rabbitmq-mqtt': {
      const own = `^mqtt-subscription-dm-${user.userName}qos[01]$`;
      await rabbit.addUser(user.userName, user.password, { configure: own, write: own, read: `^(amq\\.topic|mqtt-subscription-dm-${user.userName}qos[01])$` });
      return { settings: { url: rabbit.mqttUrl, ...user }, publish: (ids) => publishMqtt(rabbit.mqttUrl, rabbit.adminUser, rabbit.adminPassword, user.topic, envelopes(ids)) };
    }
    case 'mosquitto':
      await mosquitto.addUser(user.userName, user.password, `dm/${user.topic}/#`);
      return { settings: { url: mosquitto.url, ...user }, publish: (ids) => publishMqtt(mosquitto.url, mosquitto.adminUser, mosquitto.adminPassword, user.topic, envelopes(ids)) };
  }
}

/** Starts test/brokers/consumer.js; `handled` collects the ids it reports. */
async function consumerProcess(settings: Target['settings'], handled: number[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(__dirname, 'consumer.js')], {
    env: { ...process.env, DM_URL: settings.url, DM_USER: settings.userName, DM_PASSWORD: settings.password, DM_TOPIC: settings.topic },
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

const BROKERS: Broker[] = ['simulator-amqp', 'simulator-mqtt', 'rabbitmq-amqp', 'rabbitmq-mqtt', 'mosquitto'];
const COUNT = 2000;

test.each(BROKERS)(`%s: kill -9 of the consumer mid-burst of ${COUNT}, then a new one: nothing lost`, async (broker) => {
  const t = await target(broker);
  const handled: number[] = [];
  const first = await consumerProcess(t.settings, handled);
  await t.publish(Array.from({ length: COUNT }, (_, i) => i + 1));
  await waitFor(() => handled.length >= 300, 'a part of the burst handled', 120_000);
  const exited = new Promise((resolve) => first.once('exit', resolve));
  first.kill('SIGKILL');
  await exited;
  const beforeKill = handled.length;
  expect(beforeKill).toBeLessThan(COUNT);
  await consumerProcess(t.settings, handled);
  await waitFor(() => new Set(handled).size >= COUNT, `all ${COUNT} handled (${new Set(handled).size} so far)`, 240_000);
  const missing = Array.from({ length: COUNT }, (_, i) => i + 1).filter((n) => !handled.includes(n));
  expect(missing).toEqual([]);
});

test.each(['rabbitmq-mqtt', 'mosquitto'] as const)('%s: a broker restart: the receiver reconnects and nothing published around it is lost', async (broker) => {
  const t = await target(broker);
  const got: PushMessage[] = [];
  const receiver: PushReceiver = createPushReceiver({ ...t.settings, reconnect: { initialDelayMs: 100, maxDelayMs: 1000 } });
  cleanup.push(() => receiver.close());
  await receiver.start((m) => void got.push(m));
  await t.publish([1, 2, 3]);
  await waitFor(() => got.length >= 3, 'three messages');
  await (broker === 'mosquitto' ? mosquitto.restart() : rabbit.restart());
  await waitFor(() => receiver.stats.reconnects >= 1, 'the reconnect', 120_000);
  await t.publish([4, 5, 6]);
  await waitFor(() => new Set(got.map((m) => (m.record as { id: number }).id)).size >= 6, 'three more after the restart', 120_000);
  expect([...new Set(got.map((m) => (m.record as { id: number }).id))].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
});
