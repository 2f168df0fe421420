/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { types } from '@slack/bolt';

/**
 * Slack's data visualization block (docs.slack.dev, block reference; changelog 2026-06-16), not
 * yet in @slack/types: a line chart of up to 6 series over shared categories, a title of at most
 * 50 characters, category labels of at most 20.
 */
export interface ChartBlock {
	type: 'data_visualization';
	title: string;
	chart: {
		type: 'line';
		series: Array<{ name: string; data: Array<{ label: string; value: number }> }>;
		axis_config: { categories: string[]; x_label?: string; y_label?: string };
	};
}

export type Block = types.KnownBlock | ChartBlock;

/** A message as Slack takes it: blocks plus the plain-text fallback notifications show. */
export interface SlackMessage {
	text: string;
	blocks: Block[];
	/** Where Slack takes a table block: a message's attachments (table block reference, usage info). */
	attachments?: Array<{ blocks: Block[] }>;
}
