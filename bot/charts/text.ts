import type { ParamSeries } from '../platform/types';

const BLOCKS = ' ▁▂▃▄▅▆▇█';

/**
 * The terminal's chart: `width` columns, each the average of its points, drawn `height` rows tall
 * with block characters; a column without any value is blank (a gap), as in the PNG.
 */
export function textChart(series: ParamSeries, width = 60, height = 8): string {
  const values = series.timestamp.map((_, i) => series.avg[i] ?? series.value[i] ?? null);
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return '(no value in this period)';
  const min = Math.min(...present);
  const max = Math.max(...present);
  const columns = Math.min(width, values.length);
  const cells: Array<number | null> = [];
  for (let c = 0; c < columns; c++) {
    const slice = values.slice(Math.floor((c * values.length) / columns), Math.floor(((c + 1) * values.length) / columns)).filter((v): v is number => v !== null);
    cells.push(slice.length ? slice.reduce((a, b) => a + b, 0) / slice.length : null);
  }
  const levels = height * 8;
  const heightOf = (v: number) => (max === min ? levels / 2 : Math.round(((v - min) / (max - min)) * (levels - 1)) + 1);
  const rows: string[] = [];
  for (let r = height - 1; r >= 0; r--) {
    const row = cells.map((v) => {
      if (v === null) return ' ';
      const fill = heightOf(v) - r * 8;
      return fill <= 0 ? ' ' : BLOCKS[Math.min(8, fill)];
    });
    const label = r === height - 1 ? max : r === 0 ? min : undefined;
    rows.push(`${label === undefined ? ''.padStart(9) : String(Math.round(label * 100) / 100).padStart(9)} │${row.join('')}`);
  }
  return rows.join('\n');
}
