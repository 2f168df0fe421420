import { createPushReceiver, type PushDataType, type PushMessage, type PushReceiver, type PushReceiverOptions } from '../../../shared/push';
import { type BotLogger, errorText } from '../../log';
import * as metrics from '../../ops/metrics';
import type { AlertEngine } from '../engine';

export type PushSettings = Pick<PushReceiverOptions, 'url' | 'userName' | 'password' | 'topic' | 'addressTemplate'>;

/**
 * Alerts from the data-subscription channel. A delivery is acknowledged only after the engine
 * committed what it means (its handler resolves), so a crash before that gets it redelivered;
 * the engine's state makes a redelivery change nothing.
 */
/** Other features' pushed types (AssetState for connectivity, AssetReport for reports) and their handler. */
export interface PushExtras {
  dataTypes: PushDataType[];
  /** Resolves once what the message means is committed (it is acknowledged after). */
  handle(message: PushMessage): Promise<void>;
}

export async function startPushSource(engine: AlertEngine, settings: PushSettings, logger: BotLogger, cbm: boolean, extras?: PushExtras): Promise<PushReceiver> {
  const receiver = createPushReceiver({
    ...settings,
    dataTypes: [...(cbm ? (['AssetEvent', 'AssetCBM'] as const) : (['AssetEvent'] as const)), ...(extras?.dataTypes ?? [])],
    logger: { warn: (m) => logger.warn(`push: ${m}`), error: (m) => logger.error(`push: ${m}`), info: (m) => logger.debug(`push: ${m}`) },
  });
  receiver.on('error', (error: unknown) => logger.error(`push: ${errorText(error)}`));
  metrics.trackPushReceiver(pushSourceName(settings), receiver);
  await receiver.start(async (message: PushMessage) => {
    // A report is known by its id: it needs no asset in the envelope.
    if (message.dataType === 'AssetReport') return extras?.handle(message);
    if (message.assetId === undefined) {
      logger.warn(`push: ${message.dataType} message ${message.id} names no asset; skipped`);
      return;
    }
    if (message.dataType === 'AssetEvent') await engine.observeEvent(message.assetId, message.record);
    else if (message.dataType === 'AssetCBM') await engine.observeCbm(message.assetId, message.record);
    else await extras?.handle(message);
    metrics.sourceSucceeded(pushSourceName(settings));
  });
  return receiver;
}

/** The name a push source has in metrics and readiness: push:<topic>. */
export function pushSourceName(settings: Pick<PushSettings, 'topic'>): string {
  return `push:${settings.topic}`;
}
