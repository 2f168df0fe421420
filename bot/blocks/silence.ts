import type { SilenceSummary } from '../kernel/alert';
import { formatTime } from '../render/format';
import { ALERT_LINE_MAX, alertLine } from './alert';
import { context, esc, header, section, sectionsOf } from './kit';
import type { SlackMessage } from '../kernel/message';

/** Header, intro, context and room to spare under the 50-block limit. */
const MAX_SECTIONS = 44;

/** When a silence ends: what happened during it and what is still open, so nothing is lost. */
export function silenceSummaryMessage(summary: SilenceSummary, timeZone: string): SlackMessage {
	const open = summary.alerts.filter((a) => a.status === 'Open');
	const closed = summary.alerts.filter((a) => a.status === 'Close');
	const title = `Silence on ${summary.scope} ended: ${summary.alerts.length} alert${summary.alerts.length === 1 ? '' : 's'} during it, ${open.length} still open`;
	const when = `${formatTime(new Date(summary.from).toISOString(), timeZone)} to ${formatTime(new Date(summary.until).toISOString(), timeZone)}`;
	const intro = `:mute: Muted ${when}${summary.reason ? ` (${esc(summary.reason)})` : ''}${summary.endedBy ? `, ended early by <@${summary.endedBy}>` : ''}.`;
	const all = [
		...(open.length > 0 ? ['*Still open*', ...open.map((a) => alertLine(a, timeZone))] : []),
		...(closed.length > 0
			? ['*Closed during the silence*', ...closed.map((a) => alertLine(a, timeZone))]
			: []),
	];
	// Seven lines of at most ALERT_LINE_MAX fit a section; beyond that, say how many are left out.
	const room = MAX_SECTIONS * Math.floor(3000 / (ALERT_LINE_MAX + 1)) - 1;
	const lines =
		all.length > room
			? [
					...all.slice(0, room),
					`…and ${all.length - room} more: \`/drive events <asset>\` lists them.`,
				]
			: all;
	return {
		text: title,
		blocks: [
			header(title),
			section(intro),
			...(lines.length > 0
				? sectionsOf(lines, MAX_SECTIONS)
				: [section('Nothing happened while it was muted.')]),
			context(
				'Alerts during a silence are recorded, not posted; the ones still open are followed from here on as usual.',
			),
		],
	};
}
