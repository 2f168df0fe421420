import type { PushEnvelope } from '../../shared/push';
import { SUB_DATA_TYPES } from '../../shared/spec';
import { QUEUE_LIMIT, startAmqpBroker } from './amqp-broker';
import type { PushChannel, PushChannelOptions, PushHost } from './host';
import { onPushableData } from './messages';
import { startMqttBroker } from './mqtt-broker';

export type { PushChannel, PushChannelOptions, PushHost, SubscriberRecord } from './host';

/**
 * The simulator's push channel: an AMQP 1.0 endpoint and an MQTT broker, in-process, fed from
 * the bus. Each user receives the data its organization can see (P6) of the types it subscribed (E28).
 */
export async function startPushChannel(
	host: PushHost,
	options: PushChannelOptions,
): Promise<PushChannel> {
	const wants = (userName: string, envelope: PushEnvelope): boolean => {
		const user = host.findSubscriber(userName);
		return user !== undefined && user.subDataTypes.includes(SUB_DATA_TYPES[envelope.dataType]);
	};
	const amqp = await startAmqpBroker(
		host,
		{ host: options.host, port: options.amqpPort, queueLimit: options.queueLimit },
		wants,
	);
	const mqtt = await startMqttBroker(host, {
		host: options.host,
		port: options.mqttPort,
		queueLimit: options.queueLimit ?? QUEUE_LIMIT,
	});

	const offData = onPushableData(
		host.bus,
		() => host.now?.() ?? new Date(),
		({ orgId, envelope }) => {
			for (const user of host.listSubscribers()) {
				if (
					!(host.receives?.(user, orgId, envelope.dataType) ?? user.orgId === orgId) ||
					!user.subDataTypes.includes(SUB_DATA_TYPES[envelope.dataType])
				)
					continue;
				amqp.enqueue(user.userName, envelope);
				mqtt.publish(user.topic, envelope);
			}
		},
	);
	const offUsers = host.bus.on('subscriber.changed', ({ userName, change }) => {
		if (change === 'reset') {
			amqp.dropConnections(userName);
			mqtt.dropConnections(userName);
		} else if (change === 'deleted') {
			amqp.deleteUser(userName);
			mqtt.deleteUser(userName);
		}
	});

	return {
		urls: { amqp: amqp.url, mqtt: mqtt.url },
		close: async () => {
			offData();
			offUsers();
			await Promise.all([amqp.close(), mqtt.close()]);
		},
	};
}
