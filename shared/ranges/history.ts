import { endpointRef, ValidationError } from '../errors';
import { historyDays, toLevel } from '../levels';
import { LEVELS, type EndpointId, type Level } from '../spec';
import { DAY_MS, formatUtc } from '../time';
import type { RangeKind } from './windows';

/**
 * A start this close to the history limit is moved inside it instead of refused: "the last 365
 * days" computed a moment ago is already a few milliseconds too long by the time it arrives.
 */
export const HISTORY_SKEW_MS = 60 * 60_000;
/** Margin kept inside the limit, so that the first window is still inside when the platform reads it. */
export const HISTORY_MARGIN_MS = 60_000;

/** Refuse (or clip) a range that reaches before the level's history range. Returns the start to use. */
export function checkHistory(
	endpoint: EndpointId,
	kind: RangeKind,
	start: Date,
	levelInput: unknown,
	now: number,
	clip = false,
): Date {
	if (levelInput === undefined || levelInput === null) return start;
	const level = toLevel(levelInput);
	if (!level)
		throw new ValidationError({
			field: 'level',
			value: levelInput,
			rule: `must be one of ${LEVELS.join(', ')}`,
			endpoint: endpointRef(endpoint),
		});
	const days = historyDays(level, kind);
	const earliest = new Date(now - days * DAY_MS);
	const safeStart = new Date(earliest.getTime() + HISTORY_MARGIN_MS);
	if (start.getTime() >= safeStart.getTime()) return start;
	if (clip || earliest.getTime() - start.getTime() <= HISTORY_SKEW_MS) return safeStart;
	const what = kind === 'events' ? 'Event history' : 'Trend and signal history';
	throw new ValidationError({
		field: 'startTime',
		value: start,
		endpoint: endpointRef(endpoint),
		rule: `reaches before the history range of a ${level} asset: ${what} goes back ${days} days, to ${formatUtc(earliest)}${
			days < 365 ? '; Standard or Premium keep 365 days' : ''
		}. Start later, or pass clip: true to fetch from ${formatUtc(safeStart)}`,
	});
}

/**
 * The level an asset stands at, from its subscriptions (E9): the best Activated one; Entry when
 * it never had one (S4); undefined when all ended (the platform then answers 102205 itself).
 */
export function levelOfSubscriptions(
	subscriptions: ReadonlyArray<{ level: string; status: string }>,
): Level | undefined {
	if (subscriptions.length === 0) return 'Entry';
	const active = subscriptions
		.filter((s) => s.status === 'Activated')
		.map((s) => toLevel(s.level))
		.filter((l): l is Level => l !== undefined);
	return active.sort((a, b) => LEVELS.indexOf(b) - LEVELS.indexOf(a))[0];
}
