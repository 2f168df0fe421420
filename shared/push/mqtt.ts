// MQTT adapter (mqtt.js, MQTT 3.1.1): user name and password, QoS 1, persistent session
// (clean: false, stable client id). PUBACK is sent only once the handler is done: mqtt.js sends it
// when handleMessage calls back. A failed handler withholds the PUBACK and drops the connection,
// so the broker delivers the message again on the next session (MQTT has no negative ack).
// Up to `prefetch` QoS 1 messages are handled at once (PubackWindow), each PUBACK after its handler.
import mqtt from 'mqtt';
import type { ErrorWithReasonCode, IPublishPacket, MqttClient } from 'mqtt';
import type { AdapterSession, AdapterSettings, PushAdapter } from './adapter';
import { PushAuthError, PushError, PushStreamEndedError, redactUrl } from './errors';
import { PubackWindow } from './mqtt-window';

/** CONNACK return codes 4 (bad user name or password) and 5 (not authorized). */
const REFUSED_LOGIN = new Set([4, 5, 134, 135]);

export function createMqttAdapter(settings: AdapterSettings): PushAdapter {
	const safeUrl = redactUrl(settings.url.toString());
	const brokerUrl = `${settings.url.protocol}//${settings.url.host}`;
	const address = settings.address ?? `dm/${settings.topic}/#`;
	return {
		connect: (onDelivery) =>
			new Promise<AdapterSession>((resolve, reject) => {
				let endedResolve!: (error: PushError | undefined) => void;
				const ended = new Promise<PushError | undefined>((r) => (endedResolve = r));
				let subscribed = false;
				const resolveSession = (): void => {
					subscribed = true;
					resolve({
						ended,
						close: () =>
							new Promise<void>((done) => {
								closing = true;
								client.end(false, {}, () => done());
							}),
					});
				};
				let closing = false;
				let lastError: PushError | undefined;

				const client: MqttClient = mqtt.connect(brokerUrl, {
					username: settings.userName,
					password: settings.password,
					clientId: settings.clientId,
					clean: !settings.persistentSession,
					protocolVersion: 4,
					reconnectPeriod: 0,
					connectTimeout: settings.connectTimeoutMs,
					keepalive: 60,
					rejectUnauthorized: !settings.allowUnauthorizedCerts,
					resubscribe: false,
				});

				const fail = (error: PushError): void => {
					lastError ??= error;
					if (!subscribed) {
						reject(error);
						client.end(true);
					}
				};

				const window = new PubackWindow(client, settings.prefetch);
				client.handleMessage = (packet: IPublishPacket, done) => {
					let settled = false;
					const once = (action: () => void) => () => {
						if (settled) return;
						settled = true;
						action();
					};
					// QoS 1: up to `prefetch` at once, each PUBACK after its handler; QoS 0 has none.
					const slot =
						packet.qos === 1 && packet.messageId !== undefined
							? window.admit(packet.messageId, () => done())
							: { handled: () => done(), failed: () => undefined };
					const lastLevel = packet.topic.split('/').pop();
					onDelivery({
						body: packet.payload,
						hints: { dataType: lastLevel },
						accept: once(() => slot.handled()),
						reject: once(() => slot.handled()),
						release: once(() => {
							slot.failed();
							lastError ??= new PushError(
								`MQTT session to ${safeUrl} dropped so that an unhandled message is redelivered`,
								false,
							);
							// A broker resends a persistent session's messages before it confirms the
							// subscription (Mosquitto does): the connection was made (CONNACK), so a failure
							// then is no failed connect and the reconnect backoff does not grow. mqtt.js reads
							// nothing more until this message is settled, so the SUBACK cannot be waited for.
							if (!subscribed) resolveSession();
							client.stream.destroy();
						}),
					});
				};

				let subscribing = false;
				client.on('connect', () => {
					subscribing = true;
					client.subscribe(address, { qos: 1 }, (error, granted) => {
						const refused = granted?.find((g) => g.qos === 128);
						if (error || refused) {
							fail(
								new PushStreamEndedError(
									`the broker refused the subscription to "${address}" for the data-subscription user "${settings.userName}": check the Topic in the credential, or ask the platform operator to grant this user read permission on it (${safeUrl}${error ? `: ${error.message}` : ''})`,
								),
							);
							return;
						}
						resolveSession();
					});
				});
				client.on('error', (error: Error | ErrorWithReasonCode) => {
					const code = (error as ErrorWithReasonCode).code;
					if (typeof code === 'number' && REFUSED_LOGIN.has(code)) {
						fail(new PushAuthError(settings.userName, safeUrl, `CONNACK ${code}`));
					} else {
						fail(new PushError(`MQTT connection to ${safeUrl} failed: ${error.message}`, false));
					}
				});
				client.on('close', () => {
					if (!subscribed) {
						// RabbitMQ's MQTT plugin answers a SUBSCRIBE it may not serve (no permission on its
						// subscription queue or amq.topic) by closing the connection, without a SUBACK.
						fail(
							lastError ??
								(subscribing
									? new PushStreamEndedError(
											`the broker closed the connection when the data-subscription user "${settings.userName}" subscribed to "${address}": ask the platform operator to grant this user permission to subscribe (RabbitMQ: configure, write and read on its mqtt-subscription queue, read on amq.topic) (${safeUrl})`,
										)
									: new PushError(
											`the MQTT connection to ${safeUrl} closed before the broker accepted the login; retrying`,
											false,
										)),
						);
					}
					client.end(true);
					endedResolve(
						closing
							? undefined
							: (lastError ?? new PushError(`MQTT connection to ${safeUrl} lost`, false)),
					);
				});
			}),
	};
}
