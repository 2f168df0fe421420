/* eslint-disable @n8n/community-nodes/no-restricted-globals -- Node-only core code: the bot and the self-hosted push companion load it, the n8n Cloud pack does not, and n8n Cloud's rules govern the pack */
// The receiver link on the user's queue, with manual settlement and credit granted by hand.
import type { Connection, EventContext, Receiver } from 'rhea';
import type { AdapterDelivery } from './adapter';
import { toAdapterDelivery } from './amqp-delivery';
import { keepOutcomesApart } from './rhea-dispositions';

export interface QueueLinkOptions {
	/** The link's name: the client id, so that the broker sees the same consumer on every connection. */
	name: string;
	address: string;
	/** Deliveries unsettled at once, at the most. */
	prefetch: number;
	/** The broker attached the link to the queue. */
	onOpen(): void;
	onDelivery(delivery: AdapterDelivery): void;
	/** True once the connection has ended. */
	ended(): boolean;
}

/**
 * Opens the link. Credit by hand: rhea's credit_window tops up as messages arrive, not as they
 * are settled, so it would not bound the handlers running at once.
 */
export function openQueueLink(connection: Connection, options: QueueLinkOptions): void {
	const receiver = connection.open_receiver({
		name: options.name,
		source: { address: options.address },
		autoaccept: false,
		credit_window: 0,
	});
	const credit = creditByHand(receiver, options.prefetch);
	keepOutcomesApart(receiver);
	// A broker refuses a link by attaching it without a source and detaching it with the error
	// (the simulator does; RabbitMQ ends the session): that is no open link.
	receiver.on('receiver_open', () => {
		if (
			!(receiver as unknown as { remote?: { attach?: { source?: unknown } } }).remote?.attach
				?.source
		)
			return;
		receiver.add_credit(options.prefetch);
		options.onOpen();
	});
	receiver.on('message', (context: EventContext) => {
		const { message, delivery } = context;
		if (!message || !delivery) return;
		credit.received();
		options.onDelivery(
			toAdapterDelivery(message, delivery, (send) => {
				// Settling after the connection ended would write to a dead socket and re-arm rhea's
				// timers; the broker redelivers what was not settled anyway.
				if (options.ended()) return;
				send();
				credit.settled();
			}),
		);
	});
}

/**
 * Credit is topped up to `prefetch` minus the unsettled, and only once all granted arrived
 * (credit 0): then no transfer is in flight, and RabbitMQ 3.x, which reads a flow's credit as
 * counted from what it has sent, cannot overshoot. A batch is settled message by message in one
 * turn of the event loop: counted at the first settlement, the top-up would grant one message
 * and hold the rest of the batch's credit back until the next batch window. Topped up once that
 * turn is over.
 */
function creditByHand(receiver: Receiver, prefetch: number) {
	let unsettled = 0;
	let topUp: ReturnType<typeof setImmediate> | undefined;
	return {
		received: (): void => {
			unsettled++;
		},
		settled: (): void => {
			unsettled--;
			topUp ??= setImmediate(() => {
				topUp = undefined;
				const missing = prefetch - unsettled;
				if (
					receiver.is_open() &&
					(receiver as unknown as { credit: number }).credit === 0 &&
					missing > 0
				)
					receiver.add_credit(missing);
			});
		},
	};
}
