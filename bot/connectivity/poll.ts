import { forEachLimit } from '../../shared/core/limiter';
import type { BotConfig } from '../config/schema';
import { type BotLogger, errorText } from '../log';
import type { AssetDirectory } from '../platform/directory';
import type { DrivePlatform } from '../platform/types';
import type { ConnectivityTracker } from './tracker';

/** Polling: an asset whose latest data is older than this (or minOfflineMinutes, if longer) is offline. */
export const STALE_FLOOR_MINUTES = 5;

export interface ConnectivityPoll {
  /** One pass over every drive and motor (E8's latest-data time); resolves when it is done. */
  pollOnce(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connectivity without the push channel (assumption B32): E8's `LatestDataReceived` of every drive
 * and motor each `connectivity.pollIntervalMinutes`. A read that fails changes nothing, so an asset
 * the platform cannot answer for turns "unknown" after two passes, never "offline".
 */
export function startConnectivityPoll(deps: {
  tracker: ConnectivityTracker;
  platform: DrivePlatform;
  directory: AssetDirectory;
  config: BotConfig;
  logger: BotLogger;
  now: () => number;
}): ConnectivityPoll {
  const { tracker, platform, directory, config, logger, now } = deps;
  const staleMs = Math.max(config.connectivity.minOfflineMinutes, STALE_FLOOR_MINUTES) * 60_000;
  let running: Promise<void> | undefined;
  let closed = false;

  const pass = async (): Promise<void> => {
    try {
      await directory.ensure();
      const at = new Date(now()).toISOString();
      const assets = directory.all().filter((a) => a.assetType !== 'PowerTrain');
      let failed = 0;
      // Workers over the list, not a task per asset made up front (10,000 held for minutes).
      await forEachLimit(
        assets,
        config.source.concurrency,
        async (asset) => {
          try {
            const detail = await platform.assets.get({ id: asset.id });
            const latest = detail.latestDataReceived ? Date.parse(detail.latestDataReceived) : Number.NaN;
            if (Number.isNaN(latest)) return; // never sent data: unknown, not offline
            const online = Date.parse(at) - latest < staleMs;
            await tracker.observe(asset.id, online, at, online ? undefined : new Date(latest).toISOString());
          } catch (error) {
            failed++;
            logger.debug(`connectivity: asset ${asset.id} not read (${errorText(error)})`);
          }
        },
        () => closed,
      );
      if (failed > 0) logger.warn(`connectivity: ${failed} of ${assets.length} assets could not be read this pass; they turn "unknown" if it lasts`);
      tracker.flush();
    } catch (error) {
      logger.error(`connectivity: pass failed (${errorText(error)})`);
    }
  };
  const pollOnce = async (): Promise<void> => {
    while (running) await running;
    running = pass().finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(() => {
    if (!running) void pollOnce();
  }, config.connectivity.pollIntervalMinutes * 60_000);
  timer.unref();
  void pollOnce();
  return {
    pollOnce,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
