import type { PushReceiver } from '../shared/push';
import { enqueueCbmDigestIfDue } from './alerts/cbm-digest';
import { Dispatcher } from './alerts/dispatcher';
import { AlertEngine } from './alerts/engine';
import type { NoticeSink } from './alerts/sink';
import { type PushSettings, startPushSource } from './alerts/sources/push';
import { type PollSource, startPollSource } from './alerts/sources/poll';
import { CommandHandler } from './commands/handler';
import { ConfigError } from './config/load';
import { fleetNames, routeProblems } from './config/route-check';
import type { BotConfig } from './config/schema';
import type { BotLogger } from './log';
import { AssetDirectory } from './platform/directory';
import type { DrivePlatform } from './platform/types';
import { OnCall } from './oncall';
import { withPowerTrain } from './oncall/powertrain';
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
  /** Routes naming unknown organizations, groups or plants are warned about instead of refused. */
  lenient?: boolean;
}

/** The bot minus its Slack front: state, fleet directory, alert pipeline and command handler. */
export interface Bot {
  config: BotConfig;
  store: StateStore;
  directory: AssetDirectory;
  engine: AlertEngine;
  dispatcher: Dispatcher;
  commands: CommandHandler;
  /** Acknowledgements, silences, reminders, inhibition and links. */
  oncall: OnCall;
  /** The polling source when `source.kind` is `poll`. */
  poll?: PollSource;
  push: PushReceiver[];
  stop(): Promise<void>;
}

/** Refuses (or with `--lenient` warns about) routes that name what the platform does not have. */
async function checkRoutes(platform: DrivePlatform, config: BotConfig, logger: BotLogger, lenient: boolean): Promise<void> {
  if (!config.alerts.routes.some((r) => r.organization !== undefined || r.assetGroup !== undefined || r.plant !== undefined)) return;
  const problems = routeProblems(config.alerts, fleetNames(await platform.organization.getNodes()));
  if (problems.length === 0) return;
  const text = `Routes that would never match (their alerts would go to ${config.alerts.defaultChannel}):\n${problems.join('\n')}`;
  if (!lenient) throw new ConfigError(`${text}\nFix the names, or start with --lenient to run anyway.`);
  logger.warn(`${text}\nStarted anyway (--lenient).`);
}

export async function startBot(options: BotOptions): Promise<Bot> {
  const { config, platform, sink, logger } = options;
  const store = new StateStore(config.stateFile);
  const directory = new AssetDirectory(platform, { logger, concurrency: config.source.concurrency });
  // The on-call layer enqueues through the dispatcher, which renders with it: a late binding.
  const kick = () => dispatcher.kick();
  const oncall = new OnCall(store, config, directory, kick, async () => fleetNames(await platform.organization.getNodes()).plants);
  const dispatcher = new Dispatcher(store, sink, {
    postsPerSecond: config.alerts.maxMessagesPerSecond,
    stormPerMinute: config.alerts.stormPerMinute,
    digestBacklog: config.alerts.digestBacklog,
    digestIntervalMs: options.digestIntervalMs,
    logger,
    present: oncall.present,
    inhibit: oncall.inhibit,
    stillDue: oncall.stillDue,
  });
  const engine = new AlertEngine(store, config, async (id) => withPowerTrain(await directory.ref(id), directory), kick, (alert, channel) => oncall.suppress(alert, channel));
  const commands = new CommandHandler({ platform, directory, store, command: config.command, logger, oncall });
  // Calls left in the outbox by the previous run go out first.
  dispatcher.kick();
  let poll: PollSource | undefined;
  const push: PushReceiver[] = [];
  let started = false;
  try {
    await directory.ensure();
    await checkRoutes(platform, config, logger, options.lenient === true);
    if (config.source.kind === 'push') {
      if (!options.push?.length) throw new Error('source.kind is push but no data-subscription user is configured (DRIVE_MONITORING_PUSH_URL, _USER, _PASSWORD, _TOPIC)');
      for (const settings of options.push) push.push(await startPushSource(engine, settings, logger, config.cbm.enabled));
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
  const digestTimer = setInterval(() => {
    if (enqueueCbmDigestIfDue(store, config)) dispatcher.kick();
  }, 60_000);
  digestTimer.unref();
  const oncallTimer = setInterval(() => {
    try {
      oncall.tick();
    } catch (error) {
      logger.error(`oncall: check failed (${error instanceof Error ? error.message : String(error)})`);
    }
  }, config.oncall.checkIntervalSeconds * 1000);
  oncallTimer.unref();
  logger.info(`bot: alerts from ${config.source.kind === 'push' ? 'the push channel' : 'REST polling'}, ${directory.all().length} assets, state in ${config.stateFile}`);
  return {
    config,
    store,
    directory,
    engine,
    dispatcher,
    commands,
    oncall,
    poll,
    push,
    async stop() {
      clearInterval(digestTimer);
      clearInterval(oncallTimer);
      await Promise.allSettled(push.map((r) => r.close()));
      await poll?.close();
      await dispatcher.stop();
      store.close();
    },
  };
}
