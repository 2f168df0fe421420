/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the platform simulator, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { Connection, Delivery, Sender } from 'rhea';
import type { PushEnvelope } from '../../shared/push';
import { UserQueue, type QueueConsumer } from './queue';

/**
 * The AMQP endpoint's book of who is who: the data-subscription user of each connection, each
 * user's queue, and the sender links consuming it.
 */
export class AmqpUsers {
	private readonly queues = new Map<string, UserQueue>();
	private readonly connections = new Map<Connection, string>();
	private readonly consumers = new Map<Sender, QueueConsumer>();

	constructor(
		private readonly queueLimit: number,
		private readonly isWanted: (userName: string, envelope: PushEnvelope) => boolean,
	) {}

	/** The user's queue, made on first use. */
	queueOf(userName: string): UserQueue {
		let queue = this.queues.get(userName);
		if (!queue) {
			queue = new UserQueue(this.queueLimit, (envelope) => this.isWanted(userName, envelope));
			this.queues.set(userName, queue);
		}
		return queue;
	}

	/** Messages dropped from the user's queue at its limit (P5). */
	droppedOf(userName: string): number {
		return this.queues.get(userName)?.dropped ?? 0;
	}

	/** A connection opened: it belongs to the user who logged in on it. */
	opened(connection: Connection): void {
		const userName =
			(connection as unknown as { sasl_transport?: { username?: string } }).sasl_transport
				?.username ?? this.connections.get(connection);
		if (userName) this.connections.set(connection, userName);
	}

	userOf(connection: Connection): string | undefined {
		return this.connections.get(connection);
	}

	connectionsOf(userName: string): Connection[] {
		return [...this.connections].filter(([, name]) => name === userName).map(([c]) => c);
	}

	/** A sender link starts consuming the user's queue. */
	consume(sender: Sender, userName: string, consumer: QueueConsumer): void {
		this.consumers.set(sender, consumer);
		this.queueOf(userName).attach(consumer);
	}

	/** The connection's links got credit: its user's queue offers what waits. */
	pump(connection: Connection): void {
		const userName = this.connections.get(connection);
		if (userName) this.queues.get(userName)?.pump();
	}

	settle(
		connection: Connection,
		delivery: Delivery,
		outcome: 'accepted' | 'released' | 'rejected',
	): void {
		const userName = this.connections.get(connection);
		if (userName) this.queues.get(userName)?.settle(delivery as Delivery & object, outcome);
	}

	/** The link ended: what it had not settled goes back to the queue. */
	detach(sender: Sender, connection: Connection): void {
		const consumer = this.consumers.get(sender);
		if (!consumer) return;
		this.consumers.delete(sender);
		const userName = this.connections.get(connection);
		if (userName) this.queues.get(userName)?.detach(consumer);
	}

	/** Every link of the session ends. */
	detachSession(session: unknown, connection: Connection): void {
		for (const [sender] of [...this.consumers].filter(([s]) => s.session === session))
			this.detach(sender, connection);
	}

	/** The connection ended: its links end, and it belongs to nobody. */
	forget(connection: Connection): void {
		for (const [sender] of [...this.consumers].filter(([s]) => s.connection === connection))
			this.detach(sender, connection);
		this.connections.delete(connection);
	}

	/** E29: the user's links end with amqp:resource-deleted, its connections close, its queue is gone. */
	deleteUser(userName: string): void {
		this.queues.delete(userName);
		for (const connection of this.connectionsOf(userName)) {
			for (const [sender] of [...this.consumers].filter(([s]) => s.connection === connection)) {
				this.consumers.delete(sender);
				sender.close({
					condition: 'amqp:resource-deleted',
					description: 'the data-subscription user was deleted (E29) and its queue removed',
				});
			}
			connection.close({
				condition: 'amqp:resource-deleted',
				description: 'the data-subscription user was deleted (E29)',
			});
			this.connections.delete(connection);
		}
	}

	/** Closes every connection of a user. */
	closeAll(): void {
		for (const connection of this.connections.keys()) connection.close();
	}
}
