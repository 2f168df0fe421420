import type { CommandHandler } from '../commands/handler';
import type { BotConfig } from '../config/schema';
import type { BotLogger } from '../log';
import type { OnCall } from '../oncall';

/** What every listener needs. */
export interface ListenerDeps {
  commands: CommandHandler;
  config: BotConfig;
  logger: BotLogger;
  /** Acknowledge and Mute buttons; without it they answer that the bot is not ready. */
  oncall?: OnCall;
}
