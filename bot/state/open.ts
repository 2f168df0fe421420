import type { BotConfig } from '../config/schema';
import type { DatabaseSettings } from './database-url';
import type { Schema } from './schema';
import type { SqlDatabase } from './sql';
import { SqliteDatabase } from './sqlite';

/**
 * The bot's database, migrated and ready: PostgreSQL when `database` is given (DRIVE_BOT_DATABASE_URL: replicas
 * share it, no SQLite file is written), else the SQLite state file (the embedded default).
 */
export async function openDatabase(
	config: Pick<BotConfig, 'stateFile'>,
	schema: Schema,
	database?: DatabaseSettings,
	warn?: (message: string) => void,
): Promise<SqlDatabase> {
	if (!database) return SqliteDatabase.open(config.stateFile, schema);
	// Loaded only here: a bot on its SQLite file never loads the PostgreSQL driver.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { PostgresDatabase } = require('./postgres') as typeof import('./postgres');
	return PostgresDatabase.open(database, schema, { warn });
}

/** Where the state lives, for the start-up line and /readyz: never a password. */
export function describeStore(
	config: Pick<BotConfig, 'stateFile'>,
	database?: DatabaseSettings,
): string {
	return database ? database.display : config.stateFile;
}
