import { App, HTTPReceiver, LogLevel, type Logger } from '@slack/bolt';
import { inspect } from 'node:util';
import { registerListeners, type ListenerDeps } from '../listeners';
import type { BotLogger } from '../log';

export type SlackMode =
  | { kind: 'socket'; appToken: string }
  | { kind: 'http'; signingSecret: string; port?: number; host?: string };

export interface SlackAppOptions extends ListenerDeps {
  botToken: string;
  mode: SlackMode;
  /** A Slack-compatible Web API (tests, proxies); default Slack's. */
  slackApiUrl?: string;
}

/** Bolt's logger interface over ours, so Bolt's own lines are redacted too. */
function boltLogger(logger: BotLogger): Logger {
  let level = LogLevel.INFO;
  const text = (parts: unknown[]) => parts.map((p) => (typeof p === 'string' ? p : inspect(p, { depth: 3 }))).join(' ');
  return {
    debug: (...m: unknown[]) => logger.debug(`bolt: ${text(m)}`),
    info: (...m: unknown[]) => logger.info(`bolt: ${text(m)}`),
    warn: (...m: unknown[]) => logger.warn(`bolt: ${text(m)}`),
    error: (...m: unknown[]) => logger.error(`bolt: ${text(m)}`),
    setLevel: (l: LogLevel) => (level = l),
    getLevel: () => level,
    setName: () => undefined,
  };
}

/**
 * The Bolt app: Socket Mode (outbound only, the default for plants) or HTTP with request
 * signatures checked by Bolt's receiver.
 */
export function createSlackApp(options: SlackAppOptions): App {
  const logger = boltLogger(options.logger);
  const clientOptions = { slackApiUrl: options.slackApiUrl };
  const app =
    options.mode.kind === 'socket'
      ? new App({ token: options.botToken, appToken: options.mode.appToken, socketMode: true, logger, clientOptions, installerOptions: { clientOptions } })
      : new App({
          token: options.botToken,
          receiver: new HTTPReceiver({ signingSecret: options.mode.signingSecret, endpoints: '/slack/events', logger }),
          logger,
          clientOptions,
        });
  app.error(async (error) => options.logger.error(`slack: listener failed (${error.message})`));
  registerListeners(app, options);
  return app;
}
