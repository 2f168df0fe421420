/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { BotConfig } from '../config/schema';
import { databaseSettings } from './database-url';
import { openPostgres, type PostgresLogger } from './postgres';
import type { SqlDatabase } from './sql';
import { SqliteDatabase } from './sqlite';

export interface OpenOptions {
  env?: NodeJS.ProcessEnv;
  logger?: PostgresLogger;
}

/**
 * The bot's database, migrated and ready: PostgreSQL shared by replicas when DRIVE_BOT_DATABASE_URL is set (no
 * SQLite file is then written), else the SQLite state file (the embedded default).
 */
export async function openDatabase(config: Pick<BotConfig, 'stateFile'>, options: OpenOptions = {}): Promise<SqlDatabase> {
  const settings = databaseSettings(options.env ?? process.env);
  if (settings) return openPostgres(settings, { logger: options.logger });
  return SqliteDatabase.open(config.stateFile);
}

/** Where the state lives, for logs and /readyz: the PostgreSQL place without its password, or the SQLite file. */
export function databaseLocation(config: Pick<BotConfig, 'stateFile'>, env: NodeJS.ProcessEnv = process.env): string {
  return databaseSettings(env)?.display ?? config.stateFile;
}
