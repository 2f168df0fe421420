import type { Event, ParamData, TrendSignalData } from '../schemas/resources';

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
