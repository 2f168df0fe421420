/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import '../../shared/runtime/node';
import type { PushReceiver } from '../../shared/push';
import { startCbmDigest } from '../leader/jobs/cbm-digest';
import { startConnectivitySweeps } from '../leader/jobs/connectivity-sweeps';
import type { Job } from '../leader/jobs/job';
import { startOnCallChecks } from '../leader/jobs/oncall-checks';
import { startOutboxPickUp } from '../leader/jobs/outbox-pick-up';
import { startReportChecks } from '../leader/jobs/report-checks';
import { Dispatcher } from '../leader/outbox/dispatcher';
import { AlertEngine } from '../features/alerts/engine';
import type { Notifier } from '../kernel/notice';
import {
	type PushExtras,
	PushMerge,
	pushSourceName,
	startPushSource,
} from '../leader/sources/push';
import { type PollSource, startPollSource } from '../leader/sources/poll';
import { sourceGauges, sourcesReadiness } from '../leader/sources/status';
import type { RequestBudget } from '../platform/budget';
import { CommandHandler } from '../features/commands/handler';
import { type ConnectivityPoll, startConnectivityPoll } from '../leader/sources/connectivity-poll';
import { ConnectivityTracker } from '../features/connectivity/tracker';
import { ReportScheduler } from '../leader/jobs/report-schedule';
import { reportMessages } from '../blocks/report';
import { TrendService } from '../features/charts/trend';
import { fencedDelivery } from '../leader/outbox/fenced';
import { HomeService } from '../features/home/service';
import { ReportService } from '../features/reports/service';
import type { Publisher } from '../kernel/publisher';
import { ConfigError } from '../config/load';
import { fleetNames, routeProblems } from '../features/alerts/route-check';
import type { BotConfig } from '../config/schema';
import { type BotLogger, errorText } from '../log';
import { lastSuccessfulPass, leadershipMetrics, trackOutbox, trackSources } from '../ops/metrics';
import { databaseCheck, leadershipCheck, Readiness, recentSuccess } from '../ops/readiness';
import { AssetDirectory } from '../platform/directory';
import type { DrivePlatform } from '../platform/types';
import { OnCall } from '../features/oncall/oncall';
import { withPowerTrain } from '../features/oncall/powertrain';
import type { DatabaseSettings } from '../state/database-url';
import { FencedDatabase } from '../cluster/fence';
import { type Leadership, type LeadershipTimings, startLeadership } from '../cluster/leadership';
import { describeStore, openDatabase } from '../state/open';
import { schemaVersion } from '../state/schema';
import { SqlScope } from '../state/scope';
import type { SqlDatabase } from '../state/sql';
import { type AlertState, alertState } from '../features/alerts/state';
import { ReportStore } from '../features/reports/store';
import { BOT_SCHEMA } from './schema';
import type { PushSettings } from '../config/push-settings';
import type { SourceStatus } from '../kernel/source-status';

export interface BotOptions {
	config: BotConfig;
	platform: DrivePlatform;
	notifier: Notifier;
	logger: BotLogger;
	/** Required when `config.source.kind` is `push`: one receiver per data-subscription user. */
	push?: PushSettings[];
	/** During a storm, how often digests go out (default 10 s). */
	digestIntervalMs?: number;
	/** The clock of connectivity and report schedules (default Date.now; tests use the simulator's). */
	now?: () => number;
	/** Where reports and charts are posted and uploaded (Slack or the terminal); without it, no reports. */
	publisher?: Publisher;
	/** Routes naming unknown organizations, groups or plants are warned about instead of refused. */
	lenient?: boolean;
	/** The client `/drive` commands use: the same budget as `platform`, served first (B46). Default `platform`. */
	commandPlatform?: DrivePlatform;
	/** The request budget both clients spend from, for status. */
	budget?: RequestBudget;
	/** PostgreSQL shared by replicas (DRIVE_BOT_DATABASE_URL); without it the SQLite state file. */
	database?: DatabaseSettings;
	/** Lease and take-over timings of the replicas on PostgreSQL (defaults in bot/state/leadership.ts). */
	leadershipTimings?: Partial<LeadershipTimings>;
}

/** What the leading replica runs: the platform sources, the schedules and the outbox timer. */
interface Duties {
	poll?: PollSource;
	push: PushReceiver[];
	connectivityPoll?: ConnectivityPoll;
	reportSchedule?: ReportScheduler;
	sources(): SourceStatus[];
	stop(): Promise<void>;
}

/** The bot minus its Slack front: state, fleet directory, alert pipeline and command handler. */
export interface Bot {
	config: BotConfig;
	/** The bot's database (SQLite or PostgreSQL). */
	database: SqlDatabase;
	/** The alerts' state: events and their messages, CBM units, watermarks, the outbox. */
	state: AlertState;
	directory: AssetDirectory;
	engine: AlertEngine;
	dispatcher: Dispatcher;
	commands: CommandHandler;
	/** Acknowledgements, silences, reminders, inhibition and links. */
	oncall: OnCall;
	/** The polling source when `source.kind` is `poll`. */
	poll?: PollSource;
	push: PushReceiver[];
	/** Online/offline of the fleet, when `connectivity.enabled`. */
	connectivity?: ConnectivityTracker;
	/** The E8 polling of connectivity when `source.kind` is `poll`. */
	connectivityPoll?: ConnectivityPoll;
	/** Reports in Slack, when a publisher was given. */
	reports?: ReportService;
	reportSchedule?: ReportScheduler;
	/** The replicas' leadership on PostgreSQL; undefined on SQLite (a single process always leads). */
	leadership(): Leadership | undefined;
	/** What the App Home shows. */
	home: HomeService;
	/**
	 * What /readyz reports. The alert source registers itself here ('source' for polling,
	 * 'source:push:<topic>' per receiver); the front end adds 'platform' and 'slack'. Another part
	 * adds its own figure with readiness.register(name, check).
	 */
	readiness: Readiness;
	/** Lag and state of each alert source, for `/drive health`, `/readyz` and `/metrics`. */
	sources(): SourceStatus[];
	budget?: RequestBudget;
	stop(): Promise<void>;
}

/** Refuses (or with `--lenient` warns about) routes that name what the platform does not have. */
async function checkRoutes(
	platform: DrivePlatform,
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
	const problems = routeProblems(config.alerts, fleetNames(await platform.organization.getNodes()));
	if (problems.length === 0) return;
	const text = `Routes that would never match (their alerts would go to ${config.alerts.defaultChannel}):\n${problems.join('\n')}`;
	if (!lenient)
		throw new ConfigError(`${text}\nFix the names, or start with --lenient to run anyway.`);
	logger.warn(`${text}\nStarted anyway (--lenient).`);
}

export async function startBot(options: BotOptions): Promise<Bot> {
	const { config, platform, logger } = options;
	// Every Slack call of the outbox first checks this replica still leads (issue 26: fencing of Slack calls): a leader
	// frozen after its check in the outbox loop, between recording its intent and posting, must not post once woken.
	const delivery = fencedDelivery(
		{ notifier: options.notifier, publisher: options.publisher },
		() => leadership?.assertLeading(),
	);
	// While this replica leads on PostgreSQL, each of its transactions first checks its epoch still leads.
	const db = new FencedDatabase(
		await openDatabase(config, BOT_SCHEMA, options.database, (message) => logger.warn(message)),
	);
	const scope = SqlScope.of(db);
	const state = alertState(scope);
	const directory = new AssetDirectory(platform, {
		logger,
		concurrency: config.source.concurrency,
	});
	// What only the leading replica runs, and the leadership itself (issue 26; none on SQLite: it always leads).
	let duties: Duties | undefined;
	let leadership: Leadership | undefined;
	let changing: Promise<void> = Promise.resolve();
	let stopped = false;
	// The on-call layer enqueues through the dispatcher, which renders with it: a late binding.
	const kick = () => dispatcher.kick();
	const oncall = new OnCall(
		state,
		config,
		directory,
		kick,
		async () => fleetNames(await platform.organization.getNodes()).plants,
	);
	const dispatcher = new Dispatcher(state, delivery, {
		postsPerSecond: config.alerts.maxMessagesPerSecond,
		stormPerMinute: config.alerts.stormPerMinute,
		digestBacklog: config.alerts.digestBacklog,
		digestIntervalMs: options.digestIntervalMs,
		logger,
		// Only the leader posts, and only while its lease is valid; on a standby the outbox waits for it.
		maySend: () => !leadership || leadership.isLeader(),
		present: oncall.present,
		inhibit: oncall.inhibit,
		stillDue: oncall.stillDue,
	});
	const engine = new AlertEngine(
		state,
		config,
		async (id) => withPowerTrain(await directory.ref(id), directory),
		kick,
		(alert, channel, tx) => oncall.suppress(alert, channel, tx),
	);
	const now = options.now ?? Date.now;
	const connectivity = config.connectivity.enabled
		? new ConnectivityTracker({
				scope,
				config,
				resolveAsset: (id, detail) => directory.ref(id, detail),
				gatewayOf: async (id) => (await directory.detail(id)).gatewaySerialNumber ?? undefined,
				onEnqueued: kick,
				// Silences apply to connectivity as to alerts (assumption B33).
				isSilenced: async (asset, at, tx) => (await oncall.silenceFor(asset, at, tx)) !== undefined,
				logger,
				now,
				observationIntervalMs:
					config.source.kind === 'push'
						? 3_600_000
						: () =>
								duties?.connectivityPoll?.pace().roundMs ??
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
	const trends = new TrendService({
		platform,
		directory,
		publisher: options.publisher,
		timeZone: config.timeZone,
		logger,
		now,
	});
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
		trends,
		oncall,
		sources: () => duties?.sources() ?? [],
	});
	// A lag warning goes to Slack once per episode, in the default channel (B50).
	const notifyLate = (text: string) => {
		state.outbox
			.enqueue(config.alerts.defaultChannel, { kind: 'source_lag', text })
			.then(kick)
			.catch((error: unknown) =>
				logger.error(`bot: lag warning not queued for Slack (${errorText(error)})`),
			);
	};
	// A start that fails leaves nothing running: no timer may touch the closed store.
	const closeShared = async () => {
		connectivity?.close();
		await dispatcher.stop();
		await db.close();
	};
	try {
		if (config.source.kind === 'push' && !options.push?.length) {
			throw new Error(
				'source.kind is push but no data-subscription user is configured (DRIVE_MONITORING_PUSH_URL, _USER, _PASSWORD, _TOPIC)',
			);
		}
		await directory.ensure();
		await checkRoutes(platform, config, logger, options.lenient === true);
	} catch (error) {
		await closeShared();
		throw error;
	}
	const readiness = new Readiness();
	// Late alerts make the bot not ready, as a broken source does (B46).
	readiness.register('lag', () => {
		const { ready, reasons } = sourcesReadiness(duties?.sources() ?? []);
		return { ok: ready, detail: ready ? 'alerts on time' : reasons.join('; ') };
	});
	const untrackSources = trackSources(() =>
		sourceGauges(duties?.sources() ?? [], options.budget?.status()),
	);
	// The gauge is read synchronously at scrape time: the depth is sampled every few seconds instead.
	let outboxDepth = 0;
	const sampleOutbox = () =>
		void state.outbox.countPending().then(
			(n) => (outboxDepth = n),
			() => undefined,
		);
	sampleOutbox();
	const outboxTimer = setInterval(sampleOutbox, 5_000);
	outboxTimer.unref();
	const untrackOutbox = trackOutbox(() => outboxDepth);

	/**
	 * What only the leading replica does (issue 26): read the platform (poll or push), run the schedules and send
	 * the outbox. A single process on its SQLite file always leads.
	 */
	const startDuties = async (): Promise<Duties> => {
		let poll: PollSource | undefined;
		let connectivityPoll: ConnectivityPoll | undefined;
		const push: PushReceiver[] = [];
		let sources: () => SourceStatus[] = () => [];
		const checks: string[] = [];
		const stopSources = async () => {
			for (const name of checks) readiness.unregister(name);
			await Promise.allSettled(push.map((r) => r.close()));
			await poll?.close();
			await connectivityPoll?.close();
		};
		try {
			if (config.source.kind === 'push') {
				const pushUsers = options.push ?? [];
				const extras: PushExtras = {
					dataTypes: [
						...(connectivity ? (['AssetState'] as const) : []),
						...(reports ? (['AssetReport'] as const) : []),
					],
					handle: async (message) => {
						if (message.dataType === 'AssetState' && connectivity) {
							await connectivity.observe(
								message.record.assetId ?? (message.assetId as number),
								message.record.online,
								message.record.time ?? message.time,
							);
						} else if (message.dataType === 'AssetReport' && reports) {
							await reports.onPushedReport(message.record);
						}
					},
				};
				const merge = new PushMerge({
					thresholdSeconds: config.source.lagWarningSeconds,
					late: (text) => {
						logger.warn(`push: ${text}`);
						notifyLate(text);
					},
					caughtUp: (seconds) => logger.info(`push: caught up, lag ${seconds} s`),
				});
				for (const settings of pushUsers)
					push.push(
						await startPushSource(
							engine,
							settings,
							logger,
							config.cbm.enabled,
							extras,
							merge,
							() => !leadership || leadership.isLeader(),
						),
					);
				pushUsers.forEach((settings, i) => receiverTopics.set(push[i], settings.topic));
				const connected = new Set<PushReceiver>(push);
				for (const receiver of push) {
					receiver.on('connected', () => connected.add(receiver));
					receiver.on('disconnected', () => connected.delete(receiver));
					receiver.on('end', () => connected.delete(receiver));
				}
				sources = () => [
					{
						kind: 'push',
						lagSeconds: merge.lagSeconds(),
						lagThresholdSeconds: config.source.lagWarningSeconds,
						receivers: { connected: connected.size, configured: push.length },
						merged: { handled: merge.handled, duplicates: merge.duplicates },
					},
				];
			} else {
				// Connectivity's E8 reads take their share of the budget first; fault polling plans on the rest (B70).
				if (connectivity)
					connectivityPoll = startConnectivityPoll({
						tracker: connectivity,
						platform,
						directory,
						config,
						logger,
						now,
						budget: options.budget,
					});
				const reads = connectivityPoll;
				const polling = await startPollSource({
					engine,
					platform,
					directory,
					state,
					config,
					logger,
					budget: options.budget,
					notify: notifyLate,
					alongside:
						reads && (() => ({ perSecond: reads.pace().perSecond, text: reads.describe() })),
				});
				poll = polling;
				sources = () => [polling.status()];
			}
			checks.push(...registerSourceChecks(readiness, config, push));
		} catch (error) {
			await stopSources();
			throw error;
		}
		// Schedules start once the sources run, so a report made now can be followed.
		const reportSchedule =
			reports && config.reports.length > 0
				? new ReportScheduler({ config, reports, store: new ReportStore(scope), logger, now })
				: undefined;
		const jobs: Job[] = [
			...(reportSchedule ? [reportSchedule] : []),
			...(reports
				? [startReportChecks(reports, { pollOnly: config.source.kind === 'poll', logger })]
				: []),
			...(connectivity ? [startConnectivitySweeps(connectivity, logger)] : []),
			startCbmDigest(state, config, kick, logger),
			startOnCallChecks({ oncall, state, config, logger, kick }),
			...(options.database ? [startOutboxPickUp(kick)] : []),
		];
		// Calls left in the outbox by the previous run (or leader) go out first.
		dispatcher.kick();
		return {
			poll,
			push,
			connectivityPoll,
			reportSchedule,
			sources: () => sources(),
			async stop() {
				// Nothing new starts; the platform connections close first, at once, so the pushed messages this
				// replica held go back to the broker for the next leader; then what was running is waited for.
				const stopping = Promise.all(jobs.map((job) => job.stop()));
				await stopSources();
				await stopping;
			},
		};
	};

	if (options.database) {
		const database = options.database;
		// One change of role at a time: a step-down waits for the duties it stops to have started.
		const change = (work: () => Promise<void>) => (changing = changing.then(work, work));
		leadership = startLeadership({
			connection: database.connection,
			holder: `${hostname()}:${process.pid}`,
			logger,
			timings: options.leadershipTimings,
			// Not awaited: the lease is renewed on the same chain, and connecting to the platform may take a while.
			onLead: (epoch) =>
				void change(async () => {
					const lead = leadership as Leadership;
					// Every change this replica makes from now on commits only while its epoch leads.
					db.fenceWith((tx) => lead.fence(tx));
					// A leader that cannot reach the platform tries again while it leads, as the single process does.
					while (lead.isLeader() && !duties && !stopped) {
						try {
							duties = await startDuties();
							logger.info(
								`bot: leading (epoch ${epoch}): alerts from ${config.source.kind === 'push' ? 'the push channel' : 'REST polling'}`,
							);
						} catch (error) {
							logger.error(
								`bot: could not start as the leader (${errorText(error)}); trying again in 5 s`,
							);
							await sleep(5_000);
						}
					}
				}),
			onStepDown: (reason) =>
				change(async () => {
					logger.warn(
						`bot: no longer leading (${reason}); the platform connections are closed and nothing more is sent`,
					);
					const stopping = duties;
					duties = undefined;
					await stopping?.stop();
					db.removeFence();
				}),
		});
		// A replica that leads from the start returns with its sources running, as the single process does.
		// Bounded: a leader that cannot start its sources keeps trying in the background (logged), never blocks here.
		await leadership.settled();
		await Promise.race([changing, sleep(60_000, undefined, { ref: false })]);
		readiness.register(
			'database',
			databaseCheck(() => schemaVersion(db), BOT_SCHEMA.latest, database.display),
		);
		readiness.register(
			'leadership',
			leadershipCheck({
				isLeader: () => leadership?.isLeader() ?? false,
				epoch: () => leadership?.epoch(),
			}),
		);
	} else {
		try {
			duties = await startDuties();
		} catch (error) {
			untrackOutbox();
			untrackSources();
			clearInterval(outboxTimer);
			await closeShared();
			throw error;
		}
		leadershipMetrics.setLeader(true);
	}
	logger.info(
		`bot: alerts from ${config.source.kind === 'push' ? 'the push channel' : 'REST polling'}, ${directory.all().length} assets, state in ${describeStore(config, options.database)}` +
			(leadership ? '; the replica that leads reads the platform and posts' : ''),
	);
	return {
		config,
		database: db,
		state,
		directory,
		engine,
		dispatcher,
		commands,
		oncall,
		get poll() {
			return duties?.poll;
		},
		get push() {
			return duties?.push ?? [];
		},
		connectivity,
		get connectivityPoll() {
			return duties?.connectivityPoll;
		},
		reports,
		get reportSchedule() {
			return duties?.reportSchedule;
		},
		leadership: () => leadership,
		home: new HomeService({
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
		}),
		readiness,
		sources: () => duties?.sources() ?? [],
		budget: options.budget,
		async stop() {
			clearInterval(outboxTimer);
			untrackOutbox();
			untrackSources();
			stopped = true;
			await leadership?.close();
			await changing;
			const stopping = duties;
			duties = undefined;
			await stopping?.stop();
			options.budget?.close();
			// After its sources: an observation arriving while they close must not outlive the store.
			await closeShared();
		},
	};
}

/**
 * Readiness of the alert source, registered while this replica leads; returns the check names. Polling: a complete pass within three intervals (and a minute of
 * slack). Push: each receiver connected to its broker (it reconnects by itself; until then no
 * alert arrives).
 */
function registerSourceChecks(
	readiness: Readiness,
	config: BotConfig,
	receivers: PushReceiver[],
): string[] {
	if (config.source.kind === 'poll') {
		const maxAgeMs = (3 * config.source.pollIntervalSeconds + 60) * 1000;
		readiness.register(
			'source',
			recentSuccess(() => lastSuccessfulPass.get('poll'), maxAgeMs, 'REST polling'),
		);
		return ['source'];
	}
	return receivers.map((receiver, index) => {
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
		return `source:${name}`;
	});
}

/** The topic each push receiver was started for (receivers do not expose their settings). */
const receiverTopics = new WeakMap<PushReceiver, string>();
