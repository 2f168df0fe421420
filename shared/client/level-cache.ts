import { raceAbort } from '../timers/wait';
import { levelOfSubscriptions } from '../ranges/history';
import type { Level } from '../spec';

/** How long an asset's level read for a 102403 explanation (or `level: 'auto'`) is reused. */
const LEVEL_CACHE_MS = 5 * 60_000;
const LEVEL_CACHE_SIZE = 1000;

/**
 * An asset's level, read with one E9 call per asset and few minutes, shared by `level: 'auto'`
 * and 102403 explanations.
 */
export function levelCache(
	listSubscriptions: (assetId: number) => Promise<ReadonlyArray<{ level: string; status: string }>>,
): (assetId: number, signal?: AbortSignal) => Promise<Level | undefined> {
	const levels = new Map<number, { at: number; level: Promise<Level | undefined> }>();
	return (assetId, signal) => {
		const now = Date.now();
		const cached = levels.get(assetId);
		if (cached && now - cached.at < LEVEL_CACHE_MS) return raceAbort(cached.level, signal);
		if (levels.size >= LEVEL_CACHE_SIZE) levels.delete(levels.keys().next().value!);
		// Shared by every caller: no caller's signal ends it for the others (each leaves on its own
		// signal); the lookup itself is bounded by the client's deadline like every call.
		const level = listSubscriptions(assetId).then(levelOfSubscriptions);
		level.catch(() => levels.delete(assetId));
		levels.set(assetId, { at: now, level });
		return raceAbort(level, signal);
	};
}
