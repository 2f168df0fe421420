/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { DatabaseSettings } from '../../bot/state/database-url';
import type { LeadershipTimings } from '../../bot/cluster/leadership';
import { databaseFor } from './store-under-test';
import type { App } from '@slack/bolt';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../../bot/config/load';
import type { StepLimits } from '../../bot/listeners/functions/run';
import type { BotLogger } from '../../bot/log';
import { createPlatformClient } from '../../bot/platform/client';
import { ensurePushUser } from '../../bot/platform/push-user';
import { type Bot, startBot } from '../../bot/app/start';
import { createPublisherClient, SlackPublisher } from '../../bot/slack/publisher';
import { createSlackApp } from '../../bot/slack/app';
import { createNotifierClient, SlackNotifier } from '../../bot/slack/notifier';
import type { Simulator } from '../../simulator';
import { SlackApiServer, type StoredMessage } from './slack-server';
import type { PushSettings } from '../../bot/config/push-settings';

export type SimAsset = ReturnType<Simulator['fleet']['assets']>[number];

export function credentialsOf(sim: Simulator, orgType: 'VENDOR' | 'EU', orgId?: number) {
	const { info } = sim;
	const credential = info.credentials.find(
		(c) => c.orgType === orgType && (orgId === undefined || c.orgId === orgId),
	);
	if (!credential)
		throw new Error(`no ${orgType} credential${orgId ? ` for org ${orgId}` : ''} in the simulator`);
	return {
		baseUrl: info.baseUrl,
		authUrl: info.authUrl,
		tenantId: info.tenantId,
		apiScopeId: info.apiScopeId,
		apiKey: credential.apiKey,
		apiSecret: credential.apiSecret,
	};
}

/** A data-subscription user of one end-user organization on the simulator's AMQP broker. */
export async function pushUserFor(
	sim: Simulator,
	orgId: number,
	logger: BotLogger,
): Promise<PushSettings> {
	const url = sim.info.pushUrls.amqp;
	if (!url) throw new Error('the simulator has no AMQP push URL');
	return ensurePushUser(
		createPlatformClient(credentialsOf(sim, 'EU', orgId), logger),
		url,
		`bot-test-${orgId}`,
		true,
	);
}

export interface BotUnderTest {
	sim: Simulator;
	slackApiUrl: string;
	botToken: string;
	stateFile: string;
	logger: BotLogger;
	config?: Record<string, unknown>;
	push?: PushSettings;
	/** Platform credentials: an EU organization's for push, the operator's otherwise. */
	orgId?: number;
	digestIntervalMs?: number;
	/** The bot's clock for connectivity and report schedules (e.g. the simulator's). */
	now?: () => number;
	/** Warn about routes to unknown names instead of refusing to start (`--lenient`). */
	lenient?: boolean;
	/** This PostgreSQL instead of the store the run is about. */
	database?: DatabaseSettings;
	/** Replicas' lease timings (shorter in tests than in production). */
	leadershipTimings?: Partial<LeadershipTimings>;
}

/** The whole bot as `npm start` assembles it with Slack tokens, its Web API at the local server. */
export async function startTestBot(options: BotUnderTest): Promise<Bot> {
	const config = parseConfig({
		...options.config,
		source: {
			kind: options.push ? 'push' : 'poll',
			pollIntervalSeconds: 3600,
			...(options.config?.source as object | undefined),
		},
		stateFile: options.stateFile,
	});
	const credentials =
		options.orgId === undefined
			? credentialsOf(options.sim, 'VENDOR')
			: credentialsOf(options.sim, 'EU', options.orgId);
	return startBot({
		config,
		platform: createPlatformClient(credentials, options.logger),
		notifier: new SlackNotifier(
			createNotifierClient(options.botToken, options.slackApiUrl),
			config.timeZone,
		),
		logger: options.logger,
		push: options.push ? [options.push] : undefined,
		digestIntervalMs: options.digestIntervalMs,
		now: options.now,
		publisher: new SlackPublisher(createPublisherClient(options.botToken, options.slackApiUrl)),
		lenient: options.lenient,
		database: options.database ?? (await databaseFor(options.stateFile)),
		leadershipTimings: options.leadershipTimings,
	});
}

/** The bot and its Bolt app in HTTP mode (signed requests), as `npm start` wires them with Slack tokens. */
export async function startBotWithApp(
	options: BotUnderTest & { signingSecret: string; stepLimits?: Partial<StepLimits> },
): Promise<{ bot: Bot; app: App; url: string }> {
	const bot = await startTestBot(options);
	const { app, url } = await startAppFor(bot, options);
	return { bot, app, url };
}

/** A Bolt app in HTTP mode in front of a running bot, as `npm start` wires it (steps included). */
export async function startAppFor(
	bot: Bot,
	options: Pick<BotUnderTest, 'botToken' | 'slackApiUrl' | 'logger' | 'config'> & {
		signingSecret: string;
		stepLimits?: Partial<StepLimits>;
	},
): Promise<{ app: App; url: string }> {
	const config = parseConfig(options.config ?? {});
	const app = createSlackApp({
		botToken: options.botToken,
		mode: { kind: 'http', signingSecret: options.signingSecret },
		slackApiUrl: options.slackApiUrl,
		commands: bot.commands,
		config,
		logger: options.logger,
		oncall: bot.oncall,
		alerts: bot.state.alerts,
		database: bot.database,
		reports: bot.reports,
		directory: bot.directory,
		stepLimits: options.stepLimits,
	});
	const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
	return { app, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events` };
}

/** A drive whose level allows CBM, so CBM changes are visible to the bot. */
export function cbmDrive(sim: Simulator): SimAsset {
	const drive = sim.fleet
		.assets()
		.find(
			(a) =>
				a.assetType === 'Drive' &&
				a.cbmCapable &&
				(a.level === 'Standard' || a.level === 'Premium'),
		);
	if (!drive) throw new Error('the simulated fleet has no CBM-capable Standard or Premium drive');
	return drive;
}

/** Top-level messages (not thread replies) that name an event. */
export function topMessagesOf(slack: SlackApiServer, eventId: unknown): StoredMessage[] {
	return slack
		.posts()
		.filter((m) => !m.threadTs && JSON.stringify(m.blocks).includes(`event ${String(eventId)}`));
}

/** What a describe block of an end-to-end test runs against; `bot` is whichever it started last. */
export interface Fixture {
	sim: Simulator;
	slack: SlackApiServer;
	bot?: Bot;
	state: { file: string; cleanup(): void };
	logger: BotLogger;
	lines: string[];
}

/** Stops what a test file started, in order, whatever of it did start. */
export async function shutdown(parts: {
	bot?: Bot;
	slack?: SlackApiServer;
	sim?: Simulator;
	state?: { cleanup(): void };
}): Promise<void> {
	await parts.bot?.stop();
	await parts.slack?.close();
	await parts.sim?.close();
	parts.state?.cleanup();
}
