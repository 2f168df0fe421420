#!/usr/bin/env -S node --max-semi-space-size=8
/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// `npm start`: the bot. Without Slack tokens it runs in the terminal; without platform
// credentials it starts the simulator in-process. See the README's "Slack bot" section.
import '../shared/runtime/engines';
import { databaseSettings } from './state/database-url';
import { parseArgs } from 'node:util';
import '../shared/runtime/node';
import { startBot } from './app/start';
import { frontDelivery, registerFrontChecks, startFront } from './cli/front';
import { missingNodeFlags } from './cli/node-flags';
import { setUpPlatform } from './cli/platform';
import { createPushUserCommand } from './cli/push-user';
import { USAGE } from './cli/usage';
import { type BotEnv, leaderTimingsOf, readEnv, secretsOf } from './config/env';
import { ConfigError, loadConfigFile } from './config/load';
import type { BotConfig } from './config/schema';
import { type BotLogger, createLogger, errorText, redact } from './log';
import { type OpsServer, opsSettingsFromEnv, startOpsServer } from './ops/server';
import { pushPasswords } from './platform/push-user';
import type { DatabaseSettings } from './state/database-url';

/** What the environment, the command line and the configuration file say. */
interface Settings {
	env: BotEnv;
	ops: ReturnType<typeof opsSettingsFromEnv>;
	config: BotConfig;
	/** PostgreSQL shared by replicas when DRIVE_BOT_DATABASE_URL is set. */
	database: DatabaseSettings | undefined;
	logger: BotLogger;
	/** No platform credentials: the demo on the embedded simulator. */
	embedded: boolean;
	lenient: boolean;
}

function readSettings(values: {
	config?: string;
	'ops-port'?: string;
	lenient?: boolean;
}): Settings {
	const env = readEnv(process.env);
	const ops = opsSettingsFromEnv(
		values['ops-port'] === undefined
			? process.env
			: { ...process.env, DRIVE_BOT_OPS_PORT: values['ops-port'] },
	);
	let config = loadConfigFile(values.config ?? env.DRIVE_BOT_CONFIG);
	// The database's password is a secret like the others.
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
	// The simulator's fleet is new at every start, so its state must be too; a real platform's lasts.
	config = {
		...config,
		stateFile: env.DRIVE_BOT_STATE ?? (embedded ? ':memory:' : config.stateFile),
	};
	if (embedded && values.config === undefined && env.DRIVE_BOT_CONFIG === undefined) {
		config = { ...config, alerts: { ...config.alerts, minSeverity: 'Warning' } };
	}
	return { env, ops, config, database, logger, embedded, lenient: values.lenient === true };
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
	const settings = readSettings(values);
	if (values['create-push-user'] !== undefined) {
		const { env, config, logger } = settings;
		process.stdout.write(
			await createPushUserCommand(env, config, logger, values['create-push-user']),
		);
		return;
	}
	await runBot(settings);
}

/** The bot, its front (Slack or the terminal) and its operations endpoints, until SIGINT or SIGTERM. */
async function runBot(settings: Settings): Promise<void> {
	const { env, config, logger, database } = settings;
	const setup = await setUpPlatform(env, config, logger);
	const write = (text: string) => process.stdout.write(text);
	const front = frontDelivery(env, config, write);
	const bot = await startBot({
		config,
		platform: setup.platform,
		commandPlatform: setup.commandPlatform,
		budget: setup.budget,
		notifier: front.notifier,
		logger,
		push: setup.push,
		publisher: front.publisher,
		now: setup.now,
		lenient: settings.lenient,
		database,
		leadershipTimings: leaderTimingsOf(env),
	}).catch(async (error: unknown) => {
		await setup.close();
		throw error;
	});

	let stopping = false;
	let stopFront = async (): Promise<void> => undefined;
	let opsServer: OpsServer | undefined;
	const shutdown = async (code: number) => {
		if (stopping) return;
		stopping = true;
		logger.debug('bot: stopping');
		await opsServer?.close().catch(() => undefined);
		await stopFront().catch(() => undefined);
		await bot.stop();
		logger.debug('bot: alerts stopped');
		await setup.close();
		logger.debug('bot: platform closed');
		// Everything of ours is closed; a library's idle timer (rhea's) must not keep a CLI alive.
		process.exit(code);
	};
	process.once('SIGINT', () => void shutdown(0));
	process.once('SIGTERM', () => void shutdown(0));

	stopFront = await startFront(bot, settings, write, () => void shutdown(0));
	registerFrontChecks(bot, setup, front.slackClient);
	if (settings.ops) {
		opsServer = await startOpsServer(settings.ops, bot.readiness);
		logger.info(`ops: /healthz, /readyz and /metrics at ${opsServer.url}`);
	}
	if (setup.demo) setTimeout(setup.demo, 3000).unref();
}

/** `drive-monitoring-bot migrate …` is a one-off command; anything else starts the bot. */
function run(): Promise<void> {
	if (process.argv[2] !== 'migrate') return main();
	// Loaded only for the command: the running bot does not need it.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { migrateCommand } = require('./cli/migrate') as typeof import('./cli/migrate');
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
