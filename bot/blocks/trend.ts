import type { LatestValue } from '../features/charts/signals';
import type { TrendAnswer } from '../features/charts/trend';
import { assetLine, formatTime } from '../render/format';
import { context, esc, fields, lineChart, section } from './kit';
import type { Block, SlackMessage } from '../kernel/message';

function number(value: number | undefined, unit: string): string {
	return value === undefined ? '-' : `${Math.round(value * 100) / 100}${unit ? ` ${unit}` : ''}`;
}

/** The latest values of the main signals in `/drive status`, with units. */
export function signalBlocks(
	signals: LatestValue[] | { denied: string } | undefined,
	timeZone: string,
): Block[] {
	if (signals === undefined) return [];
	if (!Array.isArray(signals)) return [section(`*Signals*: ${esc(signals.denied)}`)];
	if (signals.length === 0) return [section('*Signals*: no value in the last 15 minutes.')];
	const latest = signals
		.map((s) => s.at)
		.sort()
		.pop();
	return [
		fields(signals.slice(0, 10).map((s) => [esc(s.label), number(s.value, s.unit)] as const)),
		context(`Latest signal values, ${formatTime(latest, timeZone)}`),
	];
}

/**
 * The command's answer: the numbers, Slack's line chart (20 averaged points), and the text chart
 * for clients that do not draw it; the PNG itself went to the channel.
 */
export function trendAnswer(
	t: Extract<TrendAnswer, { kind: 'trend' }>,
	timeZone: string,
): SlackMessage {
	const title = `${t.parameter.label} of ${assetLine(t.asset)}, last ${t.range}`;
	const stats = `min ${number(t.min, t.parameter.unit)} · avg ${number(t.avg, t.parameter.unit)} · max ${number(t.max, t.parameter.unit)} · ${t.points} points${t.gaps ? `, ${t.gaps} without value` : ''}`;
	return {
		text: `${title}: ${stats}`,
		blocks: [
			section(`*${esc(title)}*\n${stats}`),
			...lineChart(`${t.parameter.label} of ${t.asset.name}`, t.parameter.label, t.chart ?? [], {
				x: `Time (${timeZone})`,
				y: t.parameter.unit || undefined,
			}),
			section(`\`\`\`\n${t.textChart}\n\`\`\``),
			context(
				t.postedTo
					? `The chart was posted in this channel${t.band ? ' (line: 5-minute average; band: min to max)' : ''}.`
					: 'No channel to post the chart image in.',
			),
		],
	};
}
