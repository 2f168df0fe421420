const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `30m`, `2h`, `1d` (also `2 h`, `1h30m`) to milliseconds; undefined when not a duration. */
export function parseDuration(text: string): number | undefined {
	const compact = text.replace(/\s+/g, '').toLowerCase();
	if (!/^(\d+[smhd])+$/.test(compact)) return undefined;
	let total = 0;
	for (const [, n, unit] of compact.matchAll(/(\d+)([smhd])/g)) total += Number(n) * UNITS[unit];
	return total > 0 ? total : undefined;
}

export function describeDuration(ms: number): string {
	if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
	if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
	if (ms % 60_000 === 0) return `${ms / 60_000} min`;
	return `${Math.round(ms / 1000)} s`;
}
