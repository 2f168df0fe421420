// MQTT adapter (mqtt.js, MQTT 3.1.1): user name and password, QoS 1, persistent session
// (clean: false, stable client id). PUBACK is sent only once the handler is done: mqtt.js sends it
// when handleMessage calls back. A failed handler withholds the PUBACK and drops the connection,
// so the broker delivers the message again on the next session (MQTT has no negative ack).
// Up to `prefetch` QoS 1 messages are handled at once (PubackWindow), each PUBACK after its handler.
import mqtt from 'mqtt';
import type { ErrorWithReasonCode, IClientOptions, IPublishPacket, MqttClient } from 'mqtt';
import type { AdapterSession, AdapterSettings, PushAdapter } from './adapter';
import { AdapterConnection } from './adapter-connection';
import { PushAuthError, PushError, PushStreamEndedError } from './errors';
import { PubackWindow } from './mqtt-window';

/** CONNACK return codes 4 (bad user name or password) and 5 (not authorized). */
const REFUSED_LOGIN = new Set([4, 5, 134, 135]);

export function createMqttAdapter(settings: AdapterSettings): PushAdapter {
	return {
		connect: (onDelivery) =>
			new Promise<AdapterSession>((resolve, reject) =>
				new MqttConnection(settings, onDelivery, resolve, reject).watch(),
			),
	};
}

function clientOptions(settings: AdapterSettings): IClientOptions {
	return {
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
	};
}

/** One MQTT connection; its session stands once the broker granted the subscription. */
class MqttConnection extends AdapterConnection {
	private readonly address = this.settings.address ?? `dm/${this.settings.topic}/#`;
	private readonly client: MqttClient = mqtt.connect(
		`${this.settings.url.protocol}//${this.settings.url.host}`,
		clientOptions(this.settings),
	);
	private readonly window = new PubackWindow(this.client, this.settings.prefetch);
	private subscribing = false;
	private subscribed = false;

	watch(): void {
		this.client.handleMessage = (packet, done) => this.receive(packet, done);
		this.client.on('connect', () => this.subscribe());
		this.client.on('error', (error: Error | ErrorWithReasonCode) => this.failed(error));
		this.client.on('close', () => this.closed());
	}

	private resolveSession(): void {
		this.subscribed = true;
		this.resolve({
			ended: this.ended,
			close: () =>
				new Promise<void>((done) => {
					this.closing = true;
					this.client.end(false, {}, () => done());
				}),
		});
	}

	/** The first error is the one the session ends with; before the subscription, it fails the connect. */
	private fail(error: PushError): void {
		this.lastError ??= error;
		if (!this.subscribed) {
			this.reject(error);
			this.client.end(true);
		}
	}

	private receive(packet: IPublishPacket, done: () => void): void {
		let settled = false;
		const once = (action: () => void) => () => {
			if (settled) return;
			settled = true;
			action();
		};
		// QoS 1: up to `prefetch` at once, each PUBACK after its handler; QoS 0 has none.
		const slot =
			packet.qos === 1 && packet.messageId !== undefined
				? this.window.admit(packet.messageId, () => done())
				: { handled: () => done(), failed: () => undefined };
		const lastLevel = packet.topic.split('/').pop();
		this.onDelivery({
			body: packet.payload,
			hints: { dataType: lastLevel },
			accept: once(() => slot.handled()),
			reject: once(() => slot.handled()),
			release: once(() => {
				slot.failed();
				this.redeliver();
			}),
		});
	}

	/** Drops the connection, so that the broker delivers an unhandled message again. */
	private redeliver(): void {
		this.lastError ??= new PushError(
			`MQTT session to ${this.safeUrl} dropped so that an unhandled message is redelivered`,
			false,
		);
		// A broker resends a persistent session's messages before it confirms the subscription
		// (Mosquitto does): the connection was made (CONNACK), so a failure then is no failed connect
		// and the reconnect backoff does not grow. mqtt.js reads nothing more until this message is
		// settled, so the SUBACK cannot be waited for.
		if (!this.subscribed) this.resolveSession();
		this.client.stream.destroy();
	}

	private subscribe(): void {
		this.subscribing = true;
		this.client.subscribe(this.address, { qos: 1 }, (error, granted) => {
			const refused = granted?.find((g) => g.qos === 128);
			if (error || refused) {
				this.fail(
					new PushStreamEndedError(
						`the broker refused the subscription to "${this.address}" for the data-subscription user "${this.settings.userName}": check the Topic in the credential, or ask the platform operator to grant this user read permission on it (${this.safeUrl}${error ? `: ${error.message}` : ''})`,
					),
				);
				return;
			}
			this.resolveSession();
		});
	}

	private failed(error: Error | ErrorWithReasonCode): void {
		const code = (error as ErrorWithReasonCode).code;
		if (typeof code === 'number' && REFUSED_LOGIN.has(code)) {
			this.fail(new PushAuthError(this.settings.userName, this.safeUrl, `CONNACK ${code}`));
		} else {
			this.fail(
				new PushError(`MQTT connection to ${this.safeUrl} failed: ${error.message}`, false),
			);
		}
	}

	private closed(): void {
		if (!this.subscribed) {
			// RabbitMQ's MQTT plugin answers a SUBSCRIBE it may not serve (no permission on its
			// subscription queue or amq.topic) by closing the connection, without a SUBACK.
			this.fail(
				this.lastError ??
					(this.subscribing
						? new PushStreamEndedError(
								`the broker closed the connection when the data-subscription user "${this.settings.userName}" subscribed to "${this.address}": ask the platform operator to grant this user permission to subscribe (RabbitMQ: configure, write and read on its mqtt-subscription queue, read on amq.topic) (${this.safeUrl})`,
							)
						: new PushError(
								`the MQTT connection to ${this.safeUrl} closed before the broker accepted the login; retrying`,
								false,
							)),
			);
		}
		this.client.end(true);
		this.resolveEnded(
			this.closing
				? undefined
				: (this.lastError ?? new PushError(`MQTT connection to ${this.safeUrl} lost`, false)),
		);
	}
}
