import type { CommandHandler } from '../commands/handler';
import type { BotConfig } from '../config/schema';
import type { HomeService } from '../home/service';
import type { BotLogger } from '../log';
import type { OnCall } from '../oncall';

/** What every listener needs. */
export interface ListenerDeps {
  commands: CommandHandler;
  config: BotConfig;
  logger: BotLogger;
  /** The App Home's data; without it the Home tab is not published. */
  home?: HomeService;
  /** Acknowledge and Mute buttons; without it they answer that the bot is not ready. */
  oncall?: OnCall;
}
