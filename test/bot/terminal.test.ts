/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createServer } from 'node:net';
import {
	fakeSlackToken,
	postToSlackApp,
	slashCommandBody,
	tempStateFile,
	waitFor,
} from './helpers';
import { SlackApiServer } from './slack-server';

// `npm start` without Slack tokens or platform credentials: the compiled CLI, driven through
// stdin and read from stdout as a person at the terminal would.
const cli = path.resolve(__dirname, '..', '..', 'dist', 'bot', 'cli.js');

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([k]) => !k.startsWith('SLACK_') && !k.startsWith('DRIVE_')),
	);
	return { ...env, DRIVE_SIM_EVENT_RATE: '0', ...extra };
}

function run(env: NodeJS.ProcessEnv): {
	child: ChildProcessWithoutNullStreams;
	out: () => string;
	err: () => string;
	exited: Promise<number | null>;
} {
	// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- running the CLI as a user does is the point; this is not node code
	const child = spawn(process.execPath, [cli], { env, stdio: 'pipe' });
	let out = '';
	let err = '';
	child.stdout.on('data', (d: Buffer) => (out += d.toString()));
	child.stderr.on('data', (d: Buffer) => (err += d.toString()));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return { child, out: () => out, err: () => err, exited };
}

test('alerts print as they happen and /drive status answers at the prompt', async () => {
	const bot = run(cleanEnv());
	try {
		const alert = await waitFor(
			'a fault alert on stdout',
			() => /== Fault \S+ on (.+) ==[\s\S]*?Asset: .+ \((\S+)\)/.exec(bot.out()),
			30_000,
		);
		const serial = alert[2];
		expect(bot.out()).toContain('Event time:');
		expect(bot.out()).toContain('(UTC+08:00)');
		expect(bot.out()).toContain('[Details: /drive status');
		bot.child.stdin.write(`/drive status ${serial}\n`);
		await waitFor(
			'the status answer',
			() => bot.out().includes(`(${serial}) ==`) && bot.out().includes('Conditions'),
			20_000,
		);
		bot.child.stdin.write('events nosuchasset\n');
		await waitFor(
			'the not-found answer',
			() => bot.out().includes('No asset matches nosuchasset'),
			20_000,
		);
		bot.child.stdin.write('exit\n');
		expect(await bot.exited).toBe(0);
	} finally {
		bot.child.kill();
	}
}, 60_000);

test('an invalid configuration stops the start with the field, the value and the rule', async () => {
	const state = tempStateFile();
	const file = path.join(path.dirname(state.file), 'bot.yml');
	writeFileSync(
		file,
		'alerts:\n  minSeverity: Critical\n  stormPerMinute: 0\ntimeZone: Mars/Olympus\nchanel: "#x"\n',
	);
	const bot = run(cleanEnv({ DRIVE_BOT_CONFIG: file }));
	try {
		expect(await bot.exited).toBe(1);
		const err = bot.err();
		expect(err).toContain('alerts.minSeverity (found "Critical")');
		expect(err).toContain('alerts.stormPerMinute (found 0)');
		expect(err).toContain('timeZone (found "Mars/Olympus"): "Mars/Olympus" is not a time zone');
		expect(err).toContain('unknown field(s) "chanel"');
		expect(bot.out()).not.toContain('Drive Monitoring bot');
	} finally {
		bot.child.kill();
		state.cleanup();
	}
}, 30_000);

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return port;
}

test('with Slack tokens the CLI posts alerts to the Web API and answers signed commands, never logging a token', async () => {
	const botToken = fakeSlackToken('b');
	const signingSecret = `secret-${Date.now()}-${Math.random()}`;
	const slack = await new SlackApiServer({ token: botToken }).start();
	const port = await freePort();
	const bot = run(
		cleanEnv({
			SLACK_BOT_TOKEN: botToken,
			SLACK_SIGNING_SECRET: signingSecret,
			SLACK_API_URL: slack.apiUrl,
			PORT: String(port),
			LOG_LEVEL: 'debug',
		}),
	);
	try {
		const alert = await waitFor(
			'the demo fault in Slack',
			() => slack.posts().find((m) => m.text.startsWith('Fault')),
			30_000,
		);
		expect(alert.channel).toBe(slack.channelId('#drive-alerts'));
		await waitFor('HTTP mode listening', () => bot.err().includes(`listening on ${port}`), 10_000);
		const body = slashCommandBody({
			command: '/drive',
			text: 'health',
			responseUrl: slack.responseUrl('cli-health'),
		});
		expect(
			(await postToSlackApp(`http://127.0.0.1:${port}/slack/events`, signingSecret, body)).status,
		).toBe(200);
		const answer = await waitFor(
			'the health answer',
			() => slack.responses.find((r) => r.id === 'cli-health'),
			20_000,
		);
		expect(String(answer.body.text)).toContain('Fleet health');
		expect(slack.problems).toEqual([]);
		bot.child.kill('SIGTERM');
		expect(await bot.exited).toBe(0);
		for (const output of [bot.out(), bot.err()]) {
			expect(output).not.toContain(botToken);
			expect(output).not.toContain(signingSecret);
		}
	} finally {
		bot.child.kill();
		await slack.close();
	}
}, 60_000);
