import type { Level } from '../../../shared/spec';
import { LEVELS, LEVEL_FEATURES } from '../../../shared/spec';
import { toLevel } from '../../../shared/levels';
import type { DriveMonitoringClient } from '../transport';

const DAY_MS = 24 * 60 * 60 * 1000;
const SHORTEST_HISTORY_DAYS = Math.min(...LEVELS.map((l) => LEVEL_FEATURES[l].eventHistoryDays));

/**
 * The asset's level, read (E9) only when the range starts further back than every level keeps:
 * with it the core refuses a range that reaches past the asset's history with a clear message
 * before any data request, instead of the platform's bare 102403.
 */
export async function levelForHistoryCheck(
	client: DriveMonitoringClient,
	assetId: number,
	startTime: Date,
): Promise<Level | undefined> {
	if (startTime.getTime() >= Date.now() - SHORTEST_HISTORY_DAYS * DAY_MS) return undefined;
	const subscriptions = await client.assets.listSubscriptions({ assetId });
	return toLevel(subscriptions.find((s) => s.status === 'Activated')?.level);
}
