import type { Block, SlackMessage } from '../kernel/message';

const EMOJI: Record<string, string> = {
	red_circle: '🔴',
	large_orange_circle: '🟠',
	large_yellow_circle: '🟡',
	large_green_circle: '🟢',
	large_blue_circle: '🔵',
	white_circle: '⚪',
	white_small_square: '·',
	large_green_square: '▁',
	large_yellow_square: '▄',
	large_red_square: '█',
	white_check_mark: '✅',
	rotating_light: '🚨',
	warning: '⚠️',
	lock: '🔒',
	chart_with_upwards_trend: '📈',
	page_facing_up: '📄',
	hourglass_flowing_sand: '⏳',
	x: '❌',
	no_bell: '🔕',
};

/** Slack mrkdwn to terminal text: emoji codes to characters, entities decoded, markers kept light. */
export function mrkdwnToText(text: string): string {
	return text
		.replace(/^```\n?|\n?```$/gm, '') // code fences (the text chart) print as the bare lines
		.replace(/:([a-z0-9_]+):/g, (match, name: string) => EMOJI[name] ?? match)
		.replace(/(^|[\s(])\*([^*\n]+)\*/g, '$1$2')
		.replace(/`([^`\n]+)`/g, '$1')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');
}

/** A table as aligned columns, the header row underlined. */
function tableText(rows: string[][]): string[] {
	const widths =
		rows[0]?.map((_, i) => Math.min(40, Math.max(...rows.map((r) => (r[i] ?? '').length)))) ?? [];
	const line = (row: string[]) =>
		`  ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd();
	return rows.length === 0
		? []
		: [
				line(rows[0]),
				`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`,
				...rows.slice(1).map(line),
			];
}

function blockText(
	block: Block,
	actionHint: (actionId: string, value: string) => string,
): string[] {
	switch (block.type) {
		case 'header':
			return [`== ${mrkdwnToText(block.text.text)} ==`];
		case 'section': {
			const lines = block.text ? [mrkdwnToText(block.text.text)] : [];
			for (const field of block.fields ?? [])
				lines.push(mrkdwnToText(field.text).replace('\n', ': '));
			return lines;
		}
		case 'context':
			return block.elements
				.map((e) => ('text' in e && typeof e.text === 'string' ? `  ${mrkdwnToText(e.text)}` : ''))
				.filter(Boolean);
		case 'divider':
			return ['  --'];
		case 'table':
			return tableText(
				block.rows.map((row) =>
					row.map((cell) => ('text' in cell ? String(cell.text) : '')).map(mrkdwnToText),
				),
			);
		case 'actions':
			return block.elements
				.map((e) =>
					'action_id' in e && 'value' in e
						? `  ${actionHint(e.action_id ?? '', String(e.value ?? ''))}`
						: '',
				)
				.filter(Boolean);
		default:
			return [];
	}
}

/**
 * The terminal's rendering of any Slack message the bot builds, so the terminal shows what
 * Slack would. Buttons become the command that does the same.
 */
export function messageToText(
	message: SlackMessage,
	actionHint: (actionId: string, value: string) => string,
): string {
	const attached = message.attachments?.flatMap((a) => a.blocks) ?? [];
	return [...message.blocks, ...attached].flatMap((b) => blockText(b, actionHint)).join('\n');
}
