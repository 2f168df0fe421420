import type { ReportMessages, ReportView } from '../features/reports/service';
import { context, esc, section } from './kit';
import type { SlackMessage } from '../kernel/message';

function byLine(view: ReportView): string {
	const who = view.schedule
		? `scheduled (${esc(view.schedule)})`
		: view.requestedBy
			? `requested by <@${view.requestedBy}>`
			: 'requested';
	return `${esc(view.startDate)} to ${esc(view.endDate)} (UTC+8) · ${who} · report ${view.reportId}`;
}

/** The command's own answer (ephemeral): the report is on its way. */
export function reportStartedAnswer(r: {
	reportId: number;
	title: string;
	what: string;
	startDate: string;
	endDate: string;
	note?: string;
}): SlackMessage {
	const text = `:hourglass_flowing_sand: Creating “${r.title}”, ${r.what}, ${r.startDate} to ${r.endDate} (UTC+8). The PDF will be posted in this channel, in the thread of the report's message.`;
	return { text, blocks: [section(esc(text)), ...(r.note ? [context(esc(r.note))] : [])] };
}

/** Posted at once: the platform makes the report asynchronously; its PDF follows in the thread. */
export function reportCreatingMessage(view: ReportView): SlackMessage {
	const text = `:hourglass_flowing_sand: Creating “${view.title}”, ${view.what}…`;
	return {
		text,
		blocks: [
			section(`${esc(text)}\nThe PDF will be posted in this thread when the platform has made it.`),
			context(byLine(view)),
		],
	};
}

export function reportReadyMessage(view: ReportView): SlackMessage {
	const text = `:page_facing_up: “${view.title}”, ${view.what}: ready, the PDF is in the thread.`;
	return { text, blocks: [section(esc(text)), context(byLine(view))] };
}

export function reportFailedMessage(view: ReportView, reason: string): SlackMessage {
	const text = `:x: “${view.title}”, ${view.what}: the platform could not make it. ${reason}`;
	return { text, blocks: [section(esc(text)), context(byLine(view))] };
}

/** The report service's messages, as they look in Slack. */
export const reportMessages: ReportMessages = {
	creating: reportCreatingMessage,
	ready: reportReadyMessage,
	failed: reportFailedMessage,
};
