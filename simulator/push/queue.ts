import type { PushEnvelope } from '../../shared/push';

/** A consumer link with credit; `send` hands one message over and returns its delivery token. */
export interface QueueConsumer {
	canSend(): boolean;
	send(envelope: PushEnvelope): object;
}

/**
 * One data-subscription user's queue (AMQP side): messages wait here until a consumer accepts
 * them; released ones and those in flight on a lost link go back to the front, in order.
 */
export class UserQueue {
	private pending: PushEnvelope[] = [];
	private head = 0;
	private readonly inFlight = new Map<
		object,
		{ envelope: PushEnvelope; consumer: QueueConsumer; seq: number }
	>();
	private readonly consumers: QueueConsumer[] = [];
	private nextConsumer = 0;
	private seq = 0;
	dropped = 0;

	constructor(
		private readonly limit: number,
		/** Still deliverable? (the user may have unsubscribed the type since, E28). */
		private readonly wanted: (envelope: PushEnvelope) => boolean,
	) {}

	get depth(): number {
		return this.pending.length - this.head + this.inFlight.size;
	}

	enqueue(envelope: PushEnvelope): void {
		this.pending.push(envelope);
		if (this.pending.length - this.head > this.limit) {
			this.head++;
			this.dropped++;
		}
		this.pump();
	}

	attach(consumer: QueueConsumer): void {
		this.consumers.push(consumer);
		this.pump();
	}

	/** The consumer is gone: whatever it had not settled is delivered again. */
	detach(consumer: QueueConsumer): void {
		const index = this.consumers.indexOf(consumer);
		if (index >= 0) this.consumers.splice(index, 1);
		const back = [...this.inFlight.entries()]
			.filter(([, v]) => v.consumer === consumer)
			.sort((a, b) => a[1].seq - b[1].seq);
		for (const [token] of back) this.inFlight.delete(token);
		this.requeue(back.map(([, v]) => v.envelope));
	}

	settle(token: object, outcome: 'accepted' | 'released' | 'rejected'): void {
		const entry = this.inFlight.get(token);
		if (!entry) return;
		this.inFlight.delete(token);
		if (outcome === 'released') this.requeue([entry.envelope]);
		else this.pump();
	}

	/** Offers waiting messages to consumers with credit, round robin. */
	pump(): void {
		while (this.head < this.pending.length) {
			const consumer = this.nextWithCredit();
			if (!consumer) break;
			const envelope = this.pending[this.head++];
			if (!this.wanted(envelope)) continue;
			this.inFlight.set(consumer.send(envelope), { envelope, consumer, seq: this.seq++ });
		}
		if (this.head > 1024 && this.head * 2 > this.pending.length) {
			this.pending = this.pending.slice(this.head);
			this.head = 0;
		}
	}

	private requeue(envelopes: PushEnvelope[]): void {
		if (envelopes.length > 0) {
			this.pending = [...envelopes, ...this.pending.slice(this.head)];
			this.head = 0;
		}
		this.pump();
	}

	private nextWithCredit(): QueueConsumer | undefined {
		for (let i = 0; i < this.consumers.length; i++) {
			const consumer = this.consumers[(this.nextConsumer + i) % this.consumers.length];
			if (consumer.canSend()) {
				this.nextConsumer = (this.nextConsumer + i + 1) % this.consumers.length;
				return consumer;
			}
		}
		return undefined;
	}
}
