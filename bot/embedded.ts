import { startSimulator, type Simulator } from '../simulator';
import type { PushSettings } from './alerts/sources/push';
import type { BotLogger } from './log';
import { createPlatformClient } from './platform/client';
import { ensurePushUser } from './platform/push-user';
import type { DrivePlatform } from './platform/types';

export interface EmbeddedPlatform {
  sim: Simulator;
  platform: DrivePlatform;
  /** One data-subscription user per end-user organization: pushed data is per organization. */
  push: PushSettings[];
}

/**
 * The simulator in-process, as `npm start` uses it without platform credentials: the operator's
 * credential answers commands (it sees every asset), and each end-user organization gets a
 * data-subscription user so that its events are pushed.
 */
export async function startEmbeddedPlatform(options: { eventRatePerMinute: number; timeScale: number; cbm: boolean; logger: BotLogger; port?: number }): Promise<EmbeddedPlatform> {
  const sim = await startSimulator({ eventRatePerMinute: options.eventRatePerMinute, timeScale: options.timeScale, port: options.port });
  let ready = false;
  try {
    const { info } = sim;
    const base = { baseUrl: info.baseUrl, authUrl: info.authUrl, tenantId: info.tenantId, apiScopeId: info.apiScopeId };
    const operator = info.credentials.find((c) => c.orgType === 'VENDOR') ?? info.credentials[0];
    const platform = createPlatformClient({ ...base, apiKey: operator.apiKey, apiSecret: operator.apiSecret }, options.logger);
    const url = info.pushUrls.amqp ?? info.pushUrls.mqtt ?? Object.values(info.pushUrls)[0];
    const push: PushSettings[] = [];
    if (url) {
      for (const eu of info.credentials.filter((c) => c.orgType === 'EU')) {
        const client = createPlatformClient({ ...base, apiKey: eu.apiKey, apiSecret: eu.apiSecret }, options.logger);
        push.push(await ensurePushUser(client, url, `drive-bot-${eu.orgId}`, options.cbm));
      }
    }
    ready = true;
    return { sim, platform, push };
  } finally {
    if (!ready) await sim.close();
  }
}
