/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the platform simulator, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The simulator's AMQP 1.0 endpoint (rhea listening): SASL PLAIN against the data-subscription
// users, one queue per user, a sender link per consumer on the address `{topic}` (assumption P2).
import { once } from 'node:events';
import type { AddressInfo, Server, Socket } from 'node:net';
import { create_container, type Connection, type Container, type EventContext } from 'rhea';
import type { PushEnvelope } from '../../shared/push';
import { destroyAmqpSocket } from '../../shared/push/rhea-socket';
import { openSender } from './amqp-sender';
import { AmqpUsers } from './amqp-users';
import { authenticateSubscriber } from './auth';
import type { PushHost } from './host';

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
	const users = new AmqpUsers(options.queueLimit ?? QUEUE_LIMIT, isWanted);
	serveLinks(container, host, users);
	const server = await listen(container, options);
	return {
		url: `amqp://${options.host}:${server.port}`,
		enqueue: (userName, envelope) => users.queueOf(userName).enqueue(envelope),
		droppedOf: (userName) => users.droppedOf(userName),
		dropConnections: (userName) => {
			for (const connection of users.connectionsOf(userName)) {
				connection.close({
					condition: 'amqp:connection:forced',
					description: 'the data-subscription password was reset (E30)',
				});
			}
		},
		deleteUser: (userName) => users.deleteUser(userName),
		close: async () => {
			users.closeAll();
			await server.close();
		},
	};
}

/** The links' life: opened for a user's queue, credit, settlement, and their end with their session or connection. */
function serveLinks(container: Container, host: PushHost, users: AmqpUsers): void {
	container.on('connection_open', (context: EventContext) => users.opened(context.connection));
	container.on('sender_open', (context: EventContext) => openSender(context, host, users));
	container.on('sendable', (context: EventContext) => users.pump(context.connection));
	const settle = (outcome: 'accepted' | 'released' | 'rejected') => (context: EventContext) => {
		if (context.delivery) users.settle(context.connection, context.delivery, outcome);
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
	const detachSession = (context: EventContext): void =>
		users.detachSession(context.session, context.connection);
	// Like RabbitMQ 3.x, which ends the session for it: `modified` is not an outcome this broker
	// takes. Whatever the session had in flight goes back to the queue (detach on session close).
	container.on('modified', (context: EventContext) => {
		detachSession(context);
		context.session?.close({
			condition: 'amqp:not-implemented',
			description: 'Unrecognised state modified: settle with accepted, released or rejected',
		});
	});
	container.on('sender_close', (context: EventContext) => {
		if (context.sender) users.detach(context.sender, context.connection);
	});
	container.on('session_close', detachSession);
	container.on('connection_close', (context: EventContext) => users.forget(context.connection));
	container.on('disconnected', (context: EventContext) => users.forget(context.connection));
}

/**
 * Listens, and keeps every socket and every connection whose socket has not ended yet: closing the
 * server ends them and their heartbeat timers.
 */
async function listen(
	container: Container,
	options: { host: string; port?: number; idleTimeOutMs?: number },
): Promise<{ port: number; close(): Promise<void> }> {
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
	const sockets = new Set<Socket>();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	return {
		port: (server.address() as AddressInfo).port,
		close: async () => {
			const closed = new Promise((resolve) => server.close(resolve));
			for (const socket of sockets) socket.destroy();
			for (const connection of live) destroyAmqpSocket(connection);
			live.clear();
			await closed;
		},
	};
}
