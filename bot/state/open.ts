import type { BotConfig } from '../config/schema';
import type { SqlDatabase } from './sql';
import { SqliteDatabase } from './sqlite';

/** The bot's database, migrated and ready: the SQLite state file (the embedded default). */
export async function openDatabase(config: Pick<BotConfig, 'stateFile'>): Promise<SqlDatabase> {
  return SqliteDatabase.open(config.stateFile);
}
