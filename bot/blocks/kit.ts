/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { types } from '@slack/bolt';
import type { Block, ChartBlock, SlackMessage } from '../kernel/message';
import { escapeMrkdwn, truncate } from '../render/format';

/** Slack's documented limits. */
export const LIMITS = {
	blocks: 50,
	sectionText: 3000,
	field: 2000,
	fields: 10,
	header: 150,
	buttonValue: 2000,
	contextElements: 10,
	tableRows: 100,
	tableCells: 20,
};

/** A one-series line chart, or nothing when there are too few distinct points to draw. */
export function lineChart(
	title: string,
	seriesName: string,
	points: ReadonlyArray<{ label: string; value: number }>,
	axes: { x?: string; y?: string },
): ChartBlock[] {
	const labels = points.map((p) => truncate(p.label, 20));
	if (points.length < 2 || new Set(labels).size !== labels.length) return [];
	return [
		{
			type: 'data_visualization',
			title: truncate(title, 50),
			chart: {
				type: 'line',
				series: [
					{
						name: truncate(seriesName, 20),
						data: points.map((p, i) => ({ label: labels[i], value: p.value })),
					},
				],
				axis_config: {
					categories: labels,
					...(axes.x ? { x_label: truncate(axes.x, 50) } : {}),
					...(axes.y ? { y_label: truncate(axes.y, 50) } : {}),
				},
			},
		},
	];
}

/** The message without its chart blocks: for a workspace or client that refuses them (the PNG and the text chart stay). */
export function withoutCharts(message: SlackMessage): SlackMessage | undefined {
	const blocks = message.blocks.filter((b) => b.type !== 'data_visualization');
	return blocks.length === message.blocks.length ? undefined : { ...message, blocks };
}

/** Our own cap on a table cell, for a readable row (Slack documents none). */
const TABLE_CELL = 200;

/**
 * A table block: a header row, then at most 99 data rows (Slack takes 100 rows of up to 20
 * cells). Cells are raw text; `align` sets each column's alignment, long columns wrap.
 */
export function table(
	headerRow: readonly string[],
	rows: ReadonlyArray<readonly string[]>,
	align: ReadonlyArray<'left' | 'right' | 'center' | null> = [],
): Block {
	const cells = (row: readonly string[]) =>
		row
			.slice(0, LIMITS.tableCells)
			.map((text) => ({ type: 'raw_text' as const, text: truncate(text || '-', TABLE_CELL) }));
	return {
		type: 'table',
		rows: [headerRow, ...rows.slice(0, LIMITS.tableRows - 1)].map(cells),
		column_settings: headerRow
			.slice(0, LIMITS.tableCells)
			.map((_, i) => (align[i] ? { align: align[i] ?? 'left' } : { is_wrapped: true })),
	};
}

/** A message with a table, where Slack takes it: in the attachments. */
export function withTable(message: SlackMessage, tableBlock: Block): SlackMessage {
	return { ...message, attachments: [{ blocks: [tableBlock] }] };
}

export function header(text: string): Block {
	return {
		type: 'header',
		text: { type: 'plain_text', text: truncate(text, LIMITS.header), emoji: true },
	};
}

export function section(mrkdwn: string): Block {
	return { type: 'section', text: { type: 'mrkdwn', text: truncate(mrkdwn, LIMITS.sectionText) } };
}

export function fields(pairs: ReadonlyArray<readonly [string, string]>): Block {
	return {
		type: 'section',
		fields: pairs.slice(0, LIMITS.fields).map(([label, value]) => ({
			type: 'mrkdwn',
			text: truncate(`*${label}*\n${value}`, LIMITS.field),
		})),
	};
}

export function context(...texts: string[]): Block {
	return {
		type: 'context',
		elements: texts
			.slice(0, LIMITS.contextElements)
			.map((text) => ({ type: 'mrkdwn', text: truncate(text, LIMITS.field) })),
	};
}

export function divider(): Block {
	return { type: 'divider' };
}

export function button(
	text: string,
	actionId: string,
	value: string,
	style?: 'primary' | 'danger',
): types.Button {
	return {
		type: 'button',
		text: { type: 'plain_text', text: truncate(text, 75), emoji: true },
		action_id: actionId,
		value: truncate(value, LIMITS.buttonValue),
		...(style ? { style } : {}),
	};
}

/** A button that opens a page (Slack still sends an action, which the app acknowledges). */
export function linkButton(text: string, actionId: string, url: string): types.Button {
	return {
		type: 'button',
		text: { type: 'plain_text', text: truncate(text, 75), emoji: true },
		action_id: actionId,
		url: url.slice(0, 3000),
	};
}

export function actions(...elements: types.Button[]): Block {
	return { type: 'actions', elements };
}

/** Lines packed into as few sections as the 3,000-character limit allows. */
export function sectionsOf(lines: readonly string[], maxSections: number): Block[] {
	const blocks: Block[] = [];
	let current = '';
	for (const line of lines) {
		const safe = truncate(line, LIMITS.sectionText);
		if (current && current.length + 1 + safe.length > LIMITS.sectionText) {
			blocks.push(section(current));
			current = '';
			if (blocks.length === maxSections) return blocks;
		}
		current = current ? `${current}\n${safe}` : safe;
	}
	if (current && blocks.length < maxSections) blocks.push(section(current));
	return blocks;
}

export { escapeMrkdwn as esc };
