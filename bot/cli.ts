#!/usr/bin/env -S node --max-semi-space-size=8
/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// `npm start`: the bot. Without Slack tokens it runs in the terminal; without platform
// credentials it starts the simulator in-process. See the README's "Slack bot" section.
import { databaseSettings } from './state/database-url';
import { parseArgs } from 'node:util';
import '../shared/runtime/node';
import type { Notifier } from './kernel/notice';
import { leaderTimingsOf, readEnv, secretsOf, type BotEnv } from './config/env';
import { ConfigError, loadConfigFile } from './config/load';
import type { BotConfig } from './config/schema';
import { startEmbeddedPlatform } from './embedded';
import { type BotLogger, createLogger, errorText, redact } from './log';
import { RequestBudget } from './platform/budget';
import { createBudgetedPlatform, createPlatformClient } from './platform/client';
import { missingNodeFlags } from './node-flags';
import {
	configuredPushUsers,
	createPushUsers,
	ensurePushUser,
	pushPasswords,
} from './platform/push-user';
import type { DrivePlatform } from './platform/types';
import { cached } from './ops/readiness';
import { opsSettingsFromEnv, startOpsServer, type OpsServer } from './ops/server';
import { startBot } from './app/start';
import { createSlackApp } from './slack/app';
import { createNotifierClient, SlackNotifier } from './slack/notifier';
import { startRepl } from './terminal/repl';
import { TerminalNotifier } from './terminal/notifier';
import { TerminalPublisher } from './terminal/publisher';
import { createPublisherClient, SlackPublisher } from './slack/publisher';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { PushSettings } from './config/push-settings';

const USAGE = `Usage: drive-monitoring-bot [--config bot.yml] [--lenient]
       drive-monitoring-bot migrate --from <state.sqlite> [--to <postgres url>]   (see migrate --help)

--lenient starts even when a route names an organization, asset group or plant the platform
does not have (warned about instead of refused).

Without Slack tokens the bot runs in this terminal; without platform credentials it starts the
simulator in-process. Environment: SLACK_BOT_TOKEN with SLACK_APP_TOKEN (Socket Mode) or
SLACK_SIGNING_SECRET (HTTP, PORT); DRIVE_MONITORING_BASE_URL, _AUTH_URL, _TENANT_ID, _API_KEY,
_API_SECRET, _API_SCOPE_ID; DRIVE_MONITORING_PUSH_URL, _USER, _PASSWORD, _TOPIC; DRIVE_BOT_CONFIG,
DRIVE_BOT_STATE, LOG_LEVEL; DRIVE_BOT_DATABASE_URL (PostgreSQL shared by replicas, with PGPASSWORD and the
other PG* variables for what it leaves out) instead of the SQLite state file; DRIVE_BOT_LEADER_LEASE_MS
and DRIVE_BOT_LEADER_RENEW_MS (the replicas' lease, default 10000 and 2000).

Operations: --ops-port N (or DRIVE_BOT_OPS_PORT; 0 picks a free port) serves GET /healthz,
/readyz and /metrics (Prometheus) on DRIVE_BOT_OPS_HOST (default 0.0.0.0), in every mode.`;

interface PlatformSetup {
	platform: DrivePlatform;
	commandPlatform?: DrivePlatform;
	budget?: RequestBudget;
	push: PushSettings[];
	close(): Promise<void>;
	demo?: () => void;
	/** The platform's clock when it is the embedded simulator (it may run faster than real time). */
	now?: () => number;
}

function platformCredentials(env: BotEnv) {
	return {
		baseUrl: env.DRIVE_MONITORING_BASE_URL as string,
		authUrl: env.DRIVE_MONITORING_AUTH_URL as string,
		tenantId: env.DRIVE_MONITORING_TENANT_ID as string,
		apiKey: env.DRIVE_MONITORING_API_KEY as string,
		apiSecret: env.DRIVE_MONITORING_API_SECRET as string,
		apiScopeId: env.DRIVE_MONITORING_API_SCOPE_ID as string,
	};
}

async function setUpPlatform(
	env: BotEnv,
	config: BotConfig,
	logger: BotLogger,
): Promise<PlatformSetup> {
	if (env.DRIVE_MONITORING_BASE_URL === undefined) {
		const embedded = await startEmbeddedPlatform({
			eventRatePerMinute: env.DRIVE_SIM_EVENT_RATE ?? 6,
			timeScale: env.DRIVE_SIM_TIME_SCALE ?? 1,
			cbm: config.cbm.enabled,
			logger,
		});
		logger.info(
			`embedded simulator at ${embedded.sim.info.baseUrl} (${embedded.sim.info.assetCount} assets)`,
		);
		const { sim } = embedded;
		return {
			platform: embedded.platform,
			push: embedded.push,
			close: () => sim.close(),
			now: () => sim.clock.now(),
			// A first fault a few seconds in, so the demo shows an alert at once (then the generator's).
			demo: () => {
				const drive = sim.fleet
					.assets()
					.find((a) => a.assetType === 'Drive' && a.level !== 'expired');
				if (drive) sim.control.raiseEvent(drive.id, { eventType: 'Fault' });
			},
		};
	}
	const budget = new RequestBudget(config.source.maxRequestsPerSecond, {
		maxConcurrency: Math.max(config.source.concurrency, 16),
		onSlowDown: (perSecond) =>
			logger.warn(
				`platform: answered 429 (too many requests); request budget lowered to ${perSecond.toFixed(1)}/s for a while`,
			),
	});
	const clients = createBudgetedPlatform(platformCredentials(env), logger, budget);
	let push: PushSettings[] = [];
	if (config.source.kind === 'push') {
		push =
			env.DRIVE_MONITORING_PUSH_URL && env.DRIVE_MONITORING_PUSH_USER
				? [
						{
							url: env.DRIVE_MONITORING_PUSH_URL,
							userName: env.DRIVE_MONITORING_PUSH_USER,
							password: env.DRIVE_MONITORING_PUSH_PASSWORD as string,
							topic: env.DRIVE_MONITORING_PUSH_TOPIC as string,
						},
					]
				: [];
		push.push(...configuredPushUsers(config, process.env, env.DRIVE_MONITORING_PUSH_URL));
		if (push.length === 0) {
			throw new ConfigError(
				'source.kind is push: set DRIVE_MONITORING_PUSH_URL, _USER, _PASSWORD and _TOPIC (the data-subscription user) or list source.pushUsers, or use source.kind: poll',
			);
		}
	}
	return {
		platform: clients.platform,
		commandPlatform: clients.commandPlatform,
		budget,
		push,
		close: () => clients.close(),
	};
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			config: { type: 'string' },
			help: { type: 'boolean' },
			'create-push-user': { type: 'string' },
			'ops-port': { type: 'string' },
			lenient: { type: 'boolean' },
		},
	});
	if (values.help) {
		process.stdout.write(`${USAGE}\n`);
		return;
	}
	const env = readEnv(process.env);
	const ops = opsSettingsFromEnv(
		values['ops-port'] === undefined
			? process.env
			: { ...process.env, DRIVE_BOT_OPS_PORT: values['ops-port'] },
	);
	let config = loadConfigFile(values.config ?? env.DRIVE_BOT_CONFIG);
	// PostgreSQL shared by replicas when DRIVE_BOT_DATABASE_URL is set; its password is a secret like the others.
	const database = databaseSettings(process.env);
	const logger = createLogger({
		level: env.LOG_LEVEL,
		secrets: [
			...secretsOf(env),
			...pushPasswords(config, process.env),
			...(database?.password ? [database.password] : []),
		],
	});
	const missing = missingNodeFlags(process.execArgv, process.env.NODE_OPTIONS);
	if (missing.length > 0) {
		logger.info(
			`node runs without ${missing.join(' ')}: its young generation may grow to 128 MiB under polling; start the bot as npm start and the drive-monitoring-bot command do (node ${missing.join(' ')} dist/bot/cli.js)`,
		);
	}
	const embedded = env.DRIVE_MONITORING_BASE_URL === undefined;
	const terminal = env.SLACK_BOT_TOKEN === undefined;
	// The simulator's fleet is new at every start, so its state must be too; a real platform's lasts.
	config = {
		...config,
		stateFile: env.DRIVE_BOT_STATE ?? (embedded ? ':memory:' : config.stateFile),
	};
	if (embedded && values.config === undefined && env.DRIVE_BOT_CONFIG === undefined) {
		config = { ...config, alerts: { ...config.alerts, minSeverity: 'Warning' } };
	}
	if (values['create-push-user'] !== undefined) {
		// One-off set-up against a real platform: prints the user to put in the environment.
		if (embedded)
			throw new ConfigError(
				'--create-push-user needs the platform credentials (DRIVE_MONITORING_BASE_URL, ...)',
			);
		if (config.source.pushUsers.length > 0) {
			// One user per configured organization (B49); prints what to put in the config and environment.
			process.stdout.write(
				await createPushUsers(
					config,
					process.env,
					platformCredentials(env),
					values['create-push-user'],
					logger,
				),
			);
			return;
		}
		const user = await ensurePushUser(
			createPlatformClient(platformCredentials(env), logger),
			values['create-push-user'],
			'drive-bot',
			config.cbm.enabled,
		);
		process.stdout.write(
			`DRIVE_MONITORING_PUSH_URL=${user.url}\nDRIVE_MONITORING_PUSH_USER=${user.userName}\nDRIVE_MONITORING_PUSH_PASSWORD=${user.password}\nDRIVE_MONITORING_PUSH_TOPIC=${user.topic}\n`,
		);
		return;
	}

	const setup = await setUpPlatform(env, config, logger);
	const write = (text: string) => process.stdout.write(text);
	const slackClient = terminal
		? undefined
		: createNotifierClient(env.SLACK_BOT_TOKEN as string, env.SLACK_API_URL);
	const notifier: Notifier = slackClient
		? new SlackNotifier(slackClient, config.timeZone)
		: new TerminalNotifier(write, config.timeZone, config.command);
	// Reports and charts: uploaded to Slack, or saved in a folder the terminal names.
	const publisher = terminal
		? new TerminalPublisher(write, mkdtempSync(path.join(tmpdir(), 'drive-bot-files-')))
		: new SlackPublisher(createPublisherClient(env.SLACK_BOT_TOKEN as string, env.SLACK_API_URL));
	const bot = await startBot({
		config,
		platform: setup.platform,
		commandPlatform: setup.commandPlatform,
		budget: setup.budget,
		notifier,
		logger,
		push: setup.push,
		publisher,
		now: setup.now,
		lenient: values.lenient,
		database,
		leadershipTimings: leaderTimingsOf(env),
	}).catch(async (error: unknown) => {
		await setup.close();
		throw error;
	});

	let stopping = false;
	let stopSlack: (() => Promise<void>) | undefined;
	let opsServer: OpsServer | undefined;
	const shutdown = async (code: number) => {
		if (stopping) return;
		stopping = true;
		logger.debug('bot: stopping');
		await opsServer?.close().catch(() => undefined);
		await stopSlack?.().catch(() => undefined);
		await bot.stop();
		logger.debug('bot: alerts stopped');
		await setup.close();
		logger.debug('bot: platform closed');
		// Everything of ours is closed; a library's idle timer (rhea's) must not keep a CLI alive.
		process.exit(code);
	};
	process.once('SIGINT', () => void shutdown(0));
	process.once('SIGTERM', () => void shutdown(0));

	if (terminal) {
		write(
			`Drive Monitoring bot, terminal mode${embedded ? ' on the embedded simulator' : ''}: alerts print here as they happen.\n`,
		);
		startRepl({
			commands: bot.commands,
			command: config.command,
			timeZone: config.timeZone,
			input: process.stdin,
			write,
			onClose: () => void shutdown(0),
		});
	} else {
		const mode = env.SLACK_APP_TOKEN
			? ({ kind: 'socket', appToken: env.SLACK_APP_TOKEN } as const)
			: ({ kind: 'http', signingSecret: env.SLACK_SIGNING_SECRET as string } as const);
		const app = createSlackApp({
			botToken: env.SLACK_BOT_TOKEN as string,
			mode,
			slackApiUrl: env.SLACK_API_URL,
			commands: bot.commands,
			home: bot.home,
			config,
			logger,
			oncall: bot.oncall,
			alerts: bot.state.alerts,
			database: bot.database,
			reports: bot.reports,
			directory: bot.directory,
		});
		await (mode.kind === 'socket' ? app.start() : app.start(env.PORT ?? 3000));
		stopSlack = async () => {
			await app.stop();
		};
		logger.info(
			`slack: ${mode.kind === 'socket' ? 'Socket Mode connected' : `HTTP mode listening on ${env.PORT ?? 3000} at /slack/events`}, command ${config.command}`,
		);
	}
	bot.readiness.register(
		'platform',
		cached(async () => {
			await setup.platform.organization.getNodes();
			return { ok: true, detail: 'platform: token obtained and the API answers' };
		}),
	);
	bot.readiness.register(
		'slack',
		slackClient
			? cached(async () => {
					const auth = await slackClient.auth.test();
					return {
						ok: true,
						detail: `slack: authenticated as ${String(auth.user ?? auth.user_id)} in ${String(auth.team ?? auth.team_id)}`,
					};
				})
			: () => ({ ok: true, detail: 'slack: terminal mode, no Slack' }),
	);
	if (ops) {
		opsServer = await startOpsServer(ops, bot.readiness);
		logger.info(`ops: /healthz, /readyz and /metrics at ${opsServer.url}`);
	}
	if (setup.demo) setTimeout(setup.demo, 3000).unref();
}

/** `drive-monitoring-bot migrate …` is a one-off command; anything else starts the bot. */
function run(): Promise<void> {
	if (process.argv[2] !== 'migrate') return main();
	// Loaded only for the command: the running bot does not need it.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { migrateCommand } = require('./migrate') as typeof import('./migrate');
	return migrateCommand(process.argv.slice(3), process.env, (text) =>
		process.stdout.write(text),
	).then(() => process.exit(0));
}

run().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof ConfigError ? error.message : `drive bot: ${redact(errorText(error))}`}\n`,
	);
	// A start that failed half-way may have left connections open: the process must still end.
	process.exit(1);
});
