import type { CommandHandler } from '../commands/handler';
import type { BotConfig } from '../config/schema';
import type { BotLogger } from '../log';

/** What every listener needs. */
export interface ListenerDeps {
  commands: CommandHandler;
  config: BotConfig;
  logger: BotLogger;
}
