import { LIMITS } from '../spec';
import { ceilToSecond, DAY_MS, floorToSecond } from '../time';

export interface Window {
	start: Date;
	end: Date;
}

/** What a ranged read fetches: events (E14) or trend and signal series (E17). */
export type RangeKind = 'events' | 'trendSignal';

/**
 * Split [start, end) into consecutive windows of at most `windowMs`. When `minLastMs` is given
 * and the last window would be shorter, it starts earlier (overlapping the previous one) so
 * that every window returns the same granularity (E17: over one hour means 5-minute aggregates).
 */
export function splitWindows(
	start: Date,
	end: Date,
	windowMs: number,
	minLastMs?: number,
): Window[] {
	const windows: Window[] = [];
	for (let from = start.getTime(); from < end.getTime(); from += windowMs) {
		windows.push({
			start: new Date(from),
			end: new Date(Math.min(from + windowMs, end.getTime())),
		});
	}
	const last = windows[windows.length - 1];
	if (
		minLastMs !== undefined &&
		windows.length > 1 &&
		last.end.getTime() - last.start.getTime() <= minLastMs
	) {
		last.start = new Date(Math.max(start.getTime(), last.end.getTime() - minLastMs - 60_000));
	}
	return windows;
}

/** Whole-second bounds: the wire carries seconds, so windows meet exactly and the end's own second is in. */
export function wholeSeconds(start: Date, end: Date): { start: Date; end: Date } {
	return { start: floorToSecond(start), end: ceilToSecond(end) };
}

/** The windows the API serves whole: 7 days of events; 30 days of series, each aggregated alike. */
export function windowsOf(kind: RangeKind, start: Date, end: Date): Window[] {
	return kind === 'events'
		? splitWindows(start, end, LIMITS.eventWindowDays * DAY_MS)
		: splitWindows(
				start,
				end,
				LIMITS.trendSignalWindowDays * DAY_MS,
				LIMITS.rawDataMaxMinutes * 60_000,
			);
}
