// The simulator's MQTT broker (aedes on a net server): user name and password against the
// data-subscription users, subscriptions only under `dm/{topic}/`, QoS 1, persistent sessions
// (aedes keeps unacknowledged and offline messages of clean: false clients and resends them).
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import Aedes, { type AuthenticateError, type Client } from 'aedes';
import { mqttTopicOf, parseDataType, type PushEnvelope } from '../../shared/push';
import { SUB_DATA_TYPES } from '../../shared/spec';
import { authenticateSubscriber } from './auth';
import type { PushHost } from './host';

export interface MqttBroker {
  url: string;
  publish(topic: string, envelope: PushEnvelope): void;
  dropConnections(userName: string): void;
  deleteUser(userName: string): void;
  close(): Promise<void>;
}

export async function startMqttBroker(host: PushHost, options: { host: string; port?: number }): Promise<MqttBroker> {
  const userOfClient = new WeakMap<Client, string>();
  const clientsOf = new Map<string, Set<Client>>();
  const sessionsOf = new Map<string, Set<string>>();
  const topicRoot = (userName: string | undefined): string | undefined => {
    const user = userName ? host.findSubscriber(userName) : undefined;
    return user ? `dm/${user.topic}/` : undefined;
  };

  const broker = new Aedes({
    authenticate: (client, userName, password, done) => {
      const user = authenticateSubscriber(host, userName, password);
      if (!user) {
        const error = new Error('bad user name or password') as AuthenticateError;
        error.returnCode = 4;
        return done(error, null);
      }
      userOfClient.set(client, user.userName);
      const add = <T>(map: Map<string, Set<T>>, value: T) => map.set(user.userName, (map.get(user.userName) ?? new Set<T>()).add(value));
      add(clientsOf, client);
      add(sessionsOf, client.id);
      done(null, true);
    },
    authorizeSubscribe: (client, subscription, done) => {
      const root = topicRoot(userOfClient.get(client));
      const allowed = root !== undefined && (subscription.topic === `${root}#` || (subscription.topic.startsWith(root) && !subscription.topic.slice(root.length).includes('#/')));
      done(null, allowed ? subscription : null);
    },
    authorizePublish: (_client, _packet, done) => done(new Error('data-subscription users only receive')),
    authorizeForward: (client, packet) => {
      const userName = userOfClient.get(client);
      const user = userName ? host.findSubscriber(userName) : undefined;
      if (!user || !packet.topic.startsWith(`dm/${user.topic}/`)) return null;
      const type = parseDataType(packet.topic.split('/').pop());
      return type && user.subDataTypes.includes(SUB_DATA_TYPES[type]) ? packet : null;
    },
  });
  broker.on('clientDisconnect', (client) => {
    const userName = userOfClient.get(client);
    if (userName) clientsOf.get(userName)?.delete(client);
  });

  const server = createServer(broker.handle);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(options.port ?? 0, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const dropConnections = (userName: string): void => {
    for (const client of clientsOf.get(userName) ?? []) client.close();
    clientsOf.delete(userName);
  };
  return {
    url: `mqtt://${options.host}:${port}`,
    publish: (topic, envelope) => {
      broker.publish(
        { cmd: 'publish', topic: mqttTopicOf(topic, envelope.dataType), payload: Buffer.from(JSON.stringify(envelope)), qos: 1, retain: false, dup: false },
        () => undefined,
      );
    },
    dropConnections,
    deleteUser: (userName) => {
      dropConnections(userName);
      // E29 deletes the queue: forget the sessions' subscriptions so nothing more is stored for them.
      const persistence = (broker as unknown as { persistence: { cleanSubscriptions(c: { id: string }, cb: () => void): void } }).persistence;
      for (const id of sessionsOf.get(userName) ?? []) persistence.cleanSubscriptions({ id }, () => undefined);
      sessionsOf.delete(userName);
    },
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
