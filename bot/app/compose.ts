/* eslint-disable @n8n/community-nodes/require-node-api-error -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { reportMessages } from '../blocks/report';
import { FencedDatabase } from '../cluster/fence';
import { ConfigError } from '../config/load';
import type { BotConfig } from '../config/schema';
import { AlertEngine } from '../features/alerts/engine';
import { routeProblems } from '../features/alerts/route-check';
import { type AlertState, alertState } from '../features/alerts/state';
import { TrendService } from '../features/charts/trend';
import { CommandHandler } from '../features/commands/handler';
import { ConnectivityTracker } from '../features/connectivity/tracker';
import { HomeService } from '../features/home/service';
import { OnCall } from '../features/oncall/oncall';
import { withPowerTrain } from '../features/oncall/powertrain';
import { ReportService } from '../features/reports/service';
import { Dispatcher } from '../leader/outbox/dispatcher';
import { fencedDelivery } from '../leader/outbox/fenced';
import { type BotLogger, errorText } from '../log';
import { AssetDirectory } from '../platform/directory';
import type { DrivePlatform } from '../platform/types';
import { openDatabase } from '../state/open';
import { SqlScope } from '../state/scope';
import { BOT_SCHEMA } from './schema';
import type { ConnectivityPoll } from '../leader/sources/connectivity-poll';
import type { SourceStatus } from '../kernel/source-status';
import type { BotOptions } from './options';

/** What the shared services ask of this replica's role (bot/app/role.ts): whether it leads, and its duties. */
export interface ReplicaRole {
	leads(): boolean;
	/** Throws FencedOut unless this replica leads now. */
	assertLeading(): void;
	/** The leader's duties, while they run. */
	readonly duties?: { connectivityPoll?: ConnectivityPoll; sources(): SourceStatus[] };
}

/** The services every replica shares: state, fleet directory, alert pipeline, on-call, commands, reports. */
export interface Services {
	options: BotOptions;
	config: BotConfig;
	logger: BotLogger;
	platform: DrivePlatform;
	/** The bot's database; its transactions are fenced while this replica leads on PostgreSQL. */
	db: FencedDatabase;
	scope: SqlScope;
	state: AlertState;
	directory: AssetDirectory;
	oncall: OnCall;
	dispatcher: Dispatcher;
	engine: AlertEngine;
	connectivity?: ConnectivityTracker;
	reports?: ReportService;
	commands: CommandHandler;
	home: HomeService;
	now: () => number;
	/** Says in Slack, in the default channel, that alerts are late (once per episode, B50). */
	warnLate(text: string): void;
}

/**
 * Builds the shared services over the bot's database and checks what must hold before anything runs (push users
 * configured, the fleet loaded, routes that can match). A failed start leaves nothing open.
 */
export async function composeServices(options: BotOptions, role: ReplicaRole): Promise<Services> {
	const { config, logger } = options;
	const db = new FencedDatabase(
		await openDatabase(config, BOT_SCHEMA, options.database, (message) => logger.warn(message)),
	);
	const services = buildServices(options, role, db);
	try {
		if (config.source.kind === 'push' && !options.push?.length) {
			throw new Error(
				'source.kind is push but no data-subscription user is configured (DRIVE_MONITORING_PUSH_URL, _USER, _PASSWORD, _TOPIC)',
			);
		}
		await services.directory.ensure();
		await checkRoutes(services.directory, config, logger, options.lenient === true);
		return services;
	} catch (error) {
		await closeServices(services);
		throw error;
	}
}

/** No timer may touch the store once it is closed: what runs on the database stops first. */
export async function closeServices(services: Services): Promise<void> {
	services.connectivity?.close();
	await services.dispatcher.stop();
	await services.db.close();
}

/** Enqueuing code (engine, on-call, connectivity) says it enqueued; the dispatcher listens and sends. */
class OutboxSignal {
	private listener: () => void = () => undefined;

	readonly enqueued = (): void => this.listener();

	listen(listener: () => void): void {
		this.listener = listener;
	}
}

/** The alert pipeline: on-call (which renders alerts and holds some back), the outbox's dispatcher, the engine. */
function buildAlerting(
	options: BotOptions,
	role: ReplicaRole,
	state: AlertState,
	directory: AssetDirectory,
) {
	const { config, logger } = options;
	const outbox = new OutboxSignal();
	const oncall = new OnCall(state, config, directory, outbox.enqueued, async () =>
		(await directory.tree()).plants.flatMap((p) => (p.name ? [p.name] : [])),
	);
	// Every Slack call of the outbox first checks this replica still leads: a leader frozen after its check in the
	// outbox loop, between recording its intent and posting, must not post once woken.
	const delivery = fencedDelivery(
		{ notifier: options.notifier, publisher: options.publisher },
		() => role.assertLeading(),
	);
	const dispatcher = new Dispatcher(state, delivery, {
		postsPerSecond: config.alerts.maxMessagesPerSecond,
		stormPerMinute: config.alerts.stormPerMinute,
		digestBacklog: config.alerts.digestBacklog,
		digestIntervalMs: options.digestIntervalMs,
		logger,
		// Only the leader posts, and only while its lease is valid; on a standby the outbox waits for it.
		maySend: () => role.leads(),
		present: oncall.present,
		inhibit: oncall.inhibit,
		stillDue: oncall.stillDue,
	});
	outbox.listen(() => dispatcher.kick());
	const engine = new AlertEngine(
		state,
		config,
		async (id) => withPowerTrain(await directory.ref(id), directory),
		outbox.enqueued,
		(alert, channel, tx) => oncall.suppress(alert, channel, tx),
	);
	return { oncall, dispatcher, engine, enqueued: outbox.enqueued };
}

function buildServices(options: BotOptions, role: ReplicaRole, db: FencedDatabase): Services {
	const { config, platform, logger } = options;
	const scope = SqlScope.of(db);
	const state = alertState(scope);
	const now = options.now ?? Date.now;
	const directory = new AssetDirectory(platform, {
		logger,
		concurrency: config.source.concurrency,
	});
	const { oncall, dispatcher, engine, enqueued } = buildAlerting(options, role, state, directory);
	const connectivity = config.connectivity.enabled
		? new ConnectivityTracker({
				scope,
				config,
				resolveAsset: (id, detail) => directory.ref(id, detail),
				gatewayOf: async (id) => (await directory.detail(id)).gatewaySerialNumber ?? undefined,
				onEnqueued: enqueued,
				// Silences apply to connectivity as to alerts (assumption B33).
				isSilenced: async (asset, at, tx) => (await oncall.silenceFor(asset, at, tx)) !== undefined,
				logger,
				now,
				observationIntervalMs:
					config.source.kind === 'push'
						? 3_600_000
						: () =>
								role.duties?.connectivityPoll?.pace().roundMs ??
								config.connectivity.pollIntervalMinutes * 60_000,
			})
		: undefined;
	const reports = options.publisher
		? new ReportService({
				platform,
				directory,
				scope,
				publisher: options.publisher,
				messages: reportMessages,
				logger,
				now,
				pollOnly: config.source.kind === 'poll',
				connectivity,
			})
		: undefined;
	const commands = new CommandHandler({
		platform: options.commandPlatform ?? platform,
		fleetPlatform: platform,
		directory,
		alerts: state.alerts,
		command: config.command,
		logger,
		connectivity,
		reports,
		now,
		trends: new TrendService({
			platform,
			directory,
			publisher: options.publisher,
			timeZone: config.timeZone,
			logger,
			now,
		}),
		oncall,
		sources: () => role.duties?.sources() ?? [],
	});
	const home = new HomeService({
		state,
		connectivity,
		now,
		silences: async () =>
			(await oncall.mutes(now())).map((s) => ({
				target: s.label,
				until: new Date(s.until).toISOString(),
				reason: s.reason,
				by: s.createdBy,
			})),
	});
	const warnLate = (text: string) => {
		state.outbox
			.enqueue(config.alerts.defaultChannel, { kind: 'source_lag', text })
			.then(enqueued)
			.catch((error: unknown) =>
				logger.error(`bot: lag warning not queued for Slack (${errorText(error)})`),
			);
	};
	return {
		options,
		config,
		logger,
		platform,
		db,
		scope,
		state,
		directory,
		oncall,
		dispatcher,
		engine,
		connectivity,
		reports,
		commands,
		home,
		now,
		warnLate,
	};
}

/** Refuses (or with `--lenient` warns about) routes that name what the platform does not have. */
async function checkRoutes(
	directory: AssetDirectory,
	config: BotConfig,
	logger: BotLogger,
	lenient: boolean,
): Promise<void> {
	if (
		!config.alerts.routes.some(
			(r) => r.organization !== undefined || r.assetGroup !== undefined || r.plant !== undefined,
		)
	)
		return;
	const problems = routeProblems(config.alerts, await directory.tree());
	if (problems.length === 0) return;
	const text = `Routes that would never match (their alerts would go to ${config.alerts.defaultChannel}):\n${problems.join('\n')}`;
	if (!lenient)
		throw new ConfigError(`${text}\nFix the names, or start with --lenient to run anyway.`);
	logger.warn(`${text}\nStarted anyway (--lenient).`);
}
