/* eslint-disable @n8n/community-nodes/require-node-api-error -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import '../../shared/runtime/node';
import type { PushReceiver } from '../../shared/push';
import type { Leadership } from '../cluster/leadership';
import type { BotConfig } from '../config/schema';
import type { AlertEngine } from '../features/alerts/engine';
import type { AlertState } from '../features/alerts/state';
import type { CommandHandler } from '../features/commands/handler';
import type { ConnectivityTracker } from '../features/connectivity/tracker';
import type { HomeService } from '../features/home/service';
import type { OnCall } from '../features/oncall/oncall';
import type { ReportService } from '../features/reports/service';
import type { SourceStatus } from '../kernel/source-status';
import type { Dispatcher } from '../leader/outbox/dispatcher';
import type { ConnectivityPoll } from '../leader/sources/connectivity-poll';
import type { PollSource } from '../leader/sources/poll';
import type { Readiness } from '../ops/readiness';
import type { RequestBudget } from '../platform/budget';
import type { AssetDirectory } from '../platform/directory';
import { describeStore } from '../state/open';
import type { SqlDatabase } from '../state/sql';
import { closeServices, composeServices } from './compose';
import { LeaderDuties } from './leader';
import type { BotOptions } from './options';
import { registerSharedChecks, startReplica } from './replica';
import { Role } from './role';

export type { BotOptions } from './options';

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

/**
 * Starts the bot: the shared services, what every replica runs, and the leader's duties, which run at once on SQLite
 * and while this replica holds the lease on PostgreSQL. A start that fails leaves nothing running.
 */
export async function startBot(options: BotOptions): Promise<Bot> {
	const { config, logger, database } = options;
	const role = new Role(config, logger);
	const services = await composeServices(options, role);
	const replica = startReplica(services, role);
	const duties = new LeaderDuties(services, replica.readiness, () => role.leads());
	try {
		if (database) await role.compete(duties, services.db, database, options.leadershipTimings);
		else await role.leadAlone(duties);
	} catch (error) {
		replica.stop();
		await closeServices(services);
		throw error;
	}
	registerSharedChecks(services, role, replica.readiness);
	logger.info(
		`bot: alerts from ${config.source.kind === 'push' ? 'the push channel' : 'REST polling'}, ${services.directory.all().length} assets, state in ${describeStore(config, database)}` +
			(database ? '; the replica that leads reads the platform and posts' : ''),
	);
	return {
		...services,
		database: services.db,
		get poll() {
			return duties.poll;
		},
		get push() {
			return duties.push;
		},
		get connectivityPoll() {
			return duties.connectivityPoll;
		},
		leadership: () => role.lease(),
		readiness: replica.readiness,
		sources: () => role.duties?.sources() ?? [],
		budget: options.budget,
		async stop() {
			replica.stop();
			await role.stop();
			options.budget?.close();
			// After its sources: an observation arriving while they close must not outlive the store.
			await closeServices(services);
		},
	};
}
