// Long ranges: E14 silently cuts to 7 days and E17 to 30 days. These functions split any range
// into windows the API serves whole, fetch them with bounded concurrency, and merge them in
// order without duplicates. They know each level's history range and say when a range reaches
// past it instead of returning a silently short answer.
import {
	DeadlineError,
	endpointRef,
	TransportError,
	ValidationError,
	type RangeProgress,
} from './errors';
import type { RequestOptions } from './endpoints/context';
import type { assetDataEndpoints } from './endpoints/assetData';
import { historyDays, toLevel } from './levels';
import type { Event, ParamData, TrendSignalData } from './schemas/resources';
import { LEVELS, LIMITS, type EndpointId, type Level } from './spec';
import {
	ceilToSecond,
	DAY_MS,
	floorToSecond,
	formatUtc,
	parseInstant,
	type TimeInput,
} from './time';
import { callSignal, follow } from './core/wait';
import type { Logger } from './core/logger';
import { ListEventsInput, TrendSignalDataInput, validateInput } from './schemas/inputs';

export interface Window {
	start: Date;
	end: Date;
}

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

export interface TrendRangeInput extends RangeInput {
	parameters: string[];
}

type Kind = 'events' | 'trendSignal';

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
	kind: Kind,
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
 * Run `fn` over windows with at most `limit` in flight; the first failure cancels the rest.
 * `done[i]` turns true when window i is read (what a deadline error reports as read).
 */
async function fetchWindows<T>(
	windows: Window[],
	limit: number,
	signal: AbortSignal | undefined,
	fn: (w: Window, signal: AbortSignal) => Promise<T>,
	done: boolean[] = [],
): Promise<T[]> {
	// Controllers that follow one another, never AbortSignal.any(): Node keeps such a composite
	// alive while it has an abort listener, until it aborts (see follow in core/wait).
	const controller = new AbortController();
	const unfollowCaller = signal ? follow(signal, controller) : () => undefined;
	if (signal?.aborted) controller.abort(signal.reason);
	const results = new Array<T>(windows.length);
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async (): Promise<void> => {
		while (next < windows.length && !failure) {
			const index = next++;
			// A signal per window: listeners the transport adds to it do not pile up on one shared
			// signal (MaxListenersExceededWarning at 8 windows in flight).
			const own = new AbortController();
			const unfollow = follow(controller.signal, own);
			if (controller.signal.aborted) own.abort(controller.signal.reason);
			try {
				results[index] = await fn(windows[index], own.signal);
				done[index] = true;
			} catch (error) {
				failure ??= { error };
				controller.abort();
			} finally {
				unfollow();
			}
		}
	};
	try {
		await Promise.all(Array.from({ length: Math.min(limit, windows.length) }, worker));
	} finally {
		unfollowCaller();
	}
	if (failure) throw failure.error;
	return results;
}

/** Events of several windows: one list, ordered by time (then id), each id once. */
export function mergeEvents(batches: Event[][]): Event[] {
	const byId = new Map<number, Event>();
	for (const batch of batches)
		for (const event of batch) if (!byId.has(event.id)) byId.set(event.id, event);
	const time = (e: Event): number => (e.eventDateTime ? Date.parse(e.eventDateTime) : Number.NaN);
	return [...byId.values()].sort((a, b) => (time(a) || 0) - (time(b) || 0) || a.id - b.id);
}

const SERIES = ['avg', 'max', 'min', 'value'] as const;

/** Series of several windows: per parameter code, points in time order, each timestamp once. */
export function mergeTrendSignalData(batches: TrendSignalData[]): TrendSignalData {
	const merged = new Map<string, ParamData>();
	for (const batch of batches) {
		for (const data of batch.paramDatas) {
			const code = data.config.code;
			let target = merged.get(code);
			if (!target) {
				target = { ...data, avg: [], max: [], min: [], value: [], timestamp: [] };
				merged.set(code, target);
			}
			const last =
				target.timestamp.length > 0 ? target.timestamp[target.timestamp.length - 1] : -Infinity;
			data.timestamp.forEach((ts, i) => {
				if (ts <= last) return; // overlap between windows
				target.timestamp.push(ts);
				for (const series of SERIES)
					if (i < data[series].length) target[series].push(data[series][i]);
			});
		}
	}
	return { paramDatas: [...merged.values()] };
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

/** Whole-second bounds: the wire carries seconds, so windows meet exactly and the end's own second is in. */
function wholeSeconds(start: Date, end: Date): { start: Date; end: Date } {
	return { start: floorToSecond(start), end: ceilToSecond(end) };
}

/** The windows the API serves whole: 7 days of events; 30 days of series, each aggregated alike. */
function windowsOf(kind: Kind, start: Date, end: Date): Window[] {
	return kind === 'events'
		? splitWindows(start, end, LIMITS.eventWindowDays * DAY_MS)
		: splitWindows(
				start,
				end,
				LIMITS.trendSignalWindowDays * DAY_MS,
				LIMITS.rawDataMaxMinutes * 60_000,
			);
}

const OPERATION: Record<Kind, string> = {
	events: 'Reading the events',
	trendSignal: 'Reading trend and signal data',
};

export function rangesApi(
	assetData: ReturnType<typeof assetDataEndpoints>,
	settings: {
		concurrency: number;
		now: () => number;
		levelOf: (assetId: number, options?: RequestOptions) => Promise<Level | undefined>;
		logger?: Required<Pick<Logger, 'warn'>>;
		/** The whole read's deadline: the level lookup and every window's request count against it. */
		deadlineMs?: number;
		/** How a person gives a read more time (the deadline error's hint). */
		deadlineSetting?: string;
	},
) {
	const prepare = async (
		endpoint: EndpointId,
		kind: Kind,
		input: RangeInput,
		parsed: { assetId: number; startTime: Date; endTime: Date },
		signal: AbortSignal | undefined,
	): Promise<{ windows: Window[]; concurrency: number }> => {
		const ref = endpointRef(endpoint);
		const { start, end } = wholeSeconds(parsed.startTime, parsed.endTime);
		const level =
			input.level === 'auto' ? await settings.levelOf(parsed.assetId, { signal }) : input.level;
		// A start moved inside the history range is rounded further inside, never back out of it.
		const from = ceilToSecond(
			checkHistory(endpoint, kind, start, level, settings.now(), input.clip),
		);
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
	};

	/**
	 * One ranged read under one deadline: the level lookup and every window's request share the
	 * caller's signal and the client's deadlineMs, so a read of many windows ends on time as a
	 * whole. Past the deadline it fails with a DeadlineError saying how far it came.
	 */
	const read = async <T>(
		endpoint: EndpointId,
		kind: Kind,
		input: RangeInput,
		parsed: { assetId: number; startTime: Date; endTime: Date },
		options: RequestOptions | undefined,
		fetch: (w: Window, signal: AbortSignal) => Promise<T>,
	): Promise<T[]> => {
		const started = Date.now();
		const call = callSignal([options?.signal], settings.deadlineMs);
		let windows: Window[] | undefined;
		const done: boolean[] = [];
		try {
			const prepared = await prepare(endpoint, kind, input, parsed, call.signal);
			windows = prepared.windows;
			return await fetchWindows(windows, prepared.concurrency, call.signal, fetch, done);
		} catch (error) {
			// A failure the read's own deadline caused (not the caller's cancellation) says so.
			const byDeadline =
				call.deadlinePassed() &&
				!options?.signal?.aborted &&
				error instanceof TransportError &&
				!error.mayHaveSucceeded;
			throw byDeadline
				? new DeadlineError({
						operation: `${OPERATION[kind]} of asset ${parsed.assetId}`,
						deadlineMs: settings.deadlineMs!,
						elapsedMs: Date.now() - started,
						setting: settings.deadlineSetting,
						range: progressOf(parsed, windows, done),
						endpoint: endpointRef(endpoint),
						cause: error,
					})
				: error;
		} finally {
			call.clear();
		}
	};

	return {
		/** E14 over any range: 7-day windows, bounded concurrency, merged by time, each event once. */
		async events(input: RangeInput, options?: RequestOptions): Promise<Event[]> {
			const parsed = validateInput(endpointRef('E14'), ListEventsInput, {
				assetId: input.assetId,
				startTime: input.startTime,
				endTime: input.endTime,
			});
			const batches = await read('E14', 'events', input, parsed, options, (w, signal) =>
				assetData.listEvents(
					{ assetId: parsed.assetId, startTime: w.start, endTime: w.end },
					{ signal },
				),
			);
			return mergeEvents(batches);
		},
		/** E17 over any range: 30-day windows, bounded concurrency, each series merged in time order. */
		async trendSignalData(
			input: TrendRangeInput,
			options?: RequestOptions,
		): Promise<TrendSignalData> {
			const parsed = validateInput(endpointRef('E17'), TrendSignalDataInput, {
				assetId: input.assetId,
				parameters: input.parameters,
				startTime: input.startTime,
				endTime: input.endTime,
			});
			const batches = await read('E17', 'trendSignal', input, parsed, options, (w, signal) =>
				assetData.queryTrendSignalData(
					{
						assetId: parsed.assetId,
						parameters: parsed.parameters,
						startTime: w.start,
						endTime: w.end,
					},
					{ signal },
				),
			);
			return mergeTrendSignalData(batches);
		},
		/** The windows a range would be fetched in (for progress display and tests). */
		windows(kind: Kind, startTime: TimeInput, endTime: TimeInput): Window[] {
			const { start, end } = wholeSeconds(
				parseInstant(startTime, 'startTime'),
				parseInstant(endTime, 'endTime'),
			);
			return windowsOf(kind, start, end);
		},
	};
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
