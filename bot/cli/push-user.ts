/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { BotEnv } from '../config/env';
import { ConfigError } from '../config/load';
import type { BotConfig } from '../config/schema';
import type { BotLogger } from '../log';
import { createPlatformClient } from '../platform/client';
import { createPushUsers, ensurePushUser } from '../platform/push-user';
import { platformCredentials } from './platform';

/**
 * `--create-push-user <broker url>`: the one-off set-up against a real platform. Prints the data-subscription
 * user(s) to put in the environment: one per configured organization (B49), else one.
 */
export async function createPushUserCommand(
	env: BotEnv,
	config: BotConfig,
	logger: BotLogger,
	brokerUrl: string,
): Promise<string> {
	if (env.DRIVE_MONITORING_BASE_URL === undefined)
		throw new ConfigError(
			'--create-push-user needs the platform credentials (DRIVE_MONITORING_BASE_URL, ...)',
		);
	if (config.source.pushUsers.length > 0)
		return createPushUsers(config, process.env, platformCredentials(env), brokerUrl, logger);
	const user = await ensurePushUser(
		createPlatformClient(platformCredentials(env), logger),
		brokerUrl,
		'drive-bot',
		config.cbm.enabled,
	);
	return `DRIVE_MONITORING_PUSH_URL=${user.url}\nDRIVE_MONITORING_PUSH_USER=${user.userName}\nDRIVE_MONITORING_PUSH_PASSWORD=${user.password}\nDRIVE_MONITORING_PUSH_TOPIC=${user.topic}\n`;
}
