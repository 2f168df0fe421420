/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { webApi } from '@slack/bolt';
import type { Bot } from '../app/start';
import type { BotEnv } from '../config/env';
import type { BotConfig } from '../config/schema';
import type { Notifier } from '../kernel/notice';
import type { Publisher } from '../kernel/publisher';
import type { BotLogger } from '../log';
import { cached } from '../ops/readiness';
import { createSlackApp } from '../slack/app';
import { createNotifierClient, SlackNotifier } from '../slack/notifier';
import { createPublisherClient, SlackPublisher } from '../slack/publisher';
import { TerminalNotifier } from '../terminal/notifier';
import { TerminalPublisher } from '../terminal/publisher';
import { startRepl } from '../terminal/repl';
import type { PlatformSetup } from './platform';

/** Where the bot's words go: Slack with its tokens, else this terminal. */
export interface FrontDelivery {
	notifier: Notifier;
	/** Reports and charts: uploaded to Slack, or saved in a folder the terminal names. */
	publisher: Publisher;
	/** The Web API client of the notifier, in Slack mode. */
	slackClient?: webApi.WebClient;
}

export function frontDelivery(
	env: BotEnv,
	config: BotConfig,
	write: (text: string) => void,
): FrontDelivery {
	if (env.SLACK_BOT_TOKEN === undefined)
		return {
			notifier: new TerminalNotifier(write, config.timeZone, config.command),
			publisher: new TerminalPublisher(write, mkdtempSync(path.join(tmpdir(), 'drive-bot-files-'))),
		};
	const slackClient = createNotifierClient(env.SLACK_BOT_TOKEN, env.SLACK_API_URL);
	return {
		notifier: new SlackNotifier(slackClient, config.timeZone),
		publisher: new SlackPublisher(createPublisherClient(env.SLACK_BOT_TOKEN, env.SLACK_API_URL)),
		slackClient,
	};
}

/**
 * The bot's front: the REPL in terminal mode, or the Bolt app (Socket Mode with SLACK_APP_TOKEN, else HTTP).
 * Resolves with how to stop it, once it listens.
 */
export async function startFront(
	bot: Bot,
	front: { env: BotEnv; config: BotConfig; logger: BotLogger; embedded: boolean },
	write: (text: string) => void,
	onClose: () => void,
): Promise<() => Promise<void>> {
	const { env, config, logger } = front;
	if (env.SLACK_BOT_TOKEN === undefined) {
		write(
			`Drive Monitoring bot, terminal mode${front.embedded ? ' on the embedded simulator' : ''}: alerts print here as they happen.\n`,
		);
		startRepl({
			commands: bot.commands,
			command: config.command,
			timeZone: config.timeZone,
			input: process.stdin,
			write,
			onClose,
		});
		return async () => undefined;
	}
	const mode = env.SLACK_APP_TOKEN
		? ({ kind: 'socket', appToken: env.SLACK_APP_TOKEN } as const)
		: ({ kind: 'http', signingSecret: env.SLACK_SIGNING_SECRET as string } as const);
	const app = createSlackApp({
		botToken: env.SLACK_BOT_TOKEN,
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
	logger.info(
		`slack: ${mode.kind === 'socket' ? 'Socket Mode connected' : `HTTP mode listening on ${env.PORT ?? 3000} at /slack/events`}, command ${config.command}`,
	);
	return async () => {
		await app.stop();
	};
}

/** /readyz's checks of what the front depends on: the platform answers, and Slack takes the bot's token. */
export function registerFrontChecks(
	bot: Bot,
	setup: PlatformSetup,
	slackClient: webApi.WebClient | undefined,
): void {
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
}
