/* eslint-disable @n8n/community-nodes/no-restricted-globals -- Node-only core code: the bot and the self-hosted push companion load it, the n8n Cloud pack does not, and n8n Cloud's rules govern the pack */
// AMQP 1.0 adapter (rhea): SASL PLAIN with the data-subscription user, one receiver link on the
// user's queue, manual settlement (accepted after the handler, released otherwise).
import { create_container, type Connection, type ConnectionOptions, type EventContext } from 'rhea';
import type { AdapterSession, AdapterSettings, PushAdapter } from './adapter';
import { AdapterConnection } from './adapter-connection';
import { defaultAmqpAddress } from './amqp-address';
import { openQueueLink } from './amqp-link';
import { explainAmqpCondition, type BrokerCondition } from './broker-errors';
import { PushAuthError, PushError } from './errors';
import { destroyAmqpSocket } from './rhea-socket';

export function createAmqpAdapter(settings: AdapterSettings): PushAdapter {
	return {
		connect: (onDelivery) =>
			new Promise<AdapterSession>((resolve, reject) =>
				new AmqpConnection(settings, onDelivery, resolve, reject).watch(),
			),
	};
}

function connectionOptions(settings: AdapterSettings): ConnectionOptions {
	const secure = settings.url.protocol === 'amqps:';
	return {
		host: settings.url.hostname,
		port: Number(settings.url.port) || (secure ? 5671 : 5672),
		transport: secure ? 'tls' : 'tcp',
		servername: settings.url.hostname,
		rejectUnauthorized: !settings.allowUnauthorizedCerts,
		username: settings.userName,
		password: settings.password,
		reconnect: false,
		idle_time_out: 60_000,
	} as ConnectionOptions;
}

/** One AMQP connection; its session stands once the link on the user's queue is open. */
class AmqpConnection extends AdapterConnection {
	private address = this.settings.address ?? this.settings.topic;
	private readonly timer = setTimeout(() => this.timedOut(), this.settings.connectTimeoutMs);
	private readonly connection: Connection = create_container({
		id: this.settings.clientId,
	}).connect(connectionOptions(this.settings));
	private opened = false;
	private finished = false;

	watch(): void {
		this.watchErrors();
		// rhea says 'disconnected' only for a socket lost while open; a close by either side ends
		// with 'connection_close'. Either way the session is over.
		this.connection.on('disconnected', (context: EventContext) =>
			this.finish((context as { error?: { message?: string; code?: string } }).error),
		);
		this.connection.on('connection_close', () => this.finish());
		// The link opens once the broker said who it is: its open frame picks the address form.
		this.connection.once('connection_open', (context: EventContext) => this.openLink(context));
	}

	/**
	 * Errors of every level: the broker says why in the connection's, the session's (RabbitMQ
	 * refuses an attach by ending the session) or the link's error.
	 */
	private watchErrors(): void {
		const connection = this.connection;
		connection.on('connection_error', (context: EventContext) => {
			const error = (context.error ?? context.connection.error) as BrokerCondition | undefined;
			if (
				!this.opened &&
				error?.condition === 'amqp:unauthorized-access' &&
				!connection.is_open()
			) {
				this.fail(new PushAuthError(this.settings.userName, this.safeUrl, 'SASL PLAIN refused'));
			} else {
				this.fail(this.explain('connection', error));
			}
		});
		connection.on('session_error', (context: EventContext) =>
			this.fail(this.explain('session', context.session?.error as BrokerCondition | undefined)),
		);
		connection.on('receiver_error', (context: EventContext) =>
			this.fail(
				this.explain(
					'link',
					(context.receiver?.error ?? context.error) as BrokerCondition | undefined,
				),
			),
		);
		const endWithConnection = (): void => {
			// The broker ended the link or session (E29, a deleted queue): the connection goes with it.
			if (!this.closing && connection.is_open()) connection.close();
		};
		connection.on('receiver_close', endWithConnection);
		connection.on('session_close', endWithConnection);
		connection.on('protocol_error', (context: EventContext) =>
			this.fail(
				new PushError(`AMQP protocol error from ${this.safeUrl}: ${String(context.error)}`, false),
			),
		);
		connection.on('error', (context: EventContext) =>
			this.fail(this.explain('connection', context.error as BrokerCondition | undefined)),
		);
	}

	private explain(
		where: 'connection' | 'session' | 'link',
		error: BrokerCondition | undefined,
	): PushError {
		return explainAmqpCondition(error, {
			where,
			url: this.safeUrl,
			userName: this.settings.userName,
			address: this.address,
		});
	}

	/** The first error is the one the session ends with; before the link opened, it fails the connect. */
	private fail(error: PushError): void {
		this.lastError ??= error;
		if (this.opened) return;
		clearTimeout(this.timer);
		this.reject(error);
		// rhea only half-closes after a refused login; the socket must not outlive the attempt.
		destroyAmqpSocket(this.connection);
	}

	private timedOut(): void {
		this.fail(
			new PushError(
				`the AMQP broker ${this.safeUrl} did not open the link to "${this.address}" within ${this.settings.connectTimeoutMs} ms: check the Broker URL and that the broker is running`,
				false,
			),
		);
		this.connection.close();
		destroyAmqpSocket(this.connection);
	}

	private finish(cause?: { message?: string; code?: string }): void {
		if (this.finished) return;
		this.finished = true;
		clearTimeout(this.timer);
		if (!this.lastError && !this.closing) {
			this.fail(
				new PushError(
					`the AMQP connection to ${this.safeUrl} was lost${cause ? ` (${cause.code ?? cause.message})` : ''}; reconnecting`,
					false,
				),
			);
		}
		if (!this.opened)
			this.reject(
				this.lastError ??
					new PushError(
						`the AMQP connection to ${this.safeUrl} closed before the link to "${this.address}" opened`,
						false,
					),
			);
		destroyAmqpSocket(this.connection);
		this.resolveEnded(this.closing ? undefined : this.lastError);
	}

	private openLink(context: EventContext): void {
		if (this.settings.address === undefined)
			this.address = defaultAmqpAddress(
				this.settings.topic,
				context.connection.properties as Record<string, unknown> | undefined,
			);
		openQueueLink(context.connection, {
			name: this.settings.clientId,
			address: this.address,
			prefetch: this.settings.prefetch,
			onOpen: () => this.linkOpened(),
			onDelivery: this.onDelivery,
			ended: () => this.finished,
		});
	}

	private linkOpened(): void {
		clearTimeout(this.timer);
		this.opened = true;
		this.resolve({ ended: this.ended, close: () => this.close() });
	}

	private async close(): Promise<void> {
		this.closing = true;
		if (this.connection.is_open()) {
			this.connection.close();
			// The broker's close answer, or 2 s; the wait must not outlive it.
			let wait: NodeJS.Timeout | undefined;
			await Promise.race([
				this.ended,
				new Promise<void>((resolve) => (wait = setTimeout(resolve, 2000))),
			]);
			clearTimeout(wait);
		}
		destroyAmqpSocket(this.connection);
		this.resolveEnded(undefined);
	}
}
