/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// A data-subscription user set up on a broker as the platform would (its queue, its
// permissions), and a way to put AssetEvent messages in front of it: one place for every suite.
import { randomUUID } from 'node:crypto';
import type { TestPlatform } from '../push/platform';
import type { Mosquitto } from './mosquitto';
import { eventEnvelope, publishAmqp, publishMqtt } from './publish';
import type { RabbitMq } from './rabbitmq';

export type BrokerKind =
	| 'simulator-amqp'
	| 'simulator-mqtt'
	| 'rabbitmq-amqp'
	| 'rabbitmq-mqtt'
	| 'mosquitto';

export interface Subscriber {
	url: string;
	userName: string;
	password: string;
	topic: string;
}

export interface BrokerTarget {
	settings: Subscriber;
	/** AssetEvent messages with these event ids, in order, acknowledged by the broker. */
	publish(ids: number[]): Promise<void>;
}

export interface Brokers {
	rabbit?: RabbitMq;
	mosquitto?: Mosquitto;
	platform?: TestPlatform;
}

/** `grant: false` sets the user up without the permission it needs to read. */
export async function provision(
	brokers: Brokers,
	kind: BrokerKind,
	where: { orgId: number; assetId: number },
	grant = true,
): Promise<BrokerTarget> {
	const id = randomUUID().slice(0, 8);
	const user = { userName: `dm-${id}`, password: `pw-${randomUUID()}`, topic: `q-${id}` };
	const envelopes = (ids: number[]) => ids.map((n) => eventEnvelope(where.orgId, where.assetId, n));
	const { rabbit, mosquitto, platform } = brokers;
	switch (kind) {
		case 'simulator-amqp':
		case 'simulator-mqtt': {
			const simUser = platform!.createUser(where.orgId, [1]);
			return {
				settings: {
					url: platform!.channel.urls[kind === 'simulator-amqp' ? 'amqp' : 'mqtt'],
					...simUser,
				},
				publish: async (ids) => {
					// In slices: aedes recurses once per message published in one tick.
					for (let i = 0; i < ids.length; i += 200) {
						for (const n of ids.slice(i, i + 200))
							platform!.raiseEvent(where.orgId, where.assetId, n);
						await new Promise((resolve) => setImmediate(resolve));
					}
				},
			};
		}
		case 'rabbitmq-amqp':
			// AMQP: read on its own queue, nothing else (a bare-name attach would need configure).
			await rabbit!.declareQueue(user.topic);
			await rabbit!.addUser(user.userName, user.password, {
				configure: '^$',
				write: '^$',
				read: grant ? `^${user.topic}$` : '^$',
			});
			return {
				settings: { url: rabbit!.amqpUrl, ...user },
				publish: (ids) =>
					publishAmqp(
						rabbit!.amqpUrl,
						rabbit!.adminUser,
						rabbit!.adminPassword,
						`/amq/queue/${user.topic}`,
						envelopes(ids),
					),
			};
		case 'rabbitmq-mqtt': {
			// MQTT: the plugin's own subscription queues (client id dm-<userName> of the receiver, a
			// trigger's per-workflow dmw/dmt + 20 hex digits) and amq.topic.
			const clients = `(dm-${user.userName}|dm[wt][0-9a-f]{20})`;
			const own = `^mqtt-subscription-${clients}qos[01]$`;
			const read = `^(amq\\.topic|mqtt-subscription-${clients}qos[01])$`;
			await rabbit!.addUser(
				user.userName,
				user.password,
				grant ? { configure: own, write: own, read } : { configure: '^$', write: '^$', read: '^$' },
			);
			return {
				settings: { url: rabbit!.mqttUrl, ...user },
				publish: (ids) =>
					publishMqtt(
						rabbit!.mqttUrl,
						rabbit!.adminUser,
						rabbit!.adminPassword,
						user.topic,
						envelopes(ids),
					),
			};
		}
		case 'mosquitto':
			await mosquitto!.addUser(
				user.userName,
				user.password,
				grant ? `dm/${user.topic}/#` : undefined,
			);
			return {
				settings: { url: mosquitto!.url, ...user },
				publish: (ids) =>
					publishMqtt(
						mosquitto!.url,
						mosquitto!.adminUser,
						mosquitto!.adminPassword,
						user.topic,
						envelopes(ids),
					),
			};
	}
}
