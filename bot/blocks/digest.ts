import type { AlertRecord } from '../kernel/alert';
import { ALERT_LINE_MAX, alertLine } from './alert';
import { context, header, sectionsOf } from './kit';
import type { SlackMessage } from '../kernel/message';

/** Header, context and room to spare under the 50-block limit. */
const MAX_SECTIONS = 45;

/**
 * A storm digest: every alert it covers has a line (the dispatcher sizes batches so they fit),
 * so nothing is lost when alerts arrive faster than Slack lets the bot post them.
 */
export function digestMessage(
	alerts: readonly AlertRecord[],
	resolved: readonly AlertRecord[],
	timeZone: string,
): SlackMessage {
	const counts = new Map<string, number>();
	for (const alert of alerts) counts.set(alert.severity, (counts.get(alert.severity) ?? 0) + 1);
	const summary = [...counts].map(([severity, n]) => `${n} ${severity}`).join(', ');
	const closed = alerts.filter((a) => a.status === 'Close').length + resolved.length;
	const parts = [
		alerts.length > 0 ? `${plural(alerts.length, 'alert')} (${summary})` : '',
		closed > 0 ? `${closed} resolved` : '',
	]
		.filter(Boolean)
		.join(', ');
	// Only resolutions, or every alert it lists closed since: nothing here is alarming any more.
	const allClear = alerts.every((a) => a.status === 'Close');
	const lines = [
		...alerts.map((a) => alertLine(a, timeZone)),
		...resolved.map((a) => alertLine(a, timeZone)),
	];
	return {
		text: `Alert digest: ${parts}`,
		blocks: [
			header(`${allClear ? ':white_check_mark:' : ':rotating_light:'} Alert digest: ${parts}`),
			...sectionsOf(lines, MAX_SECTIONS),
			context(
				'Alerts are arriving faster than one message per second, so they are listed together. Each line is updated here when its alert closes.',
			),
		],
	};
}

function plural(n: number, word: string): string {
	return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** How many digest lines are sure to fit: seven lines of at most ALERT_LINE_MAX per section. */
export const DIGEST_MAX_LINES = MAX_SECTIONS * Math.floor(3000 / (ALERT_LINE_MAX + 1));
