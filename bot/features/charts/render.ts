/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type * as Canvas from '@napi-rs/canvas';
import { createRequire } from 'node:module';
import type * as ChartJs from 'chart.js' with { 'resolution-mode': 'import' };
import type { ParamSeries } from '../../platform/types';

type ChartConfiguration = ChartJs.ChartConfiguration;

// Chart.js draws on @napi-rs/canvas: both install from the npm registry alone (the canvas as a
// prebuilt binary inside its platform package), with no system library and no download at install.
// Both load at the first chart, not at the start: a bot that never draws one (alerts only) does
// not carry Skia's library and chart.js's code (about 20 MiB of RSS measured).
// chart.js publishes its types as ESM beside a CommonJS build; the package is CommonJS, so the
// build is loaded by require and typed from the ESM declarations.
let drawing: { Chart: typeof ChartJs.Chart; createCanvas: typeof Canvas.createCanvas } | undefined;
function charting(): NonNullable<typeof drawing> {
	if (!drawing) {
		const load = createRequire(__filename);
		const { Chart, registerables } = load('chart.js') as typeof ChartJs;
		Chart.register(...registerables);
		drawing = { Chart, createCanvas: (load('@napi-rs/canvas') as typeof Canvas).createCanvas };
	}
	return drawing;
}

export const CHART_SIZE = { width: 1000, height: 480 } as const;

export interface RenderedChart {
	png: Buffer;
	width: number;
	height: number;
	/** Points drawn per line, one per platform point (gaps included, as breaks). */
	points: number;
	/** True when the min/max band was drawn (aggregated data). */
	band: boolean;
}

/** `11-21 14:05` in the given zone, for axis ticks. */
function tickLabel(ms: number, timeZone: string, withDate: boolean): string {
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-CA', {
			timeZone,
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			hourCycle: 'h23',
		})
			.formatToParts(new Date(ms))
			.map((p) => [p.type, p.value]),
	);
	return withDate
		? `${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`
		: `${parts.hour}:${parts.minute}`;
}

/** The PNG, and how many points the chart was given per dataset (what it drew from). */
function render(config: ChartConfiguration): { png: Buffer; drawn: number[] } {
	const { Chart, createCanvas } = charting();
	const canvas = createCanvas(CHART_SIZE.width, CHART_SIZE.height);
	const context = canvas.getContext('2d');
	// A white background: Slack's dark theme would otherwise show a transparent PNG as black.
	context.fillStyle = '#ffffff';
	context.fillRect(0, 0, CHART_SIZE.width, CHART_SIZE.height);
	const chart = new Chart(context as unknown as ConstructorParameters<typeof Chart>[0], {
		...config,
		options: { ...config.options, responsive: false, animation: false, devicePixelRatio: 1 },
	});
	try {
		return {
			png: canvas.toBuffer('image/png'),
			drawn: chart.data.datasets.map((d) => d.data.length),
		};
	} finally {
		chart.destroy();
	}
}

/**
 * One parameter's series (E17): the average as a line with the min-max band around it for 5-minute
 * aggregates, the value for raw data; a point without value (`-`) breaks the line (assumption B41).
 */
export function renderSeriesChart(
	series: ParamSeries,
	options: { title: string; timeZone: string; zoneLabel: string },
): RenderedChart {
	const aggregated =
		series.timestamp.length > 1 && series.min.some((v, i) => v !== null && v !== series.max[i]);
	const line = aggregated ? series.avg : series.value;
	const at = (values: Array<number | null>) =>
		series.timestamp.map((x, i) => ({ x, y: values[i] ?? null }));
	const unit = series.config.unit ? ` (${series.config.unit})` : '';
	const span =
		series.timestamp.length > 1
			? series.timestamp[series.timestamp.length - 1] - series.timestamp[0]
			: 0;
	const datasets: ChartJs.ChartConfiguration<'line'>['data']['datasets'] = [];
	if (aggregated) {
		datasets.push({
			label: 'min',
			data: at(series.min),
			borderWidth: 0,
			pointRadius: 0,
			spanGaps: false,
			borderColor: 'rgba(54,162,235,0.25)',
			backgroundColor: 'rgba(54,162,235,0.18)',
		});
		datasets.push({
			label: 'min–max',
			data: at(series.max),
			borderWidth: 0,
			pointRadius: 0,
			spanGaps: false,
			fill: '-1',
			borderColor: 'rgba(54,162,235,0.25)',
			backgroundColor: 'rgba(54,162,235,0.18)',
		});
	}
	datasets.push({
		label: aggregated ? 'average (5 min)' : 'value',
		data: at(line),
		borderWidth: 1.5,
		pointRadius: 0,
		spanGaps: false,
		borderColor: 'rgb(20,90,160)',
		backgroundColor: 'rgb(20,90,160)',
	});
	const { png, drawn } = render({
		type: 'line',
		data: { datasets },
		options: {
			parsing: false,
			plugins: {
				title: { display: true, text: `${options.title}${unit}` },
				legend: { display: true, labels: { filter: (item) => item.text !== 'min' } },
			},
			scales: {
				x: {
					type: 'linear',
					min: series.timestamp[0],
					max: series.timestamp[series.timestamp.length - 1],
					title: { display: true, text: options.zoneLabel },
					ticks: {
						maxTicksLimit: 10,
						callback: (v) => tickLabel(Number(v), options.timeZone, span > 86_400_000),
					},
				},
				y: {
					type: 'linear',
					title: { display: Boolean(series.config.unit), text: series.config.unit ?? '' },
				},
			},
		},
	} as ChartConfiguration);
	return { png, ...CHART_SIZE, points: Math.min(...drawn), band: aggregated };
}

/** CBM's 30-day KPI (0.01 green, 0.5 yellow, 1.0 red, 0 unknown) as coloured bars, one per day. */
export function renderKpiChart(
	kpis: ReadonlyArray<{ date: string; kpi: number }>,
	title: string,
): RenderedChart {
	const colour = (k: number) =>
		!(k > 0) ? '#c8c8c8' : k < 0.5 ? '#2eb67d' : k < 1 ? '#ecb22e' : '#e01e5a';
	const { png, drawn } = render({
		type: 'bar',
		data: {
			labels: kpis.map((k) => k.date.slice(5)),
			// Unknown days get a stub so that they show (grey) instead of vanishing.
			datasets: [
				{
					label: 'KPI',
					data: kpis.map((k) => (k.kpi > 0 ? k.kpi : 0.05)),
					backgroundColor: kpis.map((k) => colour(k.kpi)),
				},
			],
		},
		options: {
			plugins: {
				title: { display: true, text: `${title} · 30-day KPI (UTC+8 dates)` },
				legend: { display: false },
			},
			scales: {
				y: {
					min: 0,
					max: 1,
					ticks: { callback: (v) => ({ 0: 'unknown', 0.5: 'yellow', 1: 'red' })[Number(v)] ?? '' },
				},
			},
		},
	} as ChartConfiguration);
	return { png, ...CHART_SIZE, points: drawn[0] ?? 0, band: false };
}
