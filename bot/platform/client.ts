import { createClient, type ApiCredentials, type DriveMonitoringClient } from '../../shared';
import { createUndiciTransport } from '../../shared/runtime/node';
import type { BotLogger } from '../log';
import { budgetedTransport, type Priority, type RequestBudget } from './budget';
import type { DrivePlatform } from './types';

export type PlatformCredentials = ApiCredentials & { baseUrl: string };

/** The core client the bot uses; its type check here is what keeps `DrivePlatform` honest. */
export function createPlatformClient(
	credentials: PlatformCredentials,
	logger: BotLogger,
	options: { concurrency?: number; budget?: { budget: RequestBudget; priority: Priority } } = {},
): DriveMonitoringClient & DrivePlatform {
	const transport = options.budget
		? budgetedTransport(
				createUndiciTransport({ connections: 64 }),
				options.budget.budget,
				options.budget.priority,
			)
		: undefined;
	const client = createClient({
		...credentials,
		// Under a budget, the budget decides how many requests are in flight (it adapts to latency).
		concurrency: options.budget ? 64 : options.concurrency,
		transport,
		// Slack users cannot change the client's deadline: a deadline error asks for less instead.
		deadlineSetting: false,
		logger: {
			debug: (m: string) => logger.debug(`platform: ${m}`),
			info: (m: string) => logger.debug(`platform: ${m}`),
			warn: (m: string) => logger.warn(`platform: ${m}`),
			error: (m: string) => logger.error(`platform: ${m}`),
		},
	});
	if (transport) {
		// The core leaves a transport it was given open: this one is ours to close.
		const closeClient = client.close;
		client.close = async () => {
			await closeClient();
			await transport.close?.();
		};
	}
	return client;
}

export interface BudgetedPlatform {
	/** Polling, the asset list and details. */
	platform: DriveMonitoringClient & DrivePlatform;
	/** `/drive` commands: the same budget, served first. */
	commandPlatform: DriveMonitoringClient & DrivePlatform;
	close(): Promise<void>;
}

/** Two clients of one credential spending from one budget (B46), commands before polling. */
export function createBudgetedPlatform(
	credentials: PlatformCredentials,
	logger: BotLogger,
	budget: RequestBudget,
): BudgetedPlatform {
	const platform = createPlatformClient(credentials, logger, {
		budget: { budget, priority: 'poll' },
	});
	const commandPlatform = createPlatformClient(credentials, logger, {
		budget: { budget, priority: 'command' },
	});
	return {
		platform,
		commandPlatform,
		async close() {
			await Promise.all([platform.close(), commandPlatform.close()]);
		},
	};
}
