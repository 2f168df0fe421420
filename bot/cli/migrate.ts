/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError } from '../config/load';
import { BOT_SCHEMA } from '../app/schema';
import { copyState } from '../state/copy';
import { databaseSettings, withoutPassword } from '../state/database-url';
import { PostgresDatabase } from '../state/postgres';
import type { SqlDatabase } from '../state/sql';
import { SqliteDatabase } from '../state/sqlite';

export const MIGRATE_USAGE = `Usage: drive-monitoring-bot migrate --from <state.sqlite> [--to <postgres://user@host/db>]

Copies the whole state of a bot that ran on its SQLite file (open alerts and where they were posted, on-call
state, silences, reminders, watermarks, outbox, connectivity, reports) into an empty PostgreSQL database, so
replicas started with DRIVE_BOT_DATABASE_URL go on exactly where it stopped. Stop the bot first. --to defaults
to DRIVE_BOT_DATABASE_URL; put the password in PGPASSWORD rather than on the command line.`;

/** `drive-monitoring-bot migrate`: the one-off move from the embedded store to the shared one. */
export async function migrateCommand(
	argv: string[],
	env: NodeJS.ProcessEnv,
	write: (text: string) => void,
): Promise<void> {
	const { values } = parseArgs({
		args: argv,
		options: { from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean' } },
	});
	if (values.help) return write(`${MIGRATE_USAGE}\n`);
	if (!values.from)
		throw new ConfigError(`migrate needs --from, the bot's SQLite state file.\n\n${MIGRATE_USAGE}`);
	// A missing file would be created empty, and "copied" as nothing: refuse it.
	if (!existsSync(values.from))
		throw new ConfigError(
			`No state file at ${values.from}: give the file the bot ran with (DRIVE_BOT_STATE or stateFile in its config).`,
		);
	const settings = databaseSettings({
		...env,
		DRIVE_BOT_DATABASE_URL: values.to ?? env.DRIVE_BOT_DATABASE_URL,
	});
	if (!settings)
		throw new ConfigError(
			`migrate needs the PostgreSQL database: --to postgres://user@host:5432/database, or DRIVE_BOT_DATABASE_URL.\n\n${MIGRATE_USAGE}`,
		);
	let source: SqlDatabase | undefined;
	let target: SqlDatabase | undefined;
	try {
		source = await SqliteDatabase.open(values.from, BOT_SCHEMA);
		target = await PostgresDatabase.open(settings, BOT_SCHEMA);
		const { rows } = await copyState(source, target, BOT_SCHEMA);
		const total = Object.values(rows).reduce((n, r) => n + r, 0);
		const lines = Object.entries(rows)
			.filter(([, n]) => n > 0)
			.map(([table, n]) => `  ${table}: ${n}`);
		write(
			`Copied ${total} rows from ${values.from} to ${settings.display}:\n${lines.join('\n') || '  (the state file was empty)'}\nStart the bot with DRIVE_BOT_DATABASE_URL set; keep ${values.from} until it runs.\n`,
		);
	} catch (error) {
		// Driver errors may quote the connection: the password never leaves.
		if (error instanceof Error) error.message = withoutPassword(error.message, settings);
		throw error;
	} finally {
		await source?.close();
		await target?.close();
	}
}
