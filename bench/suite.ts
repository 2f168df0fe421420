/** One measured figure. Every speed or memory figure is quoted against a baseline of the same run. */
export interface Figure {
	name: string;
	value: string;
	baseline?: string;
	ratio?: string;
	target?: string;
	met?: boolean;
}

export interface SuiteResult {
	name: string;
	description: string;
	figures: Figure[];
	seconds?: number;
}

/** A file in bench/suites/ default-exports one of these; bench/run.ts runs them all. */
export interface BenchSuite {
	name: string;
	run(): Promise<SuiteResult>;
}

/** The p-th percentile (nearest rank) of `values`; NaN when there are none. */
export function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return (
		sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ??
		NaN
	);
}
