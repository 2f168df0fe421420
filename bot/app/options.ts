import type { LeadershipTimings } from '../cluster/leadership';
import type { PushSettings } from '../config/push-settings';
import type { BotConfig } from '../config/schema';
import type { Notifier } from '../kernel/notice';
import type { Publisher } from '../kernel/publisher';
import type { BotLogger } from '../log';
import type { RequestBudget } from '../platform/budget';
import type { DrivePlatform } from '../platform/types';
import type { DatabaseSettings } from '../state/database-url';

/** What the bot is started with: its configuration, the platform, where its words go, and its database. */
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
	/** Lease and take-over timings of the replicas on PostgreSQL (defaults in bot/cluster/leadership.ts). */
	leadershipTimings?: Partial<LeadershipTimings>;
}
