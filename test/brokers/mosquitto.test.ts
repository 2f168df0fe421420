// The receiver against a real Mosquitto 2.0 (Debian's): default address `dm/{topic}/#`, QoS 1,
// persistent session; max_queued_messages raised (P5), or a 10,000 burst is cut at 1,000.
import { randomUUID } from 'node:crypto';
import { createPushReceiver, PushAuthError, type PushReceiver } from '../../shared/push';
// Mosquitto 2.0 grants every SUBSCRIBE and applies the ACL per message: a user without read
// permission is not refused, it receives nothing (README, push notes); nothing to test there.
import { burstWithFailures, type Target } from '../push/scenarios';
import { startMosquitto, type Mosquitto } from './mosquitto';
import { eventEnvelope, publishMqtt } from './publish';

jest.setTimeout(300_000);

let broker: Mosquitto;
const open: PushReceiver[] = [];

beforeAll(async () => {
  broker = await startMosquitto();
}, 60_000);
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});
afterAll(async () => {
  await broker?.stop();
});

async function user(grant = true): Promise<{ userName: string; password: string; topic: string }> {
  const id = randomUUID().slice(0, 8);
  const subscriber = { userName: `dm-${id}`, password: `pw-${randomUUID()}`, topic: `t-${id}` };
  await broker.addUser(subscriber.userName, subscriber.password, grant ? `dm/${subscriber.topic}/#` : undefined);
  return subscriber;
}

function receiverFor(subscriber: { userName: string; password: string; topic: string }, extra: object = {}): PushReceiver {
  const receiver = createPushReceiver({ url: broker.url, ...subscriber, reconnect: { initialDelayMs: 50, maxDelayMs: 1000 }, ...extra });
  open.push(receiver);
  return receiver;
}

test('a burst of 10,000 with 1% failing handlers: 0 lost, each failure redelivered', async () => {
  const subscriber = await user();
  const probe = receiverFor(subscriber);
  await probe.start(() => undefined);
  await probe.close();
  const target: Target = {
    receiver: (extra = {}) => receiverFor(subscriber, extra),
    publish: (ids) => publishMqtt(broker.url, broker.adminUser, broker.adminPassword, subscriber.topic, ids.map((id) => eventEnvelope(32, 3200, id))),
  };
  const warnings: string[] = [];
  const { receiver } = await burstWithFailures(target, 10_000, { logger: { warn: (m: string) => warnings.push(m) } });
  // Mosquitto resends stored messages before its SUBACK: a failure then must not count as a
  // failed connect (one did: "reconnect failed", and the backoff grew toward 30 s).
  expect(receiver.stats.reconnects).toBe(100);
  expect(warnings.filter((w) => w.includes('reconnect failed'))).toEqual([]);
});

test('a wrong password ends with the credentials sentence and no secret', async () => {
  const subscriber = await user();
  const error = await receiverFor({ ...subscriber, password: 'not-the-password' }).start(() => undefined).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PushAuthError);
  expect((error as Error).message).not.toContain('not-the-password');
});
