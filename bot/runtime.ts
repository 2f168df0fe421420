import '../shared/runtime/node';
import type { PushReceiver } from '../shared/push';
import { enqueueCbmDigestIfDue } from './alerts/cbm-digest';
import { Dispatcher } from './alerts/dispatcher';
import { AlertEngine } from './alerts/engine';
import type { NoticeSink } from './alerts/sink';
import { type PushSettings, pushSourceName, startPushSource } from './alerts/sources/push';
import { type PollSource, startPollSource } from './alerts/sources/poll';
import { CommandHandler } from './commands/handler';
import type { BotConfig } from './config/schema';
import type { BotLogger } from './log';
import { lastSuccessfulPass, trackOutbox } from './ops/metrics';
import { Readiness, recentSuccess } from './ops/readiness';
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
  /**
   * What /readyz reports. The alert source registers itself here ('source' for polling,
   * 'source:push:<topic>' per receiver); the front end adds 'platform' and 'slack'. Another part
   * adds its own figure with readiness.register(name, check).
   */
  readiness: Readiness;
  stop(): Promise<void>;
}

export async function startBot(options: BotOptions): Promise<Bot> {
  const { config, platform, sink, logger } = options;
  const store = new StateStore(config.stateFile);
  const directory = new AssetDirectory(platform, { logger, concurrency: config.source.concurrency });
  const dispatcher = new Dispatcher(store, sink, {
    postsPerSecond: config.alerts.maxMessagesPerSecond,
    stormPerMinute: config.alerts.stormPerMinute,
    digestBacklog: config.alerts.digestBacklog,
    digestIntervalMs: options.digestIntervalMs,
    logger,
  });
  const engine = new AlertEngine(store, config, (id) => directory.ref(id), () => dispatcher.kick());
  const commands = new CommandHandler({ platform, directory, store, command: config.command, logger });
  // Calls left in the outbox by the previous run go out first.
  dispatcher.kick();
  let poll: PollSource | undefined;
  const push: PushReceiver[] = [];
  let started = false;
  try {
    await directory.ensure();
    if (config.source.kind === 'push') {
      if (!options.push?.length) throw new Error('source.kind is push but no data-subscription user is configured (DRIVE_MONITORING_PUSH_URL, _USER, _PASSWORD, _TOPIC)');
      for (const settings of options.push) push.push(await startPushSource(engine, settings, logger, config.cbm.enabled));
      options.push.forEach((settings, i) => receiverTopics.set(push[i], settings.topic));
    } else {
      poll = startPollSource({ engine, platform, directory, store, config, logger });
    }
    started = true;
  } finally {
    if (!started) {
      await Promise.allSettled(push.map((r) => r.close()));
      await dispatcher.stop();
      store.close();
    }
  }
  const readiness = sourceReadiness(config, push);
  const untrackOutbox = trackOutbox(() => store.countPending());
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
    readiness,
    async stop() {
      clearInterval(digestTimer);
      untrackOutbox();
      await Promise.allSettled(push.map((r) => r.close()));
      await poll?.close();
      await dispatcher.stop();
      store.close();
    },
  };
}

/**
 * Readiness of the alert source. Polling: a complete pass within three intervals (and a minute of
 * slack). Push: each receiver connected to its broker (it reconnects by itself; until then no
 * alert arrives).
 */
function sourceReadiness(config: BotConfig, receivers: PushReceiver[]): Readiness {
  const readiness = new Readiness();
  if (config.source.kind === 'poll') {
    const maxAgeMs = (3 * config.source.pollIntervalSeconds + 60) * 1000;
    readiness.register('source', recentSuccess(() => lastSuccessfulPass.get('poll'), maxAgeMs, 'REST polling'));
    return readiness;
  }
  receivers.forEach((receiver, index) => {
    const name = pushSourceName({ topic: receiverTopics.get(receiver) ?? String(index) });
    let connected = true; // start() resolved: connected and subscribed
    let why = 'connected';
    receiver.on('connected', () => {
      connected = true;
      why = 'connected';
    });
    receiver.on('disconnected', (error?: Error) => {
      connected = false;
      why = `disconnected (${error?.message ?? 'connection closed'}); reconnecting`;
    });
    receiver.on('end', (end) => {
      connected = false;
      why = end.error ? `stopped: ${end.error.message}` : 'closed';
    });
    readiness.register(`source:${name}`, () => ({ ok: connected, detail: `${name}: ${why}` }));
  });
  return readiness;
}

/** The topic each push receiver was started for (receivers do not expose their settings). */
const receiverTopics = new WeakMap<PushReceiver, string>();
