import type { ParamConfig, ParamSeries } from '../../platform/types';

export interface LatestValue {
	label: string;
	unit: string;
	code: string;
	value: number;
	/** ISO 8601 UTC of the point. */
	at: string;
}

/** The parameters `/drive status` shows first: speed, current, torque, power, temperatures, vibration. */
const MAIN = [/speed/i, /current/i, /torque/i, /power/i, /temp/i, /vibration/i, /voltage|dc/i];

export function mainParameters(
	config: { trends: ParamConfig[]; signals: ParamConfig[] },
	max = 6,
): ParamConfig[] {
	const all = [...config.trends, ...config.signals];
	const rank = (p: ParamConfig) => {
		const text = `${p.name ?? ''} ${p.label ?? ''}`;
		const i = MAIN.findIndex((re) => re.test(text));
		return i === -1 ? MAIN.length : i;
	};
	return all
		.map((p, i) => ({ p, i, r: rank(p) }))
		.filter((x) => x.r < MAIN.length)
		.sort((a, b) => a.r - b.r || a.i - b.i)
		.slice(0, max)
		.map((x) => x.p);
}

/** The last point with a value of each series (a raw window: `value`; aggregates: `avg`). */
export function latestValues(series: readonly ParamSeries[]): LatestValue[] {
	const out: LatestValue[] = [];
	for (const s of series) {
		for (let i = s.timestamp.length - 1; i >= 0; i--) {
			const v = s.value[i] ?? s.avg[i];
			if (v === null || v === undefined) continue;
			out.push({
				label: s.config.label || s.config.name || s.config.code,
				unit: s.config.unit ?? '',
				code: s.config.code,
				value: v,
				at: new Date(s.timestamp[i]).toISOString(),
			});
			break;
		}
	}
	return out;
}

/** A parameter by code, label or name: exact first, then a unique part. */
export function findParameter(
	config: { trends: ParamConfig[]; signals: ParamConfig[] },
	query: string,
): { found: ParamConfig } | { candidates: ParamConfig[] } {
	const all = [...config.trends, ...config.signals];
	const q = query.trim().toLowerCase();
	const names = (p: ParamConfig) =>
		[p.code, p.label ?? '', p.name ?? ''].map((n) => n.toLowerCase());
	const exact = all.filter((p) => names(p).includes(q));
	if (exact.length === 1) return { found: exact[0] };
	const partial = all.filter((p) => names(p).some((n) => n.includes(q)));
	if (partial.length === 1) return { found: partial[0] };
	return { candidates: exact.length > 1 ? exact : partial.length > 0 ? partial : all };
}
