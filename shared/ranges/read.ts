import type { Logger } from '../core/logger';
import { callSignal } from '../timers/wait';
import type { RequestOptions } from '../endpoints/context';
import {
	DeadlineError,
	endpointRef,
	TransportError,
	ValidationError,
	type RangeProgress,
} from '../errors';
import type { EndpointId, Level } from '../spec';
import { ceilToSecond, DAY_MS, floorToSecond, formatUtc, type TimeInput } from '../time';
import { fetchWindows } from './fetch-windows';
import { checkHistory, HISTORY_MARGIN_MS, HISTORY_SKEW_MS } from './history';
import { wholeSeconds, windowsOf, type RangeKind, type Window } from './windows';

export interface RangeInput {
	assetId: number | string;
	startTime: TimeInput;
	endTime: TimeInput;
	/**
	 * The asset's subscription level: enables the history check before any request. `'auto'`
	 * reads it first from the asset's active subscription (E9, one more request).
	 */
	level?: Level | 'auto' | (string & {});
	/** When the range reaches past the level's history: false (default) refuses, true starts at the earliest allowed instant. */
	clip?: boolean;
	/** Windows in flight at once. Default: the client's concurrency. */
	concurrency?: number;
}

/** What ranged reads take from their client. */
export interface RangeSettings {
	concurrency: number;
	now: () => number;
	levelOf: (assetId: number, options?: RequestOptions) => Promise<Level | undefined>;
	logger?: Required<Pick<Logger, 'warn'>>;
	/** The whole read's deadline: the level lookup and every window's request count against it. */
	deadlineMs?: number;
	/** How a person gives a read more time (the deadline error's hint). */
	deadlineSetting?: string;
}

/** One ranged read: the endpoint it goes through, what it fetches, and its input (also validated). */
export interface RangeRead {
	endpoint: EndpointId;
	kind: RangeKind;
	input: RangeInput;
	parsed: { assetId: number; startTime: Date; endTime: Date };
}

const OPERATION: Record<RangeKind, string> = {
	events: 'Reading the events',
	trendSignal: 'Reading trend and signal data',
};

/**
 * One ranged read under one deadline: the level lookup and every window's request share the
 * caller's signal and the client's deadlineMs, so a read of many windows ends on time as a
 * whole. Past the deadline it fails with a DeadlineError saying how far it came.
 */
export async function readRange<T>(
	settings: RangeSettings,
	read: RangeRead,
	options: RequestOptions | undefined,
	fetch: (w: Window, signal: AbortSignal) => Promise<T>,
): Promise<T[]> {
	const started = Date.now();
	const call = callSignal([options?.signal], settings.deadlineMs);
	let windows: Window[] | undefined;
	const done: boolean[] = [];
	try {
		const planned = await planWindows(settings, read, call.signal);
		windows = planned.windows;
		return await fetchWindows(windows, planned.concurrency, call.signal, fetch, done);
	} catch (error) {
		// A failure the read's own deadline caused (not the caller's cancellation) says so.
		const byDeadline =
			call.deadlinePassed() &&
			!options?.signal?.aborted &&
			error instanceof TransportError &&
			!error.mayHaveSucceeded;
		throw byDeadline
			? new DeadlineError({
					operation: `${OPERATION[read.kind]} of asset ${read.parsed.assetId}`,
					deadlineMs: settings.deadlineMs!,
					elapsedMs: Date.now() - started,
					setting: settings.deadlineSetting,
					range: progressOf(read.parsed, windows, done),
					endpoint: endpointRef(read.endpoint),
					cause: error,
				})
			: error;
	} finally {
		call.clear();
	}
}

/** The windows to fetch, from a start checked against the asset's history range, and how many at once. */
async function planWindows(
	settings: RangeSettings,
	{ endpoint, kind, input, parsed }: RangeRead,
	signal: AbortSignal | undefined,
): Promise<{ windows: Window[]; concurrency: number }> {
	const ref = endpointRef(endpoint);
	const { start, end } = wholeSeconds(parsed.startTime, parsed.endTime);
	const level =
		input.level === 'auto' ? await settings.levelOf(parsed.assetId, { signal }) : input.level;
	// A start moved inside the history range is rounded further inside, never back out of it.
	const from = ceilToSecond(checkHistory(endpoint, kind, start, level, settings.now(), input.clip));
	// Moves within the skew tolerance are routine ("the last 365 days"); a real clip is worth a line.
	if (from.getTime() - start.getTime() > HISTORY_SKEW_MS + HISTORY_MARGIN_MS) {
		settings.logger?.warn(
			`${ref.id} range for asset ${parsed.assetId} starts at ${formatUtc(from)} instead of ${formatUtc(start)}: the history range of a ${String(level)} asset ends there`,
		);
	}
	const concurrency = input.concurrency ?? settings.concurrency;
	if (!Number.isInteger(concurrency) || concurrency < 1)
		throw new ValidationError({
			field: 'concurrency',
			value: input.concurrency,
			rule: 'must be a positive integer',
			endpoint: ref,
		});
	return { windows: windowsOf(kind, from, end), concurrency };
}

/** How far a ranged read came: windows read, the days they cover, the earliest one not read. */
function progressOf(
	parsed: { startTime: Date; endTime: Date },
	windows: Window[] | undefined,
	done: boolean[],
): RangeProgress {
	const range = {
		start: formatUtc(floorToSecond(parsed.startTime)),
		end: formatUtc(ceilToSecond(parsed.endTime)),
	};
	if (!windows) return { ...range, done: 0, total: 0, daysDone: 0 };
	let count = 0;
	let ms = 0;
	let pending: Window | undefined;
	windows.forEach((w, i) => {
		if (done[i]) {
			count++;
			ms += w.end.getTime() - w.start.getTime();
		} else pending ??= w;
	});
	return {
		...range,
		done: count,
		total: windows.length,
		daysDone: ms / DAY_MS,
		...(pending
			? { pending: { start: formatUtc(pending.start), end: formatUtc(pending.end) } }
			: {}),
	};
}
