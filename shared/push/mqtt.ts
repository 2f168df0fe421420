// MQTT adapter (mqtt.js, MQTT 3.1.1): user name and password, QoS 1, persistent session
// (clean: false, stable client id). PUBACK is sent only once the handler is done: mqtt.js sends it
// when handleMessage calls back. A failed handler withholds the PUBACK and drops the connection,
// so the broker delivers the message again on the next session (MQTT has no negative ack).
import mqtt from 'mqtt';
import type { ErrorWithReasonCode, IPublishPacket, MqttClient } from 'mqtt';
import type { AdapterSession, AdapterSettings, PushAdapter } from './adapter';
import { PushAuthError, PushError, redactUrl } from './errors';

/** CONNACK return codes 4 (bad user name or password) and 5 (not authorized). */
const REFUSED_LOGIN = new Set([4, 5, 134, 135]);

export function createMqttAdapter(settings: AdapterSettings): PushAdapter {
  const safeUrl = redactUrl(settings.url.toString());
  const brokerUrl = `${settings.url.protocol}//${settings.url.host}`;
  return {
    connect: (onDelivery) =>
      new Promise<AdapterSession>((resolve, reject) => {
        let endedResolve!: (error: PushError | undefined) => void;
        const ended = new Promise<PushError | undefined>((r) => (endedResolve = r));
        let subscribed = false;
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

        client.handleMessage = (packet: IPublishPacket, done) => {
          let settled = false;
          const once = (action: () => void) => () => {
            if (settled) return;
            settled = true;
            action();
          };
          const lastLevel = packet.topic.split('/').pop();
          onDelivery({
            body: packet.payload,
            hints: { dataType: lastLevel },
            accept: once(() => done()),
            reject: once(() => done()),
            release: once(() => {
              lastError ??= new PushError(`MQTT session to ${safeUrl} dropped so that an unhandled message is redelivered`, false);
              client.stream.destroy();
            }),
          });
        };

        client.on('connect', () => {
          client.subscribe(settings.address, { qos: 1 }, (error, granted) => {
            const refused = granted?.find((g) => g.qos === 128);
            if (error || refused) {
              fail(
                new PushError(
                  `MQTT broker ${safeUrl} refused the subscription to "${settings.address}"${error ? `: ${error.message}` : ''}; check the topic and the address template`,
                  true,
                ),
              );
              return;
            }
            subscribed = true;
            resolve({
              ended,
              close: () =>
                new Promise<void>((done) => {
                  closing = true;
                  client.end(false, {}, () => done());
                }),
            });
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
            fail(lastError ?? new PushError(`MQTT connection to ${safeUrl} closed before the subscription`, false));
          }
          client.end(true);
          endedResolve(closing ? undefined : (lastError ?? new PushError(`MQTT connection to ${safeUrl} lost`, false)));
        });
      }),
  };
}
