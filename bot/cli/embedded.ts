import type { Simulator } from '../../simulator';
import { ConfigError } from '../config/load';
import type { BotLogger } from '../log';
import { createPlatformClient } from '../platform/client';
import { ensurePushUser } from '../platform/push-user';
import type { DrivePlatform } from '../platform/types';
import type { PushSettings } from '../config/push-settings';

export interface EmbeddedPlatform {
	sim: Simulator;
	platform: DrivePlatform;
	/** One data-subscription user per end-user organization: pushed data is per organization. */
	push: PushSettings[];
}

/** The simulator's package name: in the bot's tarball, the simulator's folder is this optional peer (scripts/pack.js). */
export const SIMULATOR_PACKAGE = 'drive-monitoring-simulator';

/**
 * The simulator, loaded only when the demo starts: a production bot (platform credentials set)
 * never loads it, nor its MQTT broker, so the bot's package does not depend on it.
 */
function loadSimulator(): typeof import('../../simulator') {
	let failure: unknown;
	try {
		// A CommonJS require, not import(): synchronous, and one specifier that scripts/pack.js rewrites to the package's name.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		return require('../../simulator') as typeof import('../../simulator');
	} catch (error) {
		failure = error;
	}
	const code = (failure as { code?: unknown }).code;
	if (
		code === 'MODULE_NOT_FOUND' &&
		String((failure as Error).message).includes(`'${SIMULATOR_PACKAGE}'`)
	) {
		throw new ConfigError(
			`Without DRIVE_MONITORING_BASE_URL the bot runs its demo on the embedded simulator, which is not installed. ` +
				`Install it beside the bot (npm install ${SIMULATOR_PACKAGE}, the same version as the bot), ` +
				`or set the platform credentials (DRIVE_MONITORING_BASE_URL, _AUTH_URL, _TENANT_ID, _API_KEY, _API_SECRET, _API_SCOPE_ID) to run against the platform.`,
		);
	}
	throw failure;
}

/**
 * The simulator in-process, as `npm start` uses it without platform credentials: the operator's
 * credential answers commands (it sees every asset), and each end-user organization gets a
 * data-subscription user so that its events are pushed.
 */
export async function startEmbeddedPlatform(options: {
	eventRatePerMinute: number;
	timeScale: number;
	cbm: boolean;
	logger: BotLogger;
	port?: number;
}): Promise<EmbeddedPlatform> {
	const { startSimulator } = loadSimulator();
	const sim = await startSimulator({
		eventRatePerMinute: options.eventRatePerMinute,
		timeScale: options.timeScale,
		port: options.port,
	});
	let ready = false;
	try {
		const { info } = sim;
		const base = {
			baseUrl: info.baseUrl,
			authUrl: info.authUrl,
			tenantId: info.tenantId,
			apiScopeId: info.apiScopeId,
		};
		const operator = info.credentials.find((c) => c.orgType === 'VENDOR') ?? info.credentials[0];
		const platform = createPlatformClient(
			{ ...base, apiKey: operator.apiKey, apiSecret: operator.apiSecret },
			options.logger,
		);
		const url = info.pushUrls.amqp ?? info.pushUrls.mqtt ?? Object.values(info.pushUrls)[0];
		const push: PushSettings[] = [];
		if (url) {
			for (const eu of info.credentials.filter((c) => c.orgType === 'EU')) {
				const client = createPlatformClient(
					{ ...base, apiKey: eu.apiKey, apiSecret: eu.apiSecret },
					options.logger,
				);
				push.push(await ensurePushUser(client, url, `drive-bot-${eu.orgId}`, options.cbm));
			}
		}
		ready = true;
		return { sim, platform, push };
	} finally {
		if (!ready) await sim.close();
	}
}
