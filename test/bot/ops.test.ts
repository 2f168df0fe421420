/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The bot's operations endpoints on the compiled CLI, as a supervisor and Prometheus use them:
// /healthz, /readyz (platform, Slack auth and the alert source, each named) and /metrics, on
// DRIVE_BOT_OPS_PORT, with the Web API pointed at our Slack stand-in and the embedded simulator.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { WebSocketServer } from 'ws';
import { fakeSlackToken, waitFor } from './helpers';
import { SlackApiServer } from './slack-server';

const cli = path.resolve(__dirname, '..', '..', 'dist', 'bot', 'cli.js');

function start(extra: Record<string, string>): {
	child: ChildProcessWithoutNullStreams;
	err: () => string;
	exited: Promise<number | null>;
} {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([k]) => !k.startsWith('SLACK_') && !k.startsWith('DRIVE_')),
	);
	// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- running the CLI as a user does is the point; this is not node code
	const child = spawn(process.execPath, [cli], {
		env: {
			...env,
			DRIVE_SIM_EVENT_RATE: '0',
			DRIVE_BOT_OPS_PORT: '0',
			DRIVE_BOT_OPS_HOST: '127.0.0.1',
			...extra,
		},
		stdio: 'pipe',
	});
	let err = '';
	child.stderr.on('data', (d: Buffer) => (err += d.toString()));
	child.stdout.resume();
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return { child, err: () => err, exited };
}

async function freePort(): Promise<string> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return String(port);
}

async function opsUrl(bot: { err: () => string }): Promise<string> {
	const match = await waitFor(
		'the ops endpoints to listen',
		() => /ops: \/healthz, \/readyz and \/metrics at (http:\/\/\S+)/.exec(bot.err()),
		30_000,
	);
	return match[1];
}

async function readyz(url: string): Promise<{
	status: number;
	body: { ready: boolean; checks: Record<string, { ok: boolean; detail: string }> };
}> {
	const response = await fetch(`${url}/readyz`);
	return { status: response.status, body: (await response.json()) as never };
}

test('HTTP mode: alive, ready once platform, Slack and the push source work, and metrics count the alert it posted', async () => {
	const token = fakeSlackToken('b');
	const slack = await new SlackApiServer({ token }).start();
	const bot = start({
		SLACK_BOT_TOKEN: token,
		SLACK_SIGNING_SECRET: `s-${Math.random()}`,
		SLACK_API_URL: slack.apiUrl,
		PORT: await freePort(),
	});
	try {
		const url = await opsUrl(bot);
		const health = await fetch(`${url}/healthz`);
		expect(health.status).toBe(200);
		expect(await health.json()).toEqual({ status: 'ok' });

		await waitFor(
			'the demo fault in Slack',
			() => slack.posts().find((m) => m.text.startsWith('Fault')),
			30_000,
		);
		let ready = await readyz(url);
		for (
			const deadline = Date.now() + 30_000;
			ready.status !== 200 && Date.now() < deadline;
			ready = await readyz(url)
		) {
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		expect(ready.status).toBe(200);
		expect(ready.body.ready).toBe(true);
		expect(Object.keys(ready.body.checks).sort()).toEqual(
			expect.arrayContaining(['platform', 'slack']),
		);
		expect(ready.body.checks.slack.detail).toContain('authenticated as drive-bot');
		expect(Object.keys(ready.body.checks).some((name) => name.startsWith('source:push:'))).toBe(
			true,
		);

		const metrics = await fetch(`${url}/metrics`);
		expect(metrics.headers.get('content-type')).toContain('text/plain');
		const text = await metrics.text();
		expect(
			Number(/^drive_bot_alerts_posted_total\{kind="alert"\} (\d+)/m.exec(text)?.[1]),
		).toBeGreaterThanOrEqual(1);
		expect(
			Number(/^drive_bot_push_deliveries_total\{source="push:[^"]+"\} (\d+)/m.exec(text)?.[1]),
		).toBeGreaterThanOrEqual(1);
		expect(text).toMatch(
			/^drive_bot_source_last_success_timestamp_seconds\{source="push:[^"]+"\} \d/m,
		);
		for (const name of [
			'drive_bot_alerts_updated_total',
			'drive_bot_alerts_failed_total',
			'drive_bot_slack_rate_limited_total',
			'drive_bot_outbox_depth',
			'drive_bot_push_redeliveries_total',
			'drive_bot_poll_pass_duration_seconds',
			'process_cpu_seconds_total',
		]) {
			expect(text).toContain(`# TYPE ${name} `);
		}
		expect(text).not.toContain(token);
		bot.child.kill('SIGTERM');
		expect(await bot.exited).toBe(0);
	} finally {
		bot.child.kill();
		await slack.close();
	}
}, 90_000);

test('Socket Mode: the same endpoints, ready once the socket is connected', async () => {
	const token = fakeSlackToken('b');
	const appToken = fakeSlackToken('app');
	// Slack's side of Socket Mode: apps.connections.open hands out this socket, which says hello.
	const sockets = new WebSocketServer({ host: '127.0.0.1', port: 0 });
	await new Promise<void>((resolve) => sockets.once('listening', () => resolve()));
	sockets.on('connection', (socket) =>
		socket.send(
			JSON.stringify({
				type: 'hello',
				num_connections: 1,
				connection_info: { app_id: 'A0BOT' },
				debug_info: { host: 'stand-in' },
			}),
		),
	);
	const socketUrl = `ws://127.0.0.1:${(sockets.address() as { port: number }).port}/`;
	const slack = await new SlackApiServer({
		token,
		socketMode: { appToken, url: socketUrl },
	}).start();
	const bot = start({
		SLACK_BOT_TOKEN: token,
		SLACK_APP_TOKEN: appToken,
		SLACK_API_URL: slack.apiUrl,
	});
	try {
		const url = await opsUrl(bot);
		expect(bot.err()).toContain('Socket Mode connected');
		expect((await fetch(`${url}/healthz`)).status).toBe(200);
		await waitFor(
			'the demo fault in Slack',
			() => slack.posts().find((m) => m.text.startsWith('Fault')),
			30_000,
		);
		let ready = await readyz(url);
		for (
			const deadline = Date.now() + 30_000;
			ready.status !== 200 && Date.now() < deadline;
			ready = await readyz(url)
		) {
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		expect(ready.status).toBe(200);
		expect(ready.body.checks.slack.ok).toBe(true);
		const text = await (await fetch(`${url}/metrics`)).text();
		expect(
			Number(/^drive_bot_alerts_posted_total\{kind="alert"\} (\d+)/m.exec(text)?.[1]),
		).toBeGreaterThanOrEqual(1);
		expect(bot.err()).not.toContain(appToken);
	} finally {
		bot.child.kill();
		await bot.exited;
		await slack.close();
		for (const client of sockets.clients) client.terminate();
		await new Promise((resolve) => sockets.close(resolve));
	}
}, 90_000);

test('readiness names what is wrong: Slack out of reach makes /readyz 503 (once its 15 s cache ends) while /healthz stays 200', async () => {
	const token = fakeSlackToken('b');
	const slack = await new SlackApiServer({ token }).start();
	const bot = start({
		SLACK_BOT_TOKEN: token,
		SLACK_SIGNING_SECRET: `s-${Math.random()}`,
		SLACK_API_URL: slack.apiUrl,
		PORT: await freePort(),
	});
	try {
		const url = await opsUrl(bot);
		let answer = await readyz(url);
		for (
			const deadline = Date.now() + 30_000;
			answer.status !== 200 && Date.now() < deadline;
			answer = await readyz(url)
		) {
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		expect(answer.status).toBe(200);
		await slack.close();
		for (
			const deadline = Date.now() + 60_000;
			answer.status === 200 && Date.now() < deadline;
			answer = await readyz(url)
		) {
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		expect(answer.status).toBe(503);
		expect(answer.body.ready).toBe(false);
		expect(answer.body.checks.slack.ok).toBe(false);
		expect(answer.body.checks.slack.detail.length).toBeGreaterThan(0);
		expect(answer.body.checks.platform.ok).toBe(true);
		expect(JSON.stringify(answer.body)).not.toContain(token);
		expect((await fetch(`${url}/healthz`)).status).toBe(200);
	} finally {
		bot.child.kill();
		await bot.exited;
		await slack.close().catch(() => undefined);
	}
}, 120_000);

test('a wrong ops port is refused at start with the variable, the value and the rule', async () => {
	const bot = start({ DRIVE_BOT_OPS_PORT: 'eighty' });
	expect(await bot.exited).toBe(1);
	expect(bot.err()).toContain('DRIVE_BOT_OPS_PORT "eighty" is not a port');
}, 30_000);
