// AMQP 1.0 adapter (rhea): SASL PLAIN with the data-subscription user, one receiver link on the
// address, manual settlement (accept after the handler, release with delivery-failed otherwise).
import { create_container, type Connection, type ConnectionOptions, type EventContext } from 'rhea';
import type { AdapterDelivery, AdapterSession, AdapterSettings, PushAdapter } from './adapter';
import { PushAuthError, PushError, PushStreamEndedError, redactUrl } from './errors';

/** Link or connection conditions after which reconnecting cannot succeed. */
const ENDED_CONDITIONS = new Set(['amqp:resource-deleted', 'amqp:not-found', 'amqp:unauthorized-access', 'amqp:not-allowed']);

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

        const fail = (error: PushError): void => {
          lastError ??= error;
          if (opened) return;
          reject(error);
          // rhea only half-closes after a refused login; the socket must not outlive the attempt.
          destroySocket(connection);
        };

        const timer = setTimeout(() => {
          fail(new PushError(`AMQP broker ${safeUrl} did not open the link within ${settings.connectTimeoutMs} ms`, false));
          connection.close();
          destroySocket(connection);
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

        connection.on('connection_error', (context: EventContext) => {
          const error = (context.error ?? context.connection.error) as { condition?: string; description?: string } | undefined;
          if (error?.condition === 'amqp:unauthorized-access') {
            fail(new PushAuthError(settings.userName, safeUrl, opened ? error.description : 'SASL PLAIN refused'));
          } else {
            fail(classify(error, safeUrl));
          }
        });
        connection.on('receiver_error', (context: EventContext) => {
          fail(classify((context.receiver?.error ?? context.error) as { condition?: string; description?: string } | undefined, safeUrl));
        });
        connection.on('receiver_close', () => {
          // The broker closed the link (E29 or a removed address): the connection goes with it.
          if (!closing) connection.close();
        });
        connection.on('protocol_error', (context: EventContext) => fail(new PushError(`AMQP protocol error from ${safeUrl}: ${String(context.error)}`, false)));
        connection.on('error', (context: EventContext) => fail(new PushError(`AMQP error from ${safeUrl}: ${String(context.error)}`, false)));
        // rhea says 'disconnected' only for a socket lost while open; a close by either side ends
        // with 'connection_close'. Either way the session is over.
        let finished = false;
        const finish = (cause?: { message?: string; code?: string }): void => {
          if (finished) return;
          finished = true;
          clearTimeout(timer);
          if (!lastError && !closing) {
            fail(new PushError(`AMQP connection to ${safeUrl} lost${cause ? `: ${cause.code ?? cause.message}` : ''}`, false));
          }
          if (!opened) reject(lastError ?? new PushError(`AMQP connection to ${safeUrl} closed before the link opened`, false));
          destroySocket(connection);
          endedResolve(closing ? undefined : lastError);
        };
        connection.on('disconnected', (context: EventContext) => finish((context as { error?: { message?: string; code?: string } }).error));
        connection.on('connection_close', () => finish());

        const receiver = connection.open_receiver({
          source: { address: settings.address },
          autoaccept: false,
          credit_window: settings.prefetch,
        });
        receiver.on('receiver_open', () => {
          clearTimeout(timer);
          opened = true;
          resolve({
            ended,
            close: async () => {
              closing = true;
              if (connection.is_open()) {
                connection.close();
                await Promise.race([ended, delay(2000)]);
              }
              destroySocket(connection);
              endedResolve(undefined);
            },
          });
        });
        const settle = (send: () => void): void => {
          if (!finished) send();
        };
        receiver.on('message', (context: EventContext) => {
          const { message, delivery } = context;
          if (!message || !delivery) return;
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
            release: () => settle(() => delivery.modified({ delivery_failed: true, undeliverable_here: false })),
            reject: (reason) => settle(() => delivery.reject({ condition: 'amqp:decode-error', description: reason })),
          };
          onDelivery(item);
        });
      }),
  };
}

function classify(error: { condition?: string; description?: string } | undefined, safeUrl: string): PushError {
  const condition = error?.condition ?? 'unknown';
  const text = `AMQP broker ${safeUrl} closed the stream: ${condition}${error?.description ? ` (${error.description})` : ''}`;
  return ENDED_CONDITIONS.has(condition) ? new PushStreamEndedError(text) : new PushError(text, false);
}

type RheaInternals = { socket?: { destroy(): void }; heartbeat_in?: NodeJS.Timeout; heartbeat_out?: NodeJS.Timeout; abort_idle?: NodeJS.Timeout };

/**
 * Ends the socket for good. rhea clears its idle timers only when the socket says 'end', which a
 * destroyed socket never does: left alone, a two-minute heartbeat timer would keep the process up.
 */
function destroySocket(connection: Connection): void {
  const internals = connection as unknown as RheaInternals;
  internals.socket?.destroy();
  const clearTimers = (): void => {
    for (const timer of [internals.heartbeat_in, internals.heartbeat_out, internals.abort_idle]) clearTimeout(timer);
    internals.heartbeat_in = internals.heartbeat_out = internals.abort_idle = undefined;
  };
  clearTimers();
  // Called from inside rhea's frame handler, rhea re-arms heartbeat_in after the handler returns.
  setImmediate(clearTimers);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
