import type { CatchUpSummary } from '../kernel/alert';
import { formatTime } from '../render/format';
import { alertLine } from './alert';
import { context, header, section, sectionsOf } from './kit';
import type { SlackMessage } from '../kernel/message';

/** Lines listed in a catch-up message; the rest are counted (the message must stay one message). */
export const CATCH_UP_LISTED = 35;

/**
 * What happened while the bot was not watching, as one message per channel (B47): counts,
 * the most recent alerts, and a thread where their closes will be posted.
 */
export function catchUpMessage(summary: CatchUpSummary, timeZone: string): SlackMessage {
	const counts = Object.entries(summary.bySeverity)
		.map(([severity, n]) => `${n} ${severity}`)
		.join(', ');
	const title = `${summary.total} alerts while the bot was away (${counts})`;
	const more = summary.total - summary.listed.length;
	return {
		text: `Catch-up: ${title}`,
		blocks: [
			header(`:inbox_tray: ${title}`),
			section(
				`Since ${formatTime(summary.since, timeZone)}: *${summary.stillOpen}* still open, ${summary.total - summary.stillOpen} already resolved.`,
			),
			...sectionsOf(
				summary.listed.map((a) => alertLine(a, timeZone)),
				40,
			),
			context(
				`${more > 0 ? `${more} older alerts are not listed; \`/drive events <asset>\` shows them. ` : ''}Closes of these alerts are posted in this thread.`,
			),
		],
	};
}

export function sourceLagMessage(text: string): SlackMessage {
	return {
		text: `Alerts are late: ${text}`,
		blocks: [section(`:hourglass_flowing_sand: *Alerts are late.* ${text}`)],
	};
}
