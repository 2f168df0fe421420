/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the platform simulator, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { message as amqpMessage, type EventContext } from 'rhea';
import type { PushEnvelope } from '../../shared/push';
import type { AmqpUsers } from './amqp-users';
import type { PushHost } from './host';

/**
 * A consumer attaches a sender link: it consumes its user's queue when the address is the user's
 * topic; otherwise the link is refused with the reason.
 */
export function openSender(context: EventContext, host: PushHost, users: AmqpUsers): void {
	const sender = context.sender!;
	const userName = users.userOf(context.connection);
	const user = userName ? host.findSubscriber(userName) : undefined;
	const address = (sender as unknown as { remote?: { attach?: { source?: { address?: string } } } })
		.remote?.attach?.source?.address;
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
	users.consume(sender, userName, {
		canSend: () => sender.sendable(),
		send: (envelope) => sender.send(toAmqpMessage(envelope)),
	});
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
