/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { drain, pollOnce } from './leader';
import { BOT_SCHEMA } from '../../bot/app/schema';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { databaseSettings } from '../../bot/state/database-url';
import { stateTables } from '../../bot/state/copy';
import { SqliteDatabase } from '../../bot/state/sqlite';
import { usePrivatePostgres } from '../helpers/postgres';
import { fakeSlackToken, waitFor } from './helpers';
import { startTestBot, topMessagesOf } from './harness';
import { useFixture } from './use-fixture';

// Moving a bot from its SQLite file to PostgreSQL: `drive-monitoring-bot migrate`, run as the
// program users run, and a bot on PostgreSQL that goes on exactly where the SQLite one stopped.
const botToken = fakeSlackToken('b');
const CLI = path.join(__dirname, '../../dist/bot/cli.js');
const pg = usePrivatePostgres();

const migrate = (args: string[], env: NodeJS.ProcessEnv = {}) =>
	spawnSync(process.execPath, [CLI, 'migrate', ...args], {
		encoding: 'utf8',
		timeout: 60_000,
		env: { PATH: process.env.PATH, ...env },
	});

test('every table of the schema is copied except who leads and which Slack payloads were seen', () => {
	const created = BOT_SCHEMA.migrations.flatMap((m) =>
		m.ddl.map((d) => /^\s*CREATE TABLE (\w+)/.exec(d)?.[1]).filter(Boolean),
	);
	expect(stateTables(BOT_SCHEMA).map((t) => t.table)).toEqual(
		created.filter((t) => t !== 'leader_lease' && t !== 'slack_payloads'),
	);
	expect(
		stateTables(BOT_SCHEMA)
			.filter((t) => t.identity)
			.map((t) => t.table),
	).toEqual(expect.arrayContaining(['outbox', 'event_messages', 'silences']));
});

describe('from the SQLite file to PostgreSQL', () => {
	const f = useFixture(botToken, { push: false });

	test('open alerts, acknowledgements and where they were posted move over: no repost, the close updates the same message', async () => {
		const { sim, slack, logger, state } = f;
		const drives = sim.fleet
			.assets()
			.filter((a) => a.assetType === 'Drive' && a.level !== 'expired')
			.slice(0, 2);
		f.bot = await startTestBot({
			sim,
			slackApiUrl: slack.apiUrl,
			botToken,
			stateFile: state.file,
			logger,
		});
		const events = drives.map((d) => sim.control.raiseEvent(d.id, { eventType: 'Fault' }));
		await pollOnce(f.bot);
		const messages = await Promise.all(
			events.map((e) => waitFor('the fault message', () => topMessagesOf(slack, e.id)[0])),
		);
		await drain(f.bot, 10_000);
		const acknowledged = (await f.bot.state.alerts.openAlerts()).find(
			(a) => a.eventId === String(events[0].id),
		);
		if (!acknowledged) throw new Error('the first fault is not open in the bot');
		await f.bot.oncall.acknowledge([acknowledged.key], 'U0ALICE');
		await waitFor('the acknowledged message', () =>
			JSON.stringify(messages[0].blocks).includes('Acknowledged by <@U0ALICE>'),
		);
		await drain(f.bot, 10_000);
		await f.bot.stop();
		f.bot = undefined;

		const url = pg.server().url();
		// As the high-availability guide shows it: the password in PGPASSWORD, not on the command line.
		const { user, port, database, password } = pg.server();
		const copied = migrate(
			['--from', state.file, '--to', `postgres://${user}@127.0.0.1:${port}/${database}`],
			{ PGPASSWORD: password },
		);
		expect(copied.stderr).toBe('');
		expect(copied.status).toBe(0);
		expect(copied.stdout).toMatch(
			/^Copied \d+ rows from .* to postgres:\/\/drive_bot:\*\*\*@127\.0\.0\.1:\d+\/drive_bot:/,
		);
		// As many rows as the file holds, table by table.
		const source = await SqliteDatabase.open(state.file, BOT_SCHEMA);
		for (const { table } of stateTables(BOT_SCHEMA)) {
			const n = (await source.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))?.n ?? 0;
			if (n > 0) expect(copied.stdout).toContain(`  ${table}: ${n}\n`);
		}
		await source.close();
		expect(copied.stdout).toMatch(/ {2}acks: 1\n/);
		expect(copied.stdout + copied.stderr).not.toContain(pg.server().password);

		// A second copy into the same database would mix two histories: refused, nothing written.
		const again = migrate(['--from', state.file], { DRIVE_BOT_DATABASE_URL: url });
		expect(again.status).toBe(1);
		expect(again.stderr).toMatch(/already holds bot state .*empty database/);
		expect(again.stdout + again.stderr).not.toContain(pg.server().password);

		sim.control.closeEvent(drives[0].id, Number(events[0].id), 'Fan replaced');
		const postsBefore = slack.posts().filter((m) => !m.threadTs).length;
		f.bot = await startTestBot({
			sim,
			slackApiUrl: slack.apiUrl,
			botToken,
			stateFile: state.file,
			logger,
			database: databaseSettings({ DRIVE_BOT_DATABASE_URL: url }),
		});
		expect(f.bot.database.dialect).toBe('postgres');
		await pollOnce(f.bot);
		await waitFor('the close on the migrated message', () => messages[0].text.includes('Resolved'));
		await drain(f.bot, 10_000);
		expect(JSON.stringify(messages[0].blocks)).toContain('Fan replaced');
		expect(slack.posts().filter((m) => !m.threadTs)).toHaveLength(postsBefore);
		for (const event of events) expect(topMessagesOf(slack, event.id)).toHaveLength(1);
		expect((await f.bot.state.alerts.openAlerts()).map((a) => a.eventId)).toContain(
			String(events[1].id),
		);
		// A new fault after the move gets rows after the copied ones (the identity columns follow them).
		const later = sim.control.raiseEvent(drives[1].id, { eventType: 'Fault' });
		await pollOnce(f.bot);
		await waitFor('the fault raised after the move', () => topMessagesOf(slack, later.id)[0]);
		await drain(f.bot, 10_000);
		expect(slack.posts().filter((m) => !m.threadTs)).toHaveLength(postsBefore + 1);
		expect(slack.problems).toEqual([]);
	}, 120_000);

	test('refuses without a source file or a database, and says what to give', () => {
		const noFile = migrate(['--from', '/nonexistent/state.sqlite', '--to', pg.server().url()]);
		expect(noFile.status).toBe(1);
		expect(noFile.stderr).toMatch(
			/No state file at \/nonexistent\/state.sqlite: give the file the bot ran with/,
		);
		const noTarget = migrate(['--from', f.state.file]);
		expect(noTarget.status).toBe(1);
		expect(noTarget.stderr).toMatch(/migrate needs the PostgreSQL database: --to postgres:\/\//);
	});
});
