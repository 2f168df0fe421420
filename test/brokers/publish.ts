/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Puts pushed messages (assumption P3 envelopes) on a real broker, as the platform would.
import mqtt from 'mqtt';
import { create_container, message as amqpMessage, type EventContext } from 'rhea';
import { mqttTopicOf, type PushEnvelope } from '../../shared/push';

export function eventEnvelope(orgId: number, assetId: number, id: number): PushEnvelope {
	const time = new Date(Date.UTC(2026, 0, 1, 0, 0, id % 60)).toISOString();
	return {
		messageId: `AssetEvent:${assetId}:${id}:Open`,
		dataType: 'AssetEvent',
		orgId,
		assetId,
		time,
		data: {
			id,
			eventType: 'Fault',
			eventCode: `F${id}`,
			eventDateTime: time,
			eventStatus: 'Open',
			content: `event ${id}`,
			deviceWorkStatus: 1,
			isHasEventLogger: false,
		},
	};
}

/** Sends durable messages to `address` and resolves once the broker accepted every one. */
export async function publishAmqp(
	url: string,
	user: string,
	password: string,
	address: string,
	envelopes: PushEnvelope[],
): Promise<void> {
	const target = new URL(url);
	const connection = create_container({ id: `publisher-${process.pid}` }).connect({
		host: target.hostname,
		port: Number(target.port),
		username: user,
		password,
		reconnect: false,
	});
	try {
		await new Promise<void>((resolve, reject) => {
			const sender = connection.open_sender({ target: { address } });
			let next = 0;
			let accepted = 0;
			const pump = (): void => {
				while (next < envelopes.length && sender.sendable()) {
					const envelope = envelopes[next++];
					sender.send({
						durable: true,
						message_id: envelope.messageId,
						subject: envelope.dataType,
						content_type: 'application/json',
						body: amqpMessage.data_section(Buffer.from(JSON.stringify(envelope))),
					});
				}
			};
			sender.on('sendable', pump);
			sender.on('accepted', () => {
				if (++accepted === envelopes.length) resolve();
			});
			for (const event of [
				'rejected',
				'released',
				'sender_error',
				'connection_error',
				'session_error',
			]) {
				connection.on(event, (context: EventContext) =>
					reject(
						new Error(
							`publishing to ${address}: ${event} ${JSON.stringify(context.delivery?.remote_state ?? context.sender?.error ?? context.session?.error ?? context.connection.error)}`,
						),
					),
				);
			}
		});
	} finally {
		connection.close();
	}
}

/** Publishes at QoS 1 on `dm/{topic}/AssetEvent` and resolves once every PUBACK came. */
export async function publishMqtt(
	url: string,
	user: string,
	password: string,
	topic: string,
	envelopes: PushEnvelope[],
): Promise<void> {
	const client = await mqtt.connectAsync(url, {
		username: user,
		password,
		clientId: `publisher-${process.pid}-${Date.now()}`,
		reconnectPeriod: 0,
		protocolVersion: 4,
	});
	try {
		for (let i = 0; i < envelopes.length; i += 100) {
			await Promise.all(
				envelopes
					.slice(i, i + 100)
					.map((e) =>
						client.publishAsync(mqttTopicOf(topic, e.dataType), JSON.stringify(e), { qos: 1 }),
					),
			);
		}
	} finally {
		await client.endAsync();
	}
}
