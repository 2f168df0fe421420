/* eslint-disable @n8n/community-nodes/require-node-api-error -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { PushReceiver } from '../../../shared/push';
import type { BotConfig } from '../../config/schema';
import type { PushSettings } from '../../config/push-settings';
import type { AlertEngine } from '../../features/alerts/engine';
import type { AlertState } from '../../features/alerts/state';
import type { ConnectivityTracker } from '../../features/connectivity/tracker';
import type { ReportService } from '../../features/reports/service';
import type { SourceStatus } from '../../kernel/source-status';
import type { BotLogger } from '../../log';
import type { RequestBudget } from '../../platform/budget';
import type { AssetDirectory } from '../../platform/directory';
import type { DrivePlatform } from '../../platform/types';
import { type ConnectivityPoll, startConnectivityPoll } from './connectivity-poll';
import { type PollSource, startPollSource } from './poll';
import { startPushUsers } from './push-users';

export interface SourceDeps {
	config: BotConfig;
	logger: BotLogger;
	engine: AlertEngine;
	platform: DrivePlatform;
	directory: AssetDirectory;
	state: AlertState;
	connectivity?: ConnectivityTracker;
	reports?: ReportService;
	budget?: RequestBudget;
	now: () => number;
	/** One data-subscription user per receiver when `source.kind` is `push`. */
	push: readonly PushSettings[];
	/** Says in Slack (once per episode) that alerts are late. */
	late(text: string): void;
	/** Whether this replica still leads: a push receiver reconnects only then. */
	mayReconnect(): boolean;
}

/** The platform sources of a leader: push receivers, or REST polling of faults and connectivity. */
export interface Sources {
	poll?: PollSource;
	push: Array<{ receiver: PushReceiver; topic: string }>;
	connectivityPoll?: ConnectivityPoll;
	status(): SourceStatus[];
	/** Closes every platform connection at once: pushed messages not acknowledged go back to the broker. */
	close(): Promise<void>;
}

/** Starts the sources `source.kind` names; one that fails to start leaves nothing running. */
export async function startSources(deps: SourceDeps): Promise<Sources> {
	const started: PushReceiver[] = [];
	let poll: PollSource | undefined;
	let connectivityPoll: ConnectivityPoll | undefined;
	const close = async () => {
		await Promise.allSettled(started.map((r) => r.close()));
		await poll?.close();
		await connectivityPoll?.close();
	};
	try {
		if (deps.config.source.kind === 'push') {
			const users = await startPushUsers({ ...deps, users: deps.push }, started);
			return { push: users.receivers, status: () => [users.status()], close };
		}
		// Connectivity's E8 reads take their share of the budget first; fault polling plans on the rest (B70).
		if (deps.connectivity)
			connectivityPoll = startConnectivityPoll({ ...deps, tracker: deps.connectivity });
		const reads = connectivityPoll;
		const polling = await startPollSource({
			...deps,
			notify: deps.late,
			alongside: reads && (() => ({ perSecond: reads.pace().perSecond, text: reads.describe() })),
		});
		poll = polling;
		return { poll, push: [], connectivityPoll, status: () => [polling.status()], close };
	} catch (error) {
		await close();
		throw error;
	}
}
