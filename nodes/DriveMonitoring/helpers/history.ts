import type { IExecuteFunctions } from 'n8n-workflow';
import type { Level } from '../../../shared/spec';
import { LEVELS, LEVEL_FEATURES } from '../../../shared/spec';
import { toLevel } from '../../../shared/levels';
import { checkHistory } from '../../../shared/ranges';
import type { DriveMonitoringClient } from '../transport';
import { CREDENTIAL_TYPE } from '../transport';

const DAY_MS = 24 * 60 * 60 * 1000;
const SHORTEST_HISTORY_DAYS = Math.min(...LEVELS.map((l) => LEVEL_FEATURES[l].eventHistoryDays));
/** How long a level read is reused across executions (as the core client keeps it within one). */
export const LEVEL_REUSE_MS = 5 * 60_000;
const LEVELS_KEPT = 1000;

/** Levels read lately, by credential and asset, shared by the executions of this n8n process. */
const recentLevels = new Map<string, { at: number; level: Level | undefined }>();

type RangeKind = 'events' | 'trendSignal';

/**
 * The asset's level, read (E9) only when the range starts further back than every level keeps:
 * with it the core refuses a range that reaches past the asset's history with a clear message
 * before any data request, instead of the platform's bare 102403.
 *
 * A level read in the last 5 minutes with the same credential is reused when the range fits
 * inside it (assumption H3): a workflow run again and again then pays no extra round trip. A
 * reused level never refuses on its own: when the range does not fit it, the level is read again
 * (it may have been raised since), so only a fresh answer refuses.
 */
export async function levelForHistoryCheck(
	this: IExecuteFunctions,
	client: DriveMonitoringClient,
	assetId: number,
	startTime: Date,
	kind: RangeKind,
): Promise<Level | undefined> {
	if (startTime.getTime() >= Date.now() - SHORTEST_HISTORY_DAYS * DAY_MS) return undefined;
	const credentialId = this.getNode().credentials?.[CREDENTIAL_TYPE]?.id;
	const key = credentialId ? `${credentialId}|${assetId}` : undefined;
	const recent = key ? recentLevels.get(key) : undefined;
	if (recent && Date.now() - recent.at < LEVEL_REUSE_MS && fits(kind, startTime, recent.level))
		return recent.level;
	const subscriptions = await client.assets.listSubscriptions({ assetId });
	const level = toLevel(subscriptions.find((s) => s.status === 'Activated')?.level);
	if (key) {
		if (recentLevels.size >= LEVELS_KEPT) recentLevels.clear();
		recentLevels.set(key, { at: Date.now(), level });
	}
	return level;
}

function fits(kind: RangeKind, startTime: Date, level: Level | undefined): boolean {
	try {
		checkHistory(kind === 'events' ? 'E14' : 'E17', kind, startTime, level, Date.now());
		return true;
	} catch {
		return false;
	}
}
