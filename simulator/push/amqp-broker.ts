/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the platform simulator, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The simulator's AMQP 1.0 endpoint (rhea listening): SASL PLAIN against the data-subscription
// users, one queue per user, a sender link per consumer on the address `{topic}` (assumption P2).
import { once } from 'node:events';
import type { AddressInfo, Server } from 'node:net';
import {
	create_container,
	message as amqpMessage,
	type Connection,
	type Delivery,
	type EventContext,
	type Sender,
} from 'rhea';
import type { PushEnvelope } from '../../shared/push';
import { destroyAmqpSocket } from '../../shared/push/rhea-socket';
import { authenticateSubscriber } from './auth';
import type { PushHost } from './host';
import { UserQueue, type QueueConsumer } from './queue';

/** Messages kept per user while nobody consumes; the oldest are dropped beyond it (assumption P5). */
export const QUEUE_LIMIT = 100_000;

/**
 * The idle time-out this endpoint advertises in its open frame (ms). As AMQP 1.0 (2.4.5) asks, it is half the
 * threshold enforced: a connection silent for twice this long (a frozen consumer) is closed with
 * amqp:resource-limit-exceeded, and the deliveries it had not settled go back to the queue for another consumer.
 * Clients keep the connection alive with empty frames every half of it (rhea does so by itself).
 */
export const AMQP_IDLE_TIME_OUT_MS = 5_000;

export interface AmqpBroker {
	url: string;
	enqueue(userName: string, envelope: PushEnvelope): void;
	/** Messages dropped from the user's queue at its limit (P5). */
	droppedOf(userName: string): number;
	/** E30: the user's connections are dropped; the queue stays. */
	dropConnections(userName: string): void;
	/** E29: links end with amqp:resource-deleted, connections close, the queue is gone. */
	deleteUser(userName: string): void;
	close(): Promise<void>;
}

export async function startAmqpBroker(
	host: PushHost,
	options: { host: string; port?: number; queueLimit?: number; idleTimeOutMs?: number },
	isWanted: (userName: string, envelope: PushEnvelope) => boolean,
): Promise<AmqpBroker> {
	const container = create_container({ id: 'drive-monitoring-simulator' });
	container.sasl_server_mechanisms.enable_plain(
		(userName: string, password: string) =>
			authenticateSubscriber(host, userName, password) !== undefined,
	);

	const queues = new Map<string, UserQueue>();
	const connections = new Map<Connection, string>();
	const consumers = new Map<Sender, QueueConsumer>();
	const queueOf = (userName: string): UserQueue => {
		let queue = queues.get(userName);
		if (!queue) {
			queue = new UserQueue(options.queueLimit ?? QUEUE_LIMIT, (envelope) =>
				isWanted(userName, envelope),
			);
			queues.set(userName, queue);
		}
		return queue;
	};
	const userOf = (connection: Connection): string | undefined =>
		(connection as unknown as { sasl_transport?: { username?: string } }).sasl_transport
			?.username ?? connections.get(connection);

	container.on('connection_open', (context: EventContext) => {
		const userName = userOf(context.connection);
		if (userName) connections.set(context.connection, userName);
	});
	container.on('sender_open', (context: EventContext) => {
		const sender = context.sender!;
		const userName = connections.get(context.connection);
		const user = userName ? host.findSubscriber(userName) : undefined;
		const address = (
			sender as unknown as { remote?: { attach?: { source?: { address?: string } } } }
		).remote?.attach?.source?.address;
		if (!user || !userName) {
			sender.close({
				condition: 'amqp:unauthorized-access',
				description: 'no data-subscription user on this connection',
			});
			return;
		}
		if (!isUserAddress(address, user.topic, userName)) {
			sender.close({
				condition: 'amqp:not-found',
				description: `address "${String(address)}" is not the topic of user ${userName}; use "${user.topic}"`,
			});
			return;
		}
		const consumer: QueueConsumer = {
			canSend: () => sender.sendable(),
			send: (envelope) => sender.send(toAmqpMessage(envelope)),
		};
		consumers.set(sender, consumer);
		queueOf(userName).attach(consumer);
	});
	container.on('sendable', (context: EventContext) => {
		const userName = connections.get(context.connection);
		if (userName) queues.get(userName)?.pump();
	});
	const settle = (outcome: 'accepted' | 'released' | 'rejected') => (context: EventContext) => {
		const userName = connections.get(context.connection);
		if (userName && context.delivery)
			queues.get(userName)?.settle(context.delivery as Delivery & object, outcome);
	};
	container.on('accepted', settle('accepted'));
	container.on('rejected', settle('rejected'));
	// rhea also says `released` for a `modified` (treat_modified_as_released), refused below.
	const releasedOnly = settle('released');
	container.on('released', (context: EventContext) => {
		const state = (
			context.delivery as unknown as
				| { remote_state?: { constructor?: { composite_type?: string } } }
				| undefined
		)?.remote_state;
		if (state?.constructor?.composite_type !== 'modified') releasedOnly(context);
	});
	// Like RabbitMQ 3.x, which ends the session for it: `modified` is not an outcome this broker
	// takes. Whatever the session had in flight goes back to the queue (detach on session close).
	container.on('modified', (context: EventContext) => {
		detachSession(context);
		context.session?.close({
			condition: 'amqp:not-implemented',
			description: 'Unrecognised state modified: settle with accepted, released or rejected',
		});
	});
	const detach = (context: EventContext): void => {
		const sender = context.sender;
		const consumer = sender && consumers.get(sender);
		if (!sender || !consumer) return;
		consumers.delete(sender);
		const userName = connections.get(context.connection);
		if (userName) queues.get(userName)?.detach(consumer);
	};
	const forgetConnection = (context: EventContext): void => {
		for (const [sender, consumer] of [...consumers]) {
			if (sender.connection !== context.connection) continue;
			consumers.delete(sender);
			const userName = connections.get(context.connection);
			if (userName) queues.get(userName)?.detach(consumer);
		}
		connections.delete(context.connection);
	};
	container.on('sender_close', detach);
	const detachSession = (context: EventContext): void => {
		for (const [sender] of [...consumers].filter(([s]) => s.session === context.session))
			detach({ ...context, sender } as EventContext);
	};
	container.on('session_close', detachSession);
	container.on('connection_close', forgetConnection);
	container.on('disconnected', forgetConnection);
	// Every connection whose socket has not ended yet: closing the broker ends them and their heartbeat timers.
	const live = new Set<Connection>();
	container.on('connection_open', (context: EventContext) => live.add(context.connection));
	container.on('disconnected', (context: EventContext) => live.delete(context.connection));
	container.on('error', () => undefined);
	container.on('connection_error', () => undefined);

	const server: Server = container.listen({
		host: options.host,
		port: options.port ?? 0,
		idle_time_out: options.idleTimeOutMs ?? AMQP_IDLE_TIME_OUT_MS,
	});
	await once(server, 'listening');
	const { port } = server.address() as AddressInfo;
	const sockets = new Set<import('node:net').Socket>();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});

	const connectionsOf = (userName: string) =>
		[...connections].filter(([, name]) => name === userName).map(([c]) => c);
	return {
		url: `amqp://${options.host}:${port}`,
		enqueue: (userName, envelope) => queueOf(userName).enqueue(envelope),
		droppedOf: (userName) => queues.get(userName)?.dropped ?? 0,
		dropConnections: (userName) => {
			for (const connection of connectionsOf(userName)) {
				connection.close({
					condition: 'amqp:connection:forced',
					description: 'the data-subscription password was reset (E30)',
				});
			}
		},
		deleteUser: (userName) => {
			queues.delete(userName);
			for (const connection of connectionsOf(userName)) {
				for (const [sender] of [...consumers].filter(([s]) => s.connection === connection)) {
					consumers.delete(sender);
					sender.close({
						condition: 'amqp:resource-deleted',
						description: 'the data-subscription user was deleted (E29) and its queue removed',
					});
				}
				connection.close({
					condition: 'amqp:resource-deleted',
					description: 'the data-subscription user was deleted (E29)',
				});
				connections.delete(connection);
			}
		},
		close: async () => {
			for (const connection of connections.keys()) connection.close();
			const closed = new Promise((resolve) => server.close(resolve));
			for (const socket of sockets) socket.destroy();
			for (const connection of live) destroyAmqpSocket(connection);
			live.clear();
			await closed;
		},
	};
}

/** The user's topic, or Azure Service Bus style `{topic}/Subscriptions/{userName}`. */
function isUserAddress(address: string | undefined, topic: string, userName: string): boolean {
	if (!address) return false;
	const normalized = address.replace(/^\/+/, '');
	return (
		normalized === topic ||
		normalized.toLowerCase() === `${topic}/subscriptions/${userName}`.toLowerCase()
	);
}

function toAmqpMessage(envelope: PushEnvelope) {
	return {
		message_id: envelope.messageId,
		subject: envelope.dataType,
		content_type: 'application/json',
		creation_time: new Date(envelope.time),
		application_properties: {
			dataType: envelope.dataType,
			assetId: envelope.assetId,
			orgId: envelope.orgId,
		},
		body: amqpMessage.data_section(Buffer.from(JSON.stringify(envelope))),
	};
}
