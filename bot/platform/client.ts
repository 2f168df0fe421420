import { createClient, type ApiCredentials, type DriveMonitoringClient } from '../../shared';
import type { BotLogger } from '../log';
import type { DrivePlatform } from './types';

export type PlatformCredentials = ApiCredentials & { baseUrl: string };

/** The core client the bot uses; its type check here is what keeps `DrivePlatform` honest. */
export function createPlatformClient(credentials: PlatformCredentials, logger: BotLogger, options: { concurrency?: number } = {}): DriveMonitoringClient & DrivePlatform {
  return createClient({
    ...credentials,
    concurrency: options.concurrency,
    logger: { debug: (m: string) => logger.debug(`platform: ${m}`), info: (m: string) => logger.debug(`platform: ${m}`), warn: (m: string) => logger.warn(`platform: ${m}`), error: (m: string) => logger.error(`platform: ${m}`) },
  });
}
