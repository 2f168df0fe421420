// Long ranges: E14 silently cuts to 7 days and E17 to 30 days. These functions split any range
// into windows the API serves whole, fetch them with bounded concurrency, and merge them in
// order without duplicates. They know each level's history range and say when a range reaches
// past it instead of returning a silently short answer. The parts are in ranges/.
import type { RequestOptions } from './endpoints/context';
import type { assetDataEndpoints } from './endpoints/assetData';
import { endpointRef } from './errors';
import type { Event, TrendSignalData } from './schemas/resources';
import { ListEventsInput, TrendSignalDataInput, validateInput } from './schemas/inputs';
import { parseInstant, type TimeInput } from './time';
import { mergeEvents, mergeTrendSignalData } from './ranges/merge';
import { readRange, type RangeInput, type RangeSettings } from './ranges/read';
import { wholeSeconds, windowsOf, type RangeKind, type Window } from './ranges/windows';

export { splitWindows, type Window } from './ranges/windows';
export {
	checkHistory,
	HISTORY_MARGIN_MS,
	HISTORY_SKEW_MS,
	levelOfSubscriptions,
} from './ranges/history';
export { mergeEvents, mergeTrendSignalData } from './ranges/merge';
export type { RangeInput } from './ranges/read';

export interface TrendRangeInput extends RangeInput {
	parameters: string[];
}

export function rangesApi(
	assetData: ReturnType<typeof assetDataEndpoints>,
	settings: RangeSettings,
) {
	return {
		/** E14 over any range: 7-day windows, bounded concurrency, merged by time, each event once. */
		async events(input: RangeInput, options?: RequestOptions): Promise<Event[]> {
			const parsed = validateInput(endpointRef('E14'), ListEventsInput, {
				assetId: input.assetId,
				startTime: input.startTime,
				endTime: input.endTime,
			});
			const batches = await readRange(
				settings,
				{ endpoint: 'E14', kind: 'events', input, parsed },
				options,
				(w, signal) =>
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
			const batches = await readRange(
				settings,
				{ endpoint: 'E17', kind: 'trendSignal', input, parsed },
				options,
				(w, signal) =>
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
		windows(kind: RangeKind, startTime: TimeInput, endTime: TimeInput): Window[] {
			const { start, end } = wholeSeconds(
				parseInstant(startTime, 'startTime'),
				parseInstant(endTime, 'endTime'),
			);
			return windowsOf(kind, start, end);
		},
	};
}
