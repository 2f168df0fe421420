import type { Delivery, Message } from 'rhea';
import type { AdapterDelivery } from './adapter';

/**
 * A received AMQP message as the receiver takes it. `settle` sends the outcome; it is called once
 * at the most, whichever of accept, release and reject comes first.
 */
export function toAdapterDelivery(
	message: Message,
	delivery: Delivery,
	settle: (send: () => void) => void,
): AdapterDelivery {
	let done = false;
	const once = (send: () => void): void => {
		if (done) return;
		done = true;
		settle(send);
	};
	const properties = (message.application_properties ?? {}) as Record<string, unknown>;
	return {
		body: message.body,
		hints: {
			messageId: message.message_id === undefined ? undefined : String(message.message_id),
			dataType: String(properties.dataType ?? message.subject ?? '') || undefined,
		},
		accept: () => once(() => delivery.accept()),
		// `released`, the outcome every broker takes (RabbitMQ 3.x ends the session for
		// `modified`): back to the queue, delivered again.
		release: () => once(() => delivery.release()),
		reject: (reason) =>
			once(() => delivery.reject({ condition: 'amqp:decode-error', description: reason })),
	};
}
