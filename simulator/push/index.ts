import type { PushChannel, PushChannelOptions, PushHost } from './host';

export type { PushChannel, PushChannelOptions, PushHost, SubscriberRecord } from './host';

/** Starts the simulator's push channel. Replaced by the AMQP 1.0 and MQTT brokers (issue 5). */
export async function startPushChannel(_host: PushHost, _options: PushChannelOptions): Promise<PushChannel> {
  return { urls: {}, close: async () => undefined };
}
