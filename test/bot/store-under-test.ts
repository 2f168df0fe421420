/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { createHash, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { type DatabaseSettings, databaseSettings } from '../../bot/state/database-url';
import { BOT_SCHEMA } from '../../bot/app/schema';
import { openDatabase } from '../../bot/state/open';
import type { SqlDatabase } from '../../bot/state/sql';

// Which store the bot suite runs on: its SQLite state files (the default run), or the private PostgreSQL that
// test/bot/jest.postgres.config.js starts (DRIVE_TEST_STORE=postgres), where each state file of a test becomes a
// database of its own, so a restart "on the same state file" finds its state as a replica would.

const serverUrl = (): string | undefined =>
	process.env.DRIVE_TEST_STORE === 'postgres' ? process.env.DRIVE_TEST_PG_URL : undefined;

const created = new Map<string, Promise<string>>();

async function createDatabase(base: string, name: string): Promise<string> {
	const client = new Client({ connectionString: base });
	await client.connect();
	try {
		await client.query(`CREATE DATABASE ${name}`);
	} finally {
		await client.end();
	}
	const url = new URL(base);
	url.pathname = `/${name}`;
	return url.toString();
}

/** The URL of the database a test's state file stands for; undefined on the SQLite run. `:memory:` is a new one each time. */
async function databaseUrlFor(stateFile: string): Promise<string | undefined> {
	const base = serverUrl();
	if (!base) return undefined;
	const id = stateFile === ':memory:' ? randomUUID() : stateFile;
	const name = `bot_${createHash('sha256').update(id).digest('hex').slice(0, 24)}`;
	let url = created.get(name);
	if (!url) created.set(name, (url = createDatabase(base, name)));
	return url;
}

/** The bot's database settings for a test's state file: PostgreSQL on that run, undefined (SQLite) otherwise. */
export async function databaseFor(stateFile: string): Promise<DatabaseSettings | undefined> {
	const url = await databaseUrlFor(stateFile);
	return url === undefined ? undefined : databaseSettings({ DRIVE_BOT_DATABASE_URL: url });
}

/** The bot's database for a test, on the store this run is about. */
export async function openTestDatabase(stateFile: string): Promise<SqlDatabase> {
	return openDatabase({ stateFile }, BOT_SCHEMA, await databaseFor(stateFile));
}

/** What a bot started as a program (the CLI) needs in its environment to use that store. */
export async function storeEnvironment(stateFile: string): Promise<Record<string, string>> {
	const url = await databaseUrlFor(stateFile);
	return url === undefined ? { DRIVE_BOT_STATE: stateFile } : { DRIVE_BOT_DATABASE_URL: url };
}
