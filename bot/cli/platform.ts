/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { BotEnv } from '../config/env';
import { ConfigError } from '../config/load';
import type { PushSettings } from '../config/push-settings';
import type { BotConfig } from '../config/schema';
import type { BotLogger } from '../log';
import { RequestBudget } from '../platform/budget';
import { createBudgetedPlatform } from '../platform/client';
import { configuredPushUsers } from '../platform/push-user';
import type { DrivePlatform } from '../platform/types';
import { startEmbeddedPlatform } from './embedded';

/** The platform the bot runs against: the real one (with its request budget), or the embedded simulator. */
export interface PlatformSetup {
	platform: DrivePlatform;
	commandPlatform?: DrivePlatform;
	budget?: RequestBudget;
	push: PushSettings[];
	close(): Promise<void>;
	demo?: () => void;
	/** The platform's clock when it is the embedded simulator (it may run faster than real time). */
	now?: () => number;
}

export function platformCredentials(env: BotEnv) {
	return {
		baseUrl: env.DRIVE_MONITORING_BASE_URL as string,
		authUrl: env.DRIVE_MONITORING_AUTH_URL as string,
		tenantId: env.DRIVE_MONITORING_TENANT_ID as string,
		apiKey: env.DRIVE_MONITORING_API_KEY as string,
		apiSecret: env.DRIVE_MONITORING_API_SECRET as string,
		apiScopeId: env.DRIVE_MONITORING_API_SCOPE_ID as string,
	};
}

/** Without DRIVE_MONITORING_BASE_URL, the simulator in-process; else the platform, within the request budget. */
export async function setUpPlatform(
	env: BotEnv,
	config: BotConfig,
	logger: BotLogger,
): Promise<PlatformSetup> {
	if (env.DRIVE_MONITORING_BASE_URL === undefined) return setUpSimulator(env, config, logger);
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

async function setUpSimulator(
	env: BotEnv,
	config: BotConfig,
	logger: BotLogger,
): Promise<PlatformSetup> {
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
