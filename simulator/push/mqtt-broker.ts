/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the platform simulator, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The simulator's MQTT broker (aedes on a net server): user name and password against the
// data-subscription users, subscriptions only under `dm/{topic}/`, QoS 1, persistent sessions
// (aedes keeps unacknowledged and offline messages of clean: false clients and resends them).
// A persistent session keeps at most `queueLimit` unacknowledged messages; newer ones are
// dropped for it (aedes has no such limit; Mosquitto's max_queued_messages drops the same way).
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import Aedes, { type AuthenticateError, type Client } from 'aedes';
import { mqttTopicOf, parseDataType, type PushEnvelope } from '../../shared/push';
import { SUB_DATA_TYPES } from '../../shared/spec';
import { authenticateSubscriber } from './auth';
import type { PushHost } from './host';

/** What the bound needs of aedes' persistence (aedes-persistence, in memory): where packets are stored for a session and cleared on PUBACK. */
interface SessionStore {
	outgoingEnqueueCombi(subs: Array<{ clientId: string }>, packet: object, cb: () => void): void;
	outgoingClearMessageId(
		client: { id: string },
		packet: object,
		cb: (error?: Error | null, stored?: object) => void,
	): void;
}

export interface MqttBroker {
	url: string;
	publish(topic: string, envelope: PushEnvelope): void;
	/** Messages dropped for the user's persistent sessions at their limit (P5). */
	droppedOf(userName: string): number;
	dropConnections(userName: string): void;
	deleteUser(userName: string): void;
	close(): Promise<void>;
}

export async function startMqttBroker(
	host: PushHost,
	options: { host: string; port?: number; queueLimit: number },
): Promise<MqttBroker> {
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
			const add = <T>(map: Map<string, Set<T>>, value: T) =>
				map.set(user.userName, (map.get(user.userName) ?? new Set<T>()).add(value));
			add(clientsOf, client);
			add(sessionsOf, client.id);
			userOfSession.set(client.id, user.userName);
			done(null, true);
		},
		authorizeSubscribe: (client, subscription, done) => {
			const root = topicRoot(userOfClient.get(client));
			const allowed =
				root !== undefined &&
				(subscription.topic === `${root}#` ||
					(subscription.topic.startsWith(root) &&
						!subscription.topic.slice(root.length).includes('#/')));
			done(null, allowed ? subscription : null);
		},
		authorizePublish: (_client, _packet, done) =>
			done(new Error('data-subscription users only receive')),
		authorizeForward: (client, packet) => {
			if (droppedFor.get(packet)?.has(client.id)) return null;
			const userName = userOfClient.get(client);
			const user = userName ? host.findSubscriber(userName) : undefined;
			if (!user || !packet.topic.startsWith(`dm/${user.topic}/`)) return null;
			const type = parseDataType(packet.topic.split('/').pop());
			return type && user.subDataTypes.includes(SUB_DATA_TYPES[type]) ? packet : null;
		},
	});
	const bound = boundSessions(broker, options.queueLimit);
	const droppedFor = bound.droppedFor;
	const userOfSession = bound.userOfSession;
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
				{
					cmd: 'publish',
					topic: mqttTopicOf(topic, envelope.dataType),
					payload: Buffer.from(JSON.stringify(envelope)),
					qos: 1,
					retain: false,
					dup: false,
				},
				() => undefined,
			);
		},
		droppedOf: (userName) => bound.droppedOf(userName),
		dropConnections,
		deleteUser: (userName) => {
			dropConnections(userName);
			// E29 deletes the queue: forget the sessions' subscriptions so nothing more is stored for them.
			const persistence = (
				broker as unknown as {
					persistence: { cleanSubscriptions(c: { id: string }, cb: () => void): void };
				}
			).persistence;
			for (const id of sessionsOf.get(userName) ?? [])
				persistence.cleanSubscriptions({ id }, () => undefined);
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

/**
 * Counts what aedes stores per persistent session (every QoS 1 message of a clean: false
 * session until its PUBACK) and stops storing beyond `limit`: the packet is then neither stored
 * nor forwarded to that session (authorizeForward reads `droppedFor`).
 */
function boundSessions(broker: Aedes, limit: number) {
	const stored = new Map<string, number>();
	const dropped = new Map<string, number>();
	const droppedFor = new WeakMap<object, Set<string>>();
	const userOfSession = new Map<string, string>();
	const store = (broker as unknown as { persistence: SessionStore }).persistence;
	const enqueue = store.outgoingEnqueueCombi.bind(store);
	const clear = store.outgoingClearMessageId.bind(store);
	store.outgoingEnqueueCombi = (subs, packet, cb) => {
		const kept = subs.filter(({ clientId }) => {
			const count = stored.get(clientId) ?? 0;
			if (count < limit) {
				stored.set(clientId, count + 1);
				return true;
			}
			let sessions = droppedFor.get(packet);
			if (!sessions) droppedFor.set(packet, (sessions = new Set()));
			sessions.add(clientId);
			const userName = userOfSession.get(clientId);
			if (userName) dropped.set(userName, (dropped.get(userName) ?? 0) + 1);
			return false;
		});
		enqueue(kept, packet, cb);
	};
	store.outgoingClearMessageId = (client, packet, cb) =>
		clear(client, packet, (error, removed) => {
			if (removed) stored.set(client.id, Math.max(0, (stored.get(client.id) ?? 1) - 1));
			cb(error, removed);
		});
	return { droppedFor, userOfSession, droppedOf: (userName: string) => dropped.get(userName) ?? 0 };
}
