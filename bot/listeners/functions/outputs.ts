// Step outputs are plain text a workflow puts into a message or a form: no Slack emoji codes, no
// mrkdwn markers, times in the bot's zone as everywhere else.
import type { AlertRecord } from '../../kernel/alert';
import { predictedDates } from '../../blocks/cbm';
import type { AssetStatus } from '../../features/commands/model';
import type { AssetLink } from '../../features/connectivity/tracker';
import { assetLine, formatTime } from '../../render/format';

/** Lines a list output holds at most (a workflow message takes them all within Slack's limits). */
export const MAX_LIST_LINES = 50;

export function linkState(
	link: AssetLink | undefined,
	latestData: string | undefined,
	timeZone: string,
): string {
	if (!link) return `latest data ${formatTime(latestData, timeZone)}`;
	if (link.state === 'online') return `online (last state ${formatTime(link.lastSeen, timeZone)})`;
	if (link.state === 'offline') return `offline since ${formatTime(link.since, timeZone)}`;
	return `unknown: no state since ${formatTime(link.lastSeen, timeZone)}`;
}

export function healthText(status: AssetStatus): string {
	if (!Array.isArray(status.conditions)) return status.conditions.denied;
	const sorted = [...status.conditions].sort(
		(a, b) => Number(b.type === 'Overall') - Number(a.type === 'Overall'),
	);
	return sorted.map((c) => `${c.type}: ${c.status}`).join('\n') || 'No health condition reported.';
}

export function cbmText(status: AssetStatus): string {
	const { cbm } = status;
	if (cbm.kind === 'denied') return cbm.explanation;
	if (cbm.kind === 'none') return 'No CBM analysis for this asset.';
	return cbm.units
		.map(
			(u) =>
				`${u.unit}: ${u.status} (${predictedDates(u)
					.map(([k, v]) => `${k} ${v}`)
					.join(', ')})`,
		)
		.join('\n');
}

export function openFaultCount(status: AssetStatus): number {
	return status.openEvents.filter((e) => e.eventType === 'Fault').length;
}

/** `Fault 2310 Overcurrent on Pump 3 drive (D123) · since … · held by <@U> · event 500123`. */
export function faultLine(alert: AlertRecord, timeZone: string): string {
	const held = alert.ack ? ` · held by <@${alert.ack.userId}>` : ' · not acknowledged';
	return `${alert.severity} ${alert.code} ${alert.content} on ${assetLine(alert.asset)} · since ${formatTime(alert.eventTime, timeZone)}${held} · event ${alert.eventId}`;
}

export function listText(lines: readonly string[], empty: string): string {
	if (lines.length === 0) return empty;
	const shown = lines.slice(0, MAX_LIST_LINES);
	return [
		...shown,
		...(lines.length > MAX_LIST_LINES ? [`…and ${lines.length - MAX_LIST_LINES} more`] : []),
	].join('\n');
}
