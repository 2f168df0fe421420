import type { ParamSeries } from '../../platform/types';

const BLOCKS = ' ▁▂▃▄▅▆▇█';

/** The series' values (5-minute averages where the platform gives them), null for a gap. */
function valuesOf(series: ParamSeries): Array<number | null> {
	return series.timestamp.map((_, i) => series.avg[i] ?? series.value[i] ?? null);
}

/** `columns` equal slices of the values, each the average of its present values (null: none). */
function sliceAverages(
	values: ReadonlyArray<number | null>,
	columns: number,
): Array<number | null> {
	const cells: Array<number | null> = [];
	for (let c = 0; c < columns; c++) {
		const slice = values
			.slice(
				Math.floor((c * values.length) / columns),
				Math.floor(((c + 1) * values.length) / columns),
			)
			.filter((v): v is number => v !== null);
		cells.push(slice.length ? slice.reduce((a, b) => a + b, 0) / slice.length : null);
	}
	return cells;
}

/**
 * The series as at most `count` averaged points, each labelled with the start of its slice (for
 * Slack's chart block, which takes few categories); slices without a value are left out.
 */
export function chartPoints(
	series: ParamSeries,
	count: number,
	label: (epochMs: number) => string,
): Array<{ label: string; value: number }> {
	const values = valuesOf(series);
	const columns = Math.min(count, values.length);
	return sliceAverages(values, columns)
		.map((value, c) => ({
			label: label(series.timestamp[Math.floor((c * values.length) / columns)]),
			value,
		}))
		.filter((p): p is { label: string; value: number } => p.value !== null)
		.map((p) => ({ ...p, value: Math.round(p.value * 100) / 100 }));
}

/**
 * The terminal's chart: `width` columns, each the average of its points, drawn `height` rows tall
 * with block characters; a column without any value is blank (a gap), as in the PNG.
 */
export function textChart(series: ParamSeries, width = 60, height = 8): string {
	const values = valuesOf(series);
	const present = values.filter((v): v is number => v !== null);
	if (present.length === 0) return '(no value in this period)';
	const min = Math.min(...present);
	const max = Math.max(...present);
	const cells = sliceAverages(values, Math.min(width, values.length));
	const levels = height * 8;
	const heightOf = (v: number) =>
		max === min ? levels / 2 : Math.round(((v - min) / (max - min)) * (levels - 1)) + 1;
	const rows: string[] = [];
	for (let r = height - 1; r >= 0; r--) {
		const row = cells.map((v) => {
			if (v === null) return ' ';
			const fill = heightOf(v) - r * 8;
			return fill <= 0 ? ' ' : BLOCKS[Math.min(8, fill)];
		});
		const label = r === height - 1 ? max : r === 0 ? min : undefined;
		rows.push(
			`${label === undefined ? ''.padStart(9) : String(Math.round(label * 100) / 100).padStart(9)} │${row.join('')}`,
		);
	}
	return rows.join('\n');
}
