import { Limiter } from '../../../shared/core/limiter';
import { assetStandingRefusal } from '../../../shared/errors';
import type { BotConfig } from '../../config/schema';
import { type BotLogger, errorText } from '../../log';
import * as metrics from '../../ops/metrics';
import type { AssetDirectory } from '../../platform/directory';
import type { DrivePlatform } from '../../platform/types';
import type { StateStore } from '../../state/store';
import type { AlertEngine } from '../engine';

const EVENTS_WATERMARK = 'poll.events';
const CBM_WATERMARK = 'poll.cbm';
/** Events can reach the platform a little after their time: each pass overlaps the last. */
const OVERLAP_MS = 5 * 60_000;
const MAX_BACK_MS = 7 * 86_400_000;
/**
 * An asset refused for its standing has nothing to give for now (not a failed read): it rests,
 * and the pass still counts as complete. Expired subscription: an hour (it may be renewed);
 * a level without the function (Entry and Basic have no CBM): a day.
 */
const REST_MS = { expired: 3_600_000, levelDenied: 86_400_000 } as const;

export interface PollSource {
  /**
   * A full pass that starts now or right after the running one; resolves when it is done.
   * `withCbm` reads CBM too even if the CBM interval has not elapsed.
   */
  pollOnce(withCbm?: boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * Alerts by REST polling (E14 per asset, E19 for CBM). The watermark moves only when a pass
 * read every asset that can answer, so an asset that failed is read again from the same point next time; the
 * engine's state makes the overlap harmless.
 */
export function startPollSource(deps: {
  engine: AlertEngine;
  platform: DrivePlatform;
  directory: AssetDirectory;
  store: StateStore;
  config: BotConfig;
  logger: BotLogger;
}): PollSource {
  const { engine, platform, directory, store, config, logger } = deps;
  const limiter = new Limiter(config.source.concurrency);
  const resting = new Map<string, number>();
  const isResting = (what: 'events' | 'cbm', assetId: number, now: number) => (resting.get(`${what}:${assetId}`) ?? 0) > now;
  /** True when the error only says "not now" (the asset then rests); false for a real failure. */
  const rest = (what: 'events' | 'cbm', assetId: number, now: number, error: unknown): boolean => {
    const refusal = assetStandingRefusal(error);
    if (refusal) resting.set(`${what}:${assetId}`, now + REST_MS[refusal]);
    return refusal !== undefined;
  };
  let running: Promise<void> | undefined;
  let closed = false;

  async function pollEvents(): Promise<void> {
    await directory.ensure();
    const now = Date.now();
    const mark = store.getWatermark(EVENTS_WATERMARK);
    const from = mark ? Date.parse(mark) - OVERLAP_MS : now - config.source.initialLookbackMinutes * 60_000;
    // An alert still open is read from its own time, so its close is seen whatever the window.
    const openSince = new Map<number, number>();
    for (const alert of store.openAlerts()) {
      const t = Date.parse(alert.eventTime);
      openSince.set(alert.asset.id, Math.min(openSince.get(alert.asset.id) ?? t, t));
    }
    let failures = 0;
    // A PowerTrain has no events of its own (the API refuses it); its drive and motor are listed too.
    const assets = directory.all().filter((a) => a.assetType !== 'PowerTrain' && !isResting('events', a.id, now));
    await Promise.all(
      assets.map((asset) =>
        limiter.run(async () => {
          if (closed) return;
          const start = Math.max(now - MAX_BACK_MS, Math.min(from, openSince.get(asset.id) ?? from));
          try {
            const events = await platform.ranges.events({ assetId: asset.id, startTime: new Date(start), endTime: new Date(now) });
            events.sort((a, b) => String(a.eventDateTime).localeCompare(String(b.eventDateTime)));
            for (const event of events) await engine.observeEvent(asset.id, event);
          } catch (error) {
            if (rest('events', asset.id, now, error)) return;
            failures++;
            logger.warn(`poll: events of asset ${asset.id} not read (${errorText(error)}); read again next pass`);
          }
        }),
      ),
    );
    if (failures === 0 && !closed) store.setWatermark(EVENTS_WATERMARK, new Date(now).toISOString());
  }

  async function pollCbm(force: boolean): Promise<void> {
    const last = store.getWatermark(CBM_WATERMARK);
    if (!config.cbm.enabled || (!force && last && Date.now() - Date.parse(last) < config.cbm.pollIntervalMinutes * 60_000)) return;
    const now = Date.now();
    await Promise.all(
      directory
        .all()
        .filter((a) => a.assetType === 'Drive' && !isResting('cbm', a.id, now))
        .map((asset) =>
          limiter.run(async () => {
            if (closed) return;
            try {
              const units = await platform.assetData.getCbm({ assetId: asset.id });
              if (units.length > 0) await engine.observeCbm(asset.id, units);
            } catch (error) {
              if (!rest('cbm', asset.id, now, error)) logger.warn(`poll: CBM of asset ${asset.id} not read (${errorText(error)})`);
            }
          }),
        ),
    );
    store.setWatermark(CBM_WATERMARK, new Date(now).toISOString());
  }

  const pass = async (withCbm: boolean): Promise<void> => {
    try {
      const passDone = metrics.pollPassStarted();
      await pollEvents();
      await pollCbm(withCbm);
      passDone();
    } catch (error) {
      logger.error(`poll: pass failed (${errorText(error)}); next pass in ${config.source.pollIntervalSeconds} s`);
    }
  };
  /** A pass that starts after the call (one already running is waited for first). */
  const pollOnce = async (withCbm = false): Promise<void> => {
    while (running) await running;
    running = pass(withCbm).finally(() => (running = undefined));
    return running;
  };

  const timer = setInterval(() => {
    if (!running) void pollOnce();
  }, config.source.pollIntervalSeconds * 1000);
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
