import type { DriveMonitoringClient } from '../../shared';
import { ConfigError } from '../config/load';
import type { BotConfig } from '../config/schema';
import { type BotLogger, errorText } from '../log';
import { createPlatformClient, type PlatformCredentials } from './client';
import type { PushSettings } from '../config/push-settings';

/**
 * The data-subscription user the bot receives with (E26 when the organization has none, then
 * E28 for events, CBM, asset states and reports). An existing user's password is masked (A8) and resetting it (E30)
 * would cut off whoever else uses it, so an existing user must be configured explicitly.
 */
export async function ensurePushUser(
	client: DriveMonitoringClient,
	url: string,
	topicName: string,
	cbm: boolean,
	// Connectivity (AssetState) and reports (AssetReport) use the other two types (assumption B32).
	extra: ReadonlyArray<'AssetState' | 'AssetReport'> = ['AssetState', 'AssetReport'],
): Promise<PushSettings> {
	const existing = await client.dataSubscription.getUsers();
	if (existing.length > 0) {
		throw new Error(
			`the organization already has a data-subscription user (${existing[0].userName ?? existing[0].id}); set DRIVE_MONITORING_PUSH_URL, _USER, _PASSWORD and _TOPIC to use it`,
		);
	}
	const user = await client.dataSubscription.createUser();
	const subscribed = await client.dataSubscription.setDataTypes({
		subCustomerId: user.id,
		topicName,
		subDataTypes: [...(cbm ? ['AssetEvent', 'AssetCBM'] : ['AssetEvent']), ...extra] as Array<
			'AssetEvent' | 'AssetState' | 'AssetReport' | 'AssetCBM'
		>,
	});
	if (!user.userName || !user.password)
		throw new Error('E26 answered without a user name or password');
	return {
		url,
		userName: user.userName,
		password: user.password,
		topic: subscribed.topic ?? topicName,
	};
}

/** Passwords of the configured push users, for the logger to redact. */
export function pushPasswords(config: BotConfig, env: NodeJS.ProcessEnv): string[] {
	return config.source.pushUsers
		.map((u) => env[u.passwordEnv]?.trim())
		.filter((p): p is string => !!p);
}

/**
 * The push users of `source.pushUsers` (B49), each password from its own environment variable.
 * Refuses, naming the entry and what to set, when one is incomplete.
 */
export function configuredPushUsers(
	config: BotConfig,
	env: NodeJS.ProcessEnv,
	defaultUrl: string | undefined,
): PushSettings[] {
	return config.source.pushUsers.map((entry) => {
		const url = entry.url ?? defaultUrl;
		const password = env[entry.passwordEnv]?.trim();
		const missing = [
			url ? '' : 'url (or DRIVE_MONITORING_PUSH_URL)',
			entry.userName ? '' : 'userName',
			entry.topic ? '' : 'topic',
			password ? '' : `the environment variable ${entry.passwordEnv}`,
		].filter(Boolean);
		if (missing.length > 0) {
			throw new ConfigError(
				`source.pushUsers "${entry.name}": set ${missing.join(', ')} (\`--create-push-user <broker url>\` creates the user and prints them)`,
			);
		}
		return {
			name: entry.name,
			url: url as string,
			userName: entry.userName as string,
			password: password as string,
			topic: entry.topic as string,
		};
	});
}

/**
 * `--create-push-user` with `source.pushUsers`: a user for every entry that has none yet, with that
 * organization's API credentials (`apiKeyEnv`/`apiSecretEnv`, default the main ones). Returns
 * what to add: the config lines and each password's environment line. An organization that
 * already has a user is reported, not changed (B8: its password is never reset).
 */
export async function createPushUsers(
	config: BotConfig,
	env: NodeJS.ProcessEnv,
	main: PlatformCredentials,
	url: string,
	logger: BotLogger,
): Promise<string> {
	const out: string[] = [];
	for (const entry of config.source.pushUsers) {
		if (entry.userName) {
			out.push(`# ${entry.name}: already configured (user ${entry.userName}); nothing created`);
			continue;
		}
		const apiKey = entry.apiKeyEnv ? env[entry.apiKeyEnv] : main.apiKey;
		const apiSecret = entry.apiSecretEnv ? env[entry.apiSecretEnv] : main.apiSecret;
		if (!apiKey || !apiSecret)
			throw new ConfigError(
				`source.pushUsers "${entry.name}": set ${entry.apiKeyEnv ?? ''} and ${entry.apiSecretEnv ?? ''} (the organization's API key and secret)`,
			);
		const client = createPlatformClient({ ...main, apiKey, apiSecret }, logger);
		try {
			const user = await ensurePushUser(
				client,
				url,
				`drive-bot-${entry.name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-')}`.slice(0, 100),
				config.cbm.enabled,
			);
			out.push(
				`# ${entry.name}: add to its source.pushUsers entry`,
				`#   url: ${user.url}`,
				`#   userName: ${user.userName}`,
				`#   topic: ${user.topic}`,
				`${entry.passwordEnv}=${user.password}`,
			);
		} catch (error) {
			out.push(`# ${entry.name}: not created (${errorText(error)})`);
		} finally {
			await client.close();
		}
	}
	return `${out.join('\n')}\n`;
}
