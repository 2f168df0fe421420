import type { PushReceiver } from '../shared/push';
import { enqueueCbmDigestIfDue } from './alerts/cbm-digest';
import { Dispatcher } from './alerts/dispatcher';
import { AlertEngine } from './alerts/engine';
import type { NoticeSink } from './alerts/sink';
import { PushMerge, type PushSettings, startPushSource } from './alerts/sources/push';
import { type PollSource, type SourceStatus, startPollSource } from './alerts/sources/poll';
import type { RequestBudget } from './platform/budget';
import { CommandHandler } from './commands/handler';
import type { BotConfig } from './config/schema';
import type { BotLogger } from './log';
import { AssetDirectory } from './platform/directory';
import type { DrivePlatform } from './platform/types';
import { StateStore } from './state/store';

export interface BotOptions {
  config: BotConfig;
  platform: DrivePlatform;
  sink: NoticeSink;
  logger: BotLogger;
  /** Required when `config.source.kind` is `push`: one receiver per data-subscription user. */
  push?: PushSettings[];
  /** During a storm, how often digests go out (default 10 s). */
  digestIntervalMs?: number;
  /** The client `/drive` commands use: the same budget as `platform`, served first (B46). Default `platform`. */
  commandPlatform?: DrivePlatform;
  /** The request budget both clients spend from, for status. */
  budget?: RequestBudget;
}

/** The bot minus its Slack front: state, fleet directory, alert pipeline and command handler. */
export interface Bot {
  config: BotConfig;
  store: StateStore;
  directory: AssetDirectory;
  engine: AlertEngine;
  dispatcher: Dispatcher;
  commands: CommandHandler;
  /** The polling source when `source.kind` is `poll`. */
  poll?: PollSource;
  push: PushReceiver[];
  /** Lag and state of each alert source, for `/drive health`, `/readyz` and `/metrics`. */
  sources(): SourceStatus[];
  budget?: RequestBudget;
  stop(): Promise<void>;
}

export async function startBot(options: BotOptions): Promise<Bot> {
  const { config, platform, sink, logger } = options;
  const store = new StateStore(config.stateFile);
  const directory = new AssetDirectory(platform, { logger, concurrency: config.source.concurrency });
  let sources: () => SourceStatus[] = () => [];
  const dispatcher = new Dispatcher(store, sink, {
    postsPerSecond: config.alerts.maxMessagesPerSecond,
    stormPerMinute: config.alerts.stormPerMinute,
    digestBacklog: config.alerts.digestBacklog,
    digestIntervalMs: options.digestIntervalMs,
    logger,
  });
  const engine = new AlertEngine(store, config, (id) => directory.ref(id), () => dispatcher.kick());
  const commands = new CommandHandler({ platform: options.commandPlatform ?? platform, fleetPlatform: platform, directory, store, command: config.command, logger, sources: () => sources() });
  // Calls left in the outbox by the previous run go out first.
  dispatcher.kick();
  // A lag warning goes to Slack once per episode, in the default channel (B50).
  const notifyLate = (text: string) => {
    store.enqueue(config.alerts.defaultChannel, { kind: 'source_lag', text });
    dispatcher.kick();
  };
  let poll: PollSource | undefined;
  const push: PushReceiver[] = [];
  let started = false;
  try {
    await directory.ensure();
    if (config.source.kind === 'push') {
      if (!options.push?.length) throw new Error('source.kind is push but no data-subscription user is configured (DRIVE_MONITORING_PUSH_URL, _USER, _PASSWORD, _TOPIC)');
      const merge = new PushMerge({
        thresholdSeconds: config.source.lagWarningSeconds,
        late: (text) => {
          logger.warn(`push: ${text}`);
          notifyLate(text);
        },
        caughtUp: (seconds) => logger.info(`push: caught up, lag ${seconds} s`),
      });
      for (const settings of options.push) push.push(await startPushSource(engine, settings, logger, config.cbm.enabled, merge));
      const connected = new Set<PushReceiver>(push);
      for (const receiver of push) {
        receiver.on('connected', () => connected.add(receiver));
        receiver.on('disconnected', () => connected.delete(receiver));
        receiver.on('end', () => connected.delete(receiver));
      }
      sources = () => [
        { kind: 'push', lagSeconds: merge.lagSeconds(), lagThresholdSeconds: config.source.lagWarningSeconds, receivers: { connected: connected.size, configured: push.length }, merged: { handled: merge.handled, duplicates: merge.duplicates } },
      ];
    } else {
      const started = startPollSource({ engine, platform, directory, store, config, logger, budget: options.budget, notify: notifyLate });
      poll = started;
      sources = () => [started.status()];
    }
    started = true;
  } finally {
    if (!started) {
      await Promise.allSettled(push.map((r) => r.close()));
      await dispatcher.stop();
      store.close();
    }
  }
  const digestTimer = setInterval(() => {
    if (enqueueCbmDigestIfDue(store, config)) dispatcher.kick();
  }, 60_000);
  digestTimer.unref();
  logger.info(`bot: alerts from ${config.source.kind === 'push' ? 'the push channel' : 'REST polling'}, ${directory.all().length} assets, state in ${config.stateFile}`);
  return {
    config,
    store,
    directory,
    engine,
    dispatcher,
    commands,
    poll,
    push,
    sources: () => sources(),
    budget: options.budget,
    async stop() {
      clearInterval(digestTimer);
      await Promise.allSettled(push.map((r) => r.close()));
      await poll?.close();
      options.budget?.close();
      await dispatcher.stop();
      store.close();
    },
  };
}
