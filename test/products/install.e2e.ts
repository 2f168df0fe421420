/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The bot and the simulator as their users get them: each tarball of `npm run pack` installed by
// npm into an empty folder, each started by its bin through npx. The simulator answers E1; the
// bot, pointed by its environment at that simulator and at our Slack stand-in, polls, posts an
// alert, and answers /readyz and /metrics. The bot's install carries nothing a production bot
// does not load: no simulator and no MQTT broker (aedes); its terminal demo asks for the
// simulator, and runs once the simulator's package is installed beside it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { spawn, type ChildProcess } from 'node:child_process';

import { createClient } from '../../shared';
import { PACKAGES_DIR } from '../../scripts/n8n/install-pack';
import { run, startDetached, stop } from '../../scripts/n8n/process';
import type { SimulatorInfo } from '../../simulator';
import { fakeSlackToken } from '../bot/helpers';
import { SlackApiServer } from '../bot/slack-server';

interface PackedProduct {
	name: string;
	tarball: string;
}

const products = JSON.parse(
	fs.readFileSync(path.join(PACKAGES_DIR, 'packages.json'), 'utf8'),
) as PackedProduct[];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dm-products-'));
const children: ChildProcess[] = [];

/** `npm install <tarball>` in a new empty folder, as a user would. */
async function install(name: string): Promise<string> {
	const product = products.find((p) => p.name === name);
	if (!product) throw new Error(`${name} is not in artifacts/packages: run npm run pack`);
	const dir = path.join(work, name);
	fs.mkdirSync(dir, { recursive: true });
	await run(
		'npm',
		[
			'install',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
			path.join(PACKAGES_DIR, product.tarball),
		],
		{ cwd: dir, timeoutMs: 10 * 60_000 },
	);
	return dir;
}

function npxEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
	return {
		...process.env,
		PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
		...env,
	};
}

function npx(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
	const child = startDetached('npx', ['--no-install', ...args], { cwd: dir, env: npxEnv(env) });
	children.push(child);
	return child;
}

/**
 * A preload for NODE_OPTIONS: each Node process writes the files it has loaded (require's cache)
 * to <dir>/loaded-<pid>.txt every half second, so a test can tell which packages a running
 * program really loaded. (Not at exit: npx passes a SIGTERM on to the bot, whose second SIGTERM
 * ends it without an 'exit' event.)
 */
function moduleRecorder(dir: string): { env: NodeJS.ProcessEnv; loaded(): string[] } {
	const preload = path.join(dir, 'record-loaded-modules.js');
	// Written whole and then renamed, so a reader never sees half a list.
	fs.writeFileSync(
		preload,
		`setInterval(() => {
  const fs = require('node:fs');
  const file = require('node:path').join(${JSON.stringify(dir)}, 'loaded-' + process.pid + '.txt');
  fs.writeFileSync(file + '.part', Object.keys(require.cache).join('\\n'));
  fs.renameSync(file + '.part', file);
}, 500).unref();\n`,
	);
	return {
		env: { NODE_OPTIONS: `--require ${preload}` },
		loaded: () =>
			fs
				.readdirSync(dir)
				.filter((f) => /^loaded-\d+\.txt$/.test(f))
				.flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n')),
	};
}

async function until<T>(
	what: string,
	probe: () => T | undefined | false | Promise<T | undefined | false>,
	timeoutMs = 90_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value) return value;
		if (Date.now() > deadline)
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** The lowest Node version a product's `engines` admits (`>=22.19` gives 22.19). */
function engineMinimum(installed: string, name: string): string {
	const manifest = JSON.parse(
		fs.readFileSync(path.join(installed, 'node_modules', name, 'package.json'), 'utf8'),
	) as { engines: { node: string } };
	const minimum = /^>=\s*(\d+(?:\.\d+)*)$/.exec(manifest.engines.node)?.[1];
	if (!minimum) throw new Error(`${name}: engines.node ${manifest.engines.node} is not >=X.Y`);
	return minimum;
}

function versionBelow(version: string, minimum: string): boolean {
	const [a, b] = [version, minimum].map((v) => v.split('.').map(Number));
	for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
	return false;
}

/**
 * A Node older than `minimum` on this machine (DRIVE_TEST_OLD_NODE, the system's /usr/bin/node,
 * or any `node` on the PATH), linked as `node` alone in a folder: that folder first on the PATH
 * makes the installed command's `#!/usr/bin/env node` start it, as on a server with that Node.
 */
async function olderNode(minimum: string): Promise<{ binDir: string; version: string }> {
	const candidates = [
		process.env.DRIVE_TEST_OLD_NODE,
		'/usr/bin/node',
		'/usr/local/bin/node',
		...(process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'node')),
	].filter((file): file is string => Boolean(file) && fs.existsSync(file!));
	for (const candidate of candidates) {
		const { stdout } = await run(candidate, ['-p', 'process.versions.node'], {
			allowFailure: true,
		});
		const version = stdout.trim();
		if (/^\d+\.\d+\.\d+$/.test(version) && versionBelow(version, minimum)) {
			const binDir = fs.mkdtempSync(path.join(work, 'old-node-'));
			fs.symlinkSync(candidate, path.join(binDir, 'node'));
			return { binDir, version };
		}
	}
	throw new Error(
		`no Node.js older than ${minimum} on this machine, to check that the installed commands refuse it: install one (Debian's nodejs package) or name it in DRIVE_TEST_OLD_NODE`,
	);
}

/**
 * The installed command as a user on an older Node runs it: one line on stderr naming the Node it
 * needs and where to get it, exit code 1, nothing else (no stack trace).
 */
async function expectOldNodeRefused(installed: string, name: string, args: string[]) {
	const minimum = engineMinimum(installed, name);
	const major = minimum.split('.')[0];
	const old = await olderNode(minimum);
	const result = await run(path.join(installed, 'node_modules', '.bin', name), args, {
		cwd: installed,
		env: { ...process.env, PATH: `${old.binDir}${path.delimiter}${process.env.PATH}` },
		allowFailure: true,
		timeoutMs: 60_000,
	});
	expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 1, stdout: '' });
	expect(result.stderr).toBe(
		`${name} needs Node.js ${minimum} or later; this is Node.js ${old.version}. Install Node.js ${major} or later from https://nodejs.org/en/download (or \`nvm install ${major}\`) and run it again.\n`,
	);
}

let simulatorDir: string;
let info: SimulatorInfo;

afterAll(async () => {
	await Promise.all(children.map((child) => stop(child)));
	fs.rmSync(work, { recursive: true, force: true });
});

describe('drive-monitoring-simulator from its tarball', () => {
	it('installs into an empty folder and `npx drive-monitoring-simulator` answers E1', async () => {
		simulatorDir = await install('drive-monitoring-simulator');
		expect(
			fs.existsSync(path.join(simulatorDir, 'node_modules', '.bin', 'drive-monitoring-simulator')),
		).toBe(true);
		const child = npx(simulatorDir, [
			'drive-monitoring-simulator',
			'--port',
			'0',
			'--event-rate',
			'120',
			'--time-scale',
			'1',
		]);
		const firstLine = await new Promise<string>((resolve, reject) => {
			readline.createInterface({ input: child.stdout! }).once('line', resolve);
			child.once('exit', (code) => reject(new Error(`the simulator exited with ${code}`)));
		});
		info = JSON.parse(firstLine) as SimulatorInfo;
		const eu = info.credentials.find((c) => c.orgType === 'EU')!;
		const client = createClient({
			baseUrl: info.baseUrl,
			authUrl: info.authUrl,
			tenantId: info.tenantId,
			apiScopeId: info.apiScopeId,
			apiKey: eu.apiKey,
			apiSecret: eu.apiSecret,
		});
		const organization = await client.organization.get();
		expect(organization.id).toBe(eu.orgId);
		await client.close();
	});

	it('on a Node older than its engines, says in one line which Node it needs and exits', async () => {
		await expectOldNodeRefused(simulatorDir, 'drive-monitoring-simulator', ['--port', '0']);
	});
});

describe('drive-monitoring-bot from its tarball', () => {
	let botDir: string;
	const token = fakeSlackToken('b');
	let slack: SlackApiServer;

	beforeAll(async () => {
		botDir = await install('drive-monitoring-bot');
		slack = await new SlackApiServer({ token }).start();
	});
	afterAll(async () => {
		await slack?.close();
	});

	it('installs without the simulator or an MQTT broker: a production bot loads neither', () => {
		const installed = (name: string) =>
			fs.existsSync(path.join(botDir, 'node_modules', name, 'package.json'));
		expect(installed('@slack/bolt')).toBe(true);
		expect(installed('drive-monitoring-simulator')).toBe(false);
		expect(installed('aedes')).toBe(false);
		const manifest = JSON.parse(
			fs.readFileSync(
				path.join(botDir, 'node_modules', 'drive-monitoring-bot', 'package.json'),
				'utf8',
			),
		) as { dependencies: Record<string, string> };
		expect(Object.keys(manifest.dependencies)).not.toContain('aedes');
	});

	it('`npx drive-monitoring-bot --help` prints its usage', async () => {
		const result = await run('npx', ['--no-install', 'drive-monitoring-bot', '--help'], {
			cwd: botDir,
		});
		expect(result.stdout).toContain('Usage: drive-monitoring-bot');
		expect(result.stdout).toContain('/healthz');
	});

	it('`drive-monitoring-bot --help` on a Node older than its engines says in one line which Node it needs and exits', async () => {
		await expectOldNodeRefused(botDir, 'drive-monitoring-bot', ['--help']);
	});

	it('runs against the simulator named in its environment: polls, posts an alert to Slack, answers /readyz and /metrics', async () => {
		expect(info).toBeDefined();
		const eu = info.credentials.find((c) => c.orgType === 'EU')!;
		const config = path.join(botDir, 'bot.yml');
		fs.writeFileSync(
			config,
			'source: { kind: poll, pollIntervalSeconds: 5 }\nalerts: { minSeverity: Warning }\n',
		);
		const recorder = moduleRecorder(fs.mkdtempSync(path.join(work, 'loaded-')));
		const bot = npx(botDir, ['drive-monitoring-bot'], {
			...recorder.env,
			DRIVE_MONITORING_BASE_URL: info.baseUrl,
			DRIVE_MONITORING_AUTH_URL: info.authUrl,
			DRIVE_MONITORING_TENANT_ID: info.tenantId,
			DRIVE_MONITORING_API_KEY: eu.apiKey,
			DRIVE_MONITORING_API_SECRET: eu.apiSecret,
			DRIVE_MONITORING_API_SCOPE_ID: info.apiScopeId,
			SLACK_BOT_TOKEN: token,
			SLACK_SIGNING_SECRET: `s-${Math.random()}`,
			SLACK_API_URL: slack.apiUrl,
			PORT: '0',
			DRIVE_BOT_CONFIG: config,
			DRIVE_BOT_STATE: path.join(botDir, 'state.sqlite'),
			DRIVE_BOT_OPS_PORT: '0',
			DRIVE_BOT_OPS_HOST: '127.0.0.1',
		});
		let log = '';
		bot.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
		bot.stdout!.resume();
		const started = await until(
			'the ops endpoints',
			() => /ops: \/healthz, \/readyz and \/metrics at (http:\/\/\S+)/.exec(log) ?? undefined,
			120_000,
		).catch((error: Error) => {
			throw new Error(`${error.message}\n${log}`);
		});
		const opsUrl = started[1];

		const alert = await until(
			'an alert in Slack',
			() => slack.posts().find((m) => /^(Fault|Warning)/.test(m.text)),
			120_000,
		);
		expect(alert.channel).toBe(slack.channelId('#drive-alerts'));
		const ready = await until('/readyz 200', async () => {
			const response = await fetch(`${opsUrl}/readyz`);
			return response.status === 200
				? ((await response.json()) as { checks: Record<string, { ok: boolean }> })
				: undefined;
		});
		expect(Object.keys(ready.checks).sort()).toEqual(['lag', 'platform', 'slack', 'source']);
		const metrics = await (await fetch(`${opsUrl}/metrics`)).text();
		expect(
			Number(/^drive_bot_alerts_posted_total\{kind="alert"\} (\d+)/m.exec(metrics)?.[1]),
		).toBeGreaterThanOrEqual(1);
		expect(
			Number(
				/^drive_bot_poll_pass_duration_seconds_count\{source="poll"\} (\d+)/m.exec(metrics)?.[1],
			),
		).toBeGreaterThanOrEqual(1);
		// How late polling is, and the request budget it spends (read from the sources on scrape).
		expect(metrics).toMatch(/^drive_bot_source_lag_seconds\{source="poll"\} \d+/m);
		expect(metrics).toMatch(/^drive_bot_platform_budget_per_second \d+/m);
		expect(log).not.toContain(eu.apiSecret);
		expect(log).not.toContain(token);

		// What the running production bot has loaded once it polled, alerted and answered: its own
		// code and Bolt, no simulator, no broker.
		const cli = path.join('drive-monitoring-bot', 'dist', 'bot', 'cli.js');
		const loaded = await until('the list of modules the bot has loaded', () => {
			const files = recorder.loaded();
			return files.some((file) => file.endsWith(cli)) ? files : undefined;
		});
		await stop(bot);
		expect(loaded.some((file) => file.includes(path.join('node_modules', '@slack', 'bolt')))).toBe(
			true,
		);
		expect(
			loaded.filter((file) => /[\\/](aedes|drive-monitoring-simulator)[\\/]/.test(file)),
		).toEqual([]);
	});

	/** The terminal demo with a live stdin (its prompt ends the bot at end of input). */
	function startDemo(): { child: ChildProcess; output: () => string } {
		// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- a test harness that runs the installed bot
		const child = spawn('npx', ['--no-install', 'drive-monitoring-bot'], {
			cwd: botDir,
			env: npxEnv({ LOG_LEVEL: 'info' }),
			detached: true,
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		children.push(child);
		let output = '';
		child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
		return { child, output: () => output };
	}

	it('the terminal demo without the simulator says how to install it, and exits', async () => {
		const demo = startDemo();
		const code = await new Promise<number | null>((resolve) => demo.child.once('exit', resolve));
		expect(code).toBe(1);
		expect(demo.output()).toContain('npm install drive-monitoring-simulator');
		expect(demo.output()).toContain('DRIVE_MONITORING_BASE_URL');
	});

	it('the terminal demo runs on the embedded simulator once its package is installed beside the bot', async () => {
		const simulator = products.find((p) => p.name === 'drive-monitoring-simulator')!;
		await run(
			'npm',
			[
				'install',
				'--no-audit',
				'--no-fund',
				'--loglevel=error',
				path.join(PACKAGES_DIR, simulator.tarball),
			],
			{ cwd: botDir, timeoutMs: 10 * 60_000 },
		);
		const demo = startDemo();
		// The demo raises a first fault a few seconds in; the terminal prints it as a channel message.
		await until(
			'the demo banner and a first alert',
			() => /terminal mode on the embedded simulator[\s\S]*\] message \S+/.test(demo.output()),
			120_000,
		).catch((error: Error) => {
			throw new Error(`${error.message}\n${demo.output()}`);
		});
		demo.child.stdin!.end();
		const code = await new Promise<number | null>((resolve) =>
			demo.child.exitCode !== null
				? resolve(demo.child.exitCode)
				: demo.child.once('exit', resolve),
		);
		expect(code).toBe(0);
	});
});
