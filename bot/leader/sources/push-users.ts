import type { PushReceiver } from '../../../shared/push';
import type { BotConfig } from '../../config/schema';
import type { PushSettings } from '../../config/push-settings';
import type { AlertEngine } from '../../features/alerts/engine';
import type { ConnectivityTracker } from '../../features/connectivity/tracker';
import type { ReportService } from '../../features/reports/service';
import type { SourceStatus } from '../../kernel/source-status';
import type { BotLogger } from '../../log';
import { type PushExtras, PushMerge, startPushSource } from './push';

/** The push channel's receivers, one per data-subscription user, each with its user's topic. */
export interface PushUsers {
	receivers: Array<{ receiver: PushReceiver; topic: string }>;
	status(): SourceStatus;
}

/**
 * Alerts (and AssetState for connectivity, AssetReport for reports) pushed to every configured data-subscription
 * user, merged into one stream (B49). A receiver that fails to start leaves those started before it running: the
 * caller closes them.
 */
export async function startPushUsers(
	deps: {
		users: readonly PushSettings[];
		engine: AlertEngine;
		config: BotConfig;
		logger: BotLogger;
		connectivity?: ConnectivityTracker;
		reports?: ReportService;
		/** Warns (once per episode) that pushed data arrives late. */
		late(text: string): void;
		/** Whether a receiver may reconnect: only while this replica leads. */
		mayReconnect(): boolean;
	},
	started: PushReceiver[],
): Promise<PushUsers> {
	const { engine, config, logger, connectivity, reports } = deps;
	const extras: PushExtras = {
		dataTypes: [
			...(connectivity ? (['AssetState'] as const) : []),
			...(reports ? (['AssetReport'] as const) : []),
		],
		handle: async (message) => {
			if (message.dataType === 'AssetState' && connectivity) {
				await connectivity.observe(
					message.record.assetId ?? (message.assetId as number),
					message.record.online,
					message.record.time ?? message.time,
				);
			} else if (message.dataType === 'AssetReport' && reports) {
				await reports.onPushedReport(message.record);
			}
		},
	};
	const merge = new PushMerge({
		thresholdSeconds: config.source.lagWarningSeconds,
		late: (text) => {
			logger.warn(`push: ${text}`);
			deps.late(text);
		},
		caughtUp: (seconds) => logger.info(`push: caught up, lag ${seconds} s`),
	});
	const receivers: PushUsers['receivers'] = [];
	for (const settings of deps.users) {
		const receiver = await startPushSource(
			engine,
			settings,
			logger,
			config.cbm.enabled,
			extras,
			merge,
			deps.mayReconnect,
		);
		started.push(receiver);
		receivers.push({ receiver, topic: settings.topic });
	}
	const connected = new Set<PushReceiver>(started);
	for (const receiver of started) {
		receiver.on('connected', () => connected.add(receiver));
		receiver.on('disconnected', () => connected.delete(receiver));
		receiver.on('end', () => connected.delete(receiver));
	}
	return {
		receivers,
		status: () => ({
			kind: 'push',
			lagSeconds: merge.lagSeconds(),
			lagThresholdSeconds: config.source.lagWarningSeconds,
			receivers: { connected: connected.size, configured: started.length },
			merged: { handled: merge.handled, duplicates: merge.duplicates },
		}),
	};
}
