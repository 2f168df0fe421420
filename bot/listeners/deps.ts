import type { CommandHandler } from '../features/commands/handler';
import type { BotConfig } from '../config/schema';
import type { HomeService } from '../features/home/service';
import type { BotLogger } from '../log';
import type { OnCall } from '../features/oncall/oncall';
import type { AssetDirectory } from '../platform/directory';
import type { ReportService } from '../features/reports/service';
import type { AlertStore } from '../features/alerts/store';
import type { SqlDatabase } from '../state/sql';
import type { StepLimits } from './functions/run';

/** What every listener needs. */
export interface ListenerDeps {
	commands: CommandHandler;
	config: BotConfig;
	logger: BotLogger;
	/** The App Home's data; without it the Home tab is not published. */
	home?: HomeService;
	/** Acknowledge and Mute buttons; without it they answer that the bot is not ready. */
	oncall?: OnCall;
	/** The fleet's assets: the List open faults step checks a group's name against it. */
	directory?: AssetDirectory;
	/** The open alerts and their messages, read by the Workflow Builder steps. */
	alerts?: AlertStore;
	/** Where Slack payloads are claimed, so each acts once across replicas (bot/cluster/slack-once.ts). */
	database?: SqlDatabase;
	/** Reports in Slack, for the Request report step. */
	reports?: ReportService;
	/** How long each Workflow Builder step may take (defaults: STEP_LIMITS). */
	stepLimits?: Partial<StepLimits>;
}
