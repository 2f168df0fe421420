/* eslint-disable @n8n/community-nodes/no-restricted-globals -- Node-only core code: the bot and the self-hosted push companion load it, the n8n Cloud pack does not, and n8n Cloud's rules govern the pack */
// AMQP 1.0 adapter (rhea): SASL PLAIN with the data-subscription user, one receiver link on the
// user's queue, manual settlement (accepted after the handler, released otherwise).
import { create_container, type Connection, type ConnectionOptions, type EventContext } from 'rhea';
import type { AdapterDelivery, AdapterSession, AdapterSettings, PushAdapter } from './adapter';
import { explainAmqpCondition, type BrokerCondition } from './broker-errors';
import { PushAuthError, PushError, redactUrl } from './errors';
import { keepOutcomesApart } from './rhea-dispositions';
import { destroyAmqpSocket } from './rhea-socket';

/**
 * The source address of the user's queue when no template is set, from the broker's open frame:
 * RabbitMQ 3.x reads an existing queue only as `/amq/queue/{name}` (a bare name means "declare
 * it", refused to a read-only user), RabbitMQ 4.x as `/queues/{name}`; the simulator, ActiveMQ
 * Artemis and Qpid take the bare name (assumption P2).
 */
export function defaultAmqpAddress(
	topic: string,
	serverProperties: Record<string, unknown> | undefined,
): string {
	const product = String(serverProperties?.product ?? '');
	if (!/rabbitmq/i.test(product)) return topic;
	const major = Number(/^(\d+)/.exec(String(serverProperties?.version ?? ''))?.[1] ?? 3);
	return major >= 4 ? `/queues/${encodeURIComponent(topic)}` : `/amq/queue/${topic}`;
}

export function createAmqpAdapter(settings: AdapterSettings): PushAdapter {
	const safeUrl = redactUrl(settings.url.toString());
	return {
		connect: (onDelivery) =>
			new Promise<AdapterSession>((resolve, reject) => {
				const container = create_container({ id: settings.clientId });
				let opened = false;
				let endedResolve!: (error: PushError | undefined) => void;
				const ended = new Promise<PushError | undefined>((r) => (endedResolve = r));
				let lastError: PushError | undefined;
				let closing = false;
				let address = settings.address ?? settings.topic;

				const fail = (error: PushError): void => {
					lastError ??= error;
					if (opened) return;
					clearTimeout(timer);
					reject(error);
					// rhea only half-closes after a refused login; the socket must not outlive the attempt.
					destroyAmqpSocket(connection);
				};
				const explain = (
					where: 'connection' | 'session' | 'link',
					error: BrokerCondition | undefined,
				): PushError =>
					explainAmqpCondition(error, {
						where,
						url: safeUrl,
						userName: settings.userName,
						address,
					});

				const timer = setTimeout(() => {
					fail(
						new PushError(
							`the AMQP broker ${safeUrl} did not open the link to "${address}" within ${settings.connectTimeoutMs} ms: check the Broker URL and that the broker is running`,
							false,
						),
					);
					connection.close();
					destroyAmqpSocket(connection);
				}, settings.connectTimeoutMs);

				const secure = settings.url.protocol === 'amqps:';
				const connection: Connection = container.connect({
					host: settings.url.hostname,
					port: Number(settings.url.port) || (secure ? 5671 : 5672),
					transport: secure ? 'tls' : 'tcp',
					servername: settings.url.hostname,
					rejectUnauthorized: !settings.allowUnauthorizedCerts,
					username: settings.userName,
					password: settings.password,
					reconnect: false,
					idle_time_out: 60_000,
				} as ConnectionOptions);

				// Errors of every level: the broker says why in the connection's, the session's (RabbitMQ
				// refuses an attach by ending the session) or the link's error.
				connection.on('connection_error', (context: EventContext) => {
					const error = (context.error ?? context.connection.error) as BrokerCondition | undefined;
					if (!opened && error?.condition === 'amqp:unauthorized-access' && !connection.is_open()) {
						fail(new PushAuthError(settings.userName, safeUrl, 'SASL PLAIN refused'));
					} else {
						fail(explain('connection', error));
					}
				});
				connection.on('session_error', (context: EventContext) =>
					fail(explain('session', context.session?.error as BrokerCondition | undefined)),
				);
				connection.on('receiver_error', (context: EventContext) =>
					fail(
						explain(
							'link',
							(context.receiver?.error ?? context.error) as BrokerCondition | undefined,
						),
					),
				);
				const endWithConnection = (): void => {
					// The broker ended the link or session (E29, a deleted queue): the connection goes with it.
					if (!closing && connection.is_open()) connection.close();
				};
				connection.on('receiver_close', endWithConnection);
				connection.on('session_close', endWithConnection);
				connection.on('protocol_error', (context: EventContext) =>
					fail(
						new PushError(`AMQP protocol error from ${safeUrl}: ${String(context.error)}`, false),
					),
				);
				connection.on('error', (context: EventContext) =>
					fail(explain('connection', context.error as BrokerCondition | undefined)),
				);
				// rhea says 'disconnected' only for a socket lost while open; a close by either side ends
				// with 'connection_close'. Either way the session is over.
				let finished = false;
				const finish = (cause?: { message?: string; code?: string }): void => {
					if (finished) return;
					finished = true;
					clearTimeout(timer);
					if (!lastError && !closing) {
						fail(
							new PushError(
								`the AMQP connection to ${safeUrl} was lost${cause ? ` (${cause.code ?? cause.message})` : ''}; reconnecting`,
								false,
							),
						);
					}
					if (!opened)
						reject(
							lastError ??
								new PushError(
									`the AMQP connection to ${safeUrl} closed before the link to "${address}" opened`,
									false,
								),
						);
					destroyAmqpSocket(connection);
					endedResolve(closing ? undefined : lastError);
				};
				connection.on('disconnected', (context: EventContext) =>
					finish((context as { error?: { message?: string; code?: string } }).error),
				);
				connection.on('connection_close', () => finish());

				// The link opens once the broker said who it is: its open frame picks the address form.
				connection.once('connection_open', (context: EventContext) => {
					if (settings.address === undefined)
						address = defaultAmqpAddress(
							settings.topic,
							context.connection.properties as Record<string, unknown> | undefined,
						);
					// Credit by hand: rhea's credit_window tops up as messages arrive, not as they are
					// settled, so it would not bound the handlers running at once. Credit is topped up to
					// `prefetch` minus the unsettled, and only once all granted arrived (credit 0): then no
					// transfer is in flight, and RabbitMQ 3.x, which reads a flow's credit as counted from
					// what it has sent, cannot overshoot.
					const receiver = context.connection.open_receiver({
						name: settings.clientId,
						source: { address },
						autoaccept: false,
						credit_window: 0,
					});
					// A batch is settled message by message in one turn of the event loop: counted at the
					// first settlement, the top-up would grant one message and hold the rest of the batch's
					// credit back until the next batch window. Topped up once that turn is over.
					let topUp: ReturnType<typeof setImmediate> | undefined;
					creditBack = () => {
						topUp ??= setImmediate(() => {
							topUp = undefined;
							const missing = settings.prefetch - unsettled;
							if (
								receiver.is_open() &&
								(receiver as unknown as { credit: number }).credit === 0 &&
								missing > 0
							)
								receiver.add_credit(missing);
						});
					};
					keepOutcomesApart(receiver);
					// A broker refuses a link by attaching it without a source and detaching it with the
					// error (the simulator does; RabbitMQ ends the session): that is no open link.
					receiver.on('receiver_open', () => {
						if (
							!(receiver as unknown as { remote?: { attach?: { source?: unknown } } }).remote
								?.attach?.source
						)
							return;
						receiver.add_credit(settings.prefetch);
						onOpen();
					});
					receiver.on('message', (messageContext: EventContext) => onMessage(messageContext));
				});
				const onOpen = (): void => {
					clearTimeout(timer);
					opened = true;
					resolve({
						ended,
						close: async () => {
							closing = true;
							if (connection.is_open()) {
								connection.close();
								// The broker's close answer, or 2 s; the wait must not outlive it.
								let wait: NodeJS.Timeout | undefined;
								await Promise.race([
									ended,
									new Promise<void>((resolve) => (wait = setTimeout(resolve, 2000))),
								]);
								clearTimeout(wait);
							}
							destroyAmqpSocket(connection);
							endedResolve(undefined);
						},
					});
				};
				let creditBack = (): void => undefined;
				let unsettled = 0;
				const settleOnce = (send: () => void): void => {
					if (finished) return;
					send();
					unsettled--;
					creditBack();
				};
				const onMessage = (context: EventContext): void => {
					const { message, delivery } = context;
					if (!message || !delivery) return;
					unsettled++;
					let done = false;
					const settle = (send: () => void): void => {
						if (done) return;
						done = true;
						settleOnce(send);
					};
					const properties = (message.application_properties ?? {}) as Record<string, unknown>;
					const item: AdapterDelivery = {
						body: message.body,
						hints: {
							messageId: message.message_id === undefined ? undefined : String(message.message_id),
							dataType: String(properties.dataType ?? message.subject ?? '') || undefined,
						},
						// Settling after the connection ended would write to a dead socket and re-arm rhea's
						// timers; the broker redelivers what was not settled anyway.
						accept: () => settle(() => delivery.accept()),
						// `released`, the outcome every broker takes (RabbitMQ 3.x ends the session for
						// `modified`): back to the queue, delivered again.
						release: () => settle(() => delivery.release()),
						reject: (reason) =>
							settle(() =>
								delivery.reject({ condition: 'amqp:decode-error', description: reason }),
							),
					};
					onDelivery(item);
				};
			}),
	};
}
