import type { AlertRecord } from '../kernel/alert';
import { assetLine, formatTime, severityEmoji, truncate, workStatusLabel } from '../render/format';
import { actions, button, context, esc, fields, header, linkButton, section } from './kit';
import type { Block, SlackMessage } from '../kernel/message';

export const DETAILS_ACTION = 'asset_details';
/** Acknowledge (or take over) the alerts whose keys the value lists. */
export const ACK_ACTION = 'alert_ack';
/** Mute the assets whose ids the value lists for two hours. */
export const MUTE_ACTION = 'alert_mute_2h';
/** The ACK_ACTION button's label while someone may take the alerts, and once all are held: what the presser meant. */
export const ACK_LABEL = 'Acknowledge';
export const TAKE_OVER_LABEL = 'Take over';

/** Keys and asset ids travel in button values comma-separated. */
export const joinValue = (parts: ReadonlyArray<string | number>) => parts.join(',');
export const splitValue = (value: string | undefined) => (value ?? '').split(',').filter(Boolean);

function ackLine(alert: AlertRecord, timeZone: string): string | undefined {
	if (!alert.ack) return undefined;
	const took =
		alert.ack.previous.length > 0
			? ` (took over from <@${alert.ack.previous[alert.ack.previous.length - 1].userId}>)`
			: '';
	return `:bust_in_silhouette: Acknowledged by <@${alert.ack.userId}> ${formatTime(new Date(alert.ack.at).toISOString(), timeZone)}${took}`;
}

function stateLine(alert: AlertRecord, timeZone: string): string {
	return resolvedLine(alert, timeZone) ?? `:rotating_light: Open · event ${esc(alert.eventId)}`;
}

/** Acknowledge / Take over, Mute 2 h, Details (one per asset) and the link buttons. */
function alertActions(alerts: readonly AlertRecord[]): Block[] {
	const open = alerts.filter((a) => a.status === 'Open');
	const buttons = [];
	if (open.length > 0) {
		const acked = open.every((a) => a.ack);
		buttons.push(
			button(
				acked ? TAKE_OVER_LABEL : ACK_LABEL,
				ACK_ACTION,
				joinValue(open.map((a) => a.key)),
				acked ? undefined : 'primary',
			),
		);
		if (!open.every((a) => a.mutedUntil && a.mutedUntil > Date.now()))
			buttons.push(
				button('Mute 2 h', MUTE_ACTION, joinValue([...new Set(open.map((a) => a.asset.id))])),
			);
	}
	alerts.forEach((a, i) =>
		buttons.push(
			button(
				alerts.length > 1 ? `Details: ${a.asset.name}` : 'Details',
				i === 0 ? DETAILS_ACTION : `${DETAILS_ACTION}:${i}`,
				String(a.asset.id),
			),
		),
	);
	const seen = new Set<string>();
	for (const link of alerts.flatMap((a) => a.links ?? [])) {
		if (seen.has(link.url)) continue;
		seen.add(link.url);
		buttons.push(linkButton(link.text, `link:${seen.size}`, link.url));
	}
	// Slack allows 25 elements in an actions block.
	return [actions(...buttons.slice(0, 25))];
}

function footer(alerts: readonly AlertRecord[], timeZone: string): Block {
	const lines = alerts.map(
		(a) => `${alerts.length > 1 ? `${esc(a.asset.name)}: ` : ''}${stateLine(a, timeZone)}`,
	);
	const acks = [
		...new Set(alerts.map((a) => ackLine(a, timeZone)).filter((l): l is string => l !== undefined)),
	];
	const muted = alerts.find(
		(a) => a.status === 'Open' && a.mutedUntil && a.mutedUntil > Date.now(),
	);
	const mute = muted?.mutedUntil
		? [
				`:mute: Muted until ${formatTime(new Date(muted.mutedUntil).toISOString(), timeZone)}: no reminders`,
			]
		: [];
	return context(...lines, ...acks, ...mute);
}

/** One fault or warning: open, or resolved once the platform closes it. */
export function alertMessage(
	alert: AlertRecord,
	timeZone: string,
	related: readonly AlertRecord[] = [],
): SlackMessage {
	if (related.length > 0) return powerTrainMessage([alert, ...related], timeZone);
	const resolved = alert.status === 'Close';
	const title = `${resolved ? '✅ Resolved: ' : ''}${alert.severity} ${alert.code} on ${alert.asset.name}`;
	const blocks = [
		header(title),
		section(
			`${resolved ? '~' : ''}${severityEmoji(alert.severity)} *${esc(alert.content || alert.code)}*${resolved ? '~' : ''}`,
		),
		fields([
			['Asset', esc(assetLine(alert.asset))],
			['Group / plant', esc(`${alert.asset.group || '-'} / ${alert.asset.plant || '-'}`)],
			['Event time', formatTime(alert.eventTime, timeZone)],
			['Device', workStatusLabel(alert.deviceWorkStatus)],
			['Event code', esc(alert.code)],
			['Logger file', alert.hasLogger ? 'yes' : 'no'],
			['Organization', esc(alert.asset.organization || '-')],
		]),
		...alertActions([alert]),
		footer([alert], timeZone),
	];
	const who = alert.ack && !resolved ? ` · acknowledged by ${alert.ack.userId}` : '';
	return { text: `${title} (${alert.asset.serialNumber}): ${alert.content}${who}`, blocks };
}

/**
 * A drive and the motor of one PowerTrain faulting together: one message under the PowerTrain's
 * name (inhibition), each member with its own event and state.
 */
function powerTrainMessage(alerts: readonly AlertRecord[], timeZone: string): SlackMessage {
	const name = alerts[0].asset.powerTrain?.name ?? alerts[0].asset.name;
	const resolved = alerts.every((a) => a.status === 'Close');
	const worst = alerts.some((a) => a.severity === 'Fault') ? 'Fault' : alerts[0].severity;
	const title = `${resolved ? '✅ Resolved: ' : ''}${worst} on PowerTrain ${name}: ${alerts.map((a) => a.asset.name).join(' and ')}`;
	const blocks: Block[] = [header(title)];
	for (const a of alerts.slice(0, 8)) {
		const closed = a.status === 'Close';
		blocks.push(
			section(
				`${closed ? '~' : ''}${severityEmoji(a.severity)} *${esc(a.asset.name)}*: ${esc(a.content || a.code)}${closed ? '~' : ''}`,
			),
			fields([
				['Asset', esc(assetLine(a.asset))],
				['Event code', esc(a.code)],
				['Event time', formatTime(a.eventTime, timeZone)],
				['Device', workStatusLabel(a.deviceWorkStatus)],
			]),
		);
	}
	blocks.push(
		context(
			`Group / plant: ${esc(`${alerts[0].asset.group || '-'} / ${alerts[0].asset.plant || '-'}`)} · Organization: ${esc(alerts[0].asset.organization || '-')}`,
		),
	);
	blocks.push(...alertActions(alerts), footer(alerts, timeZone));
	return { text: `${title}: ${alerts.map((a) => `${a.code} ${a.content}`).join('; ')}`, blocks };
}

function resolvedLine(alert: AlertRecord, timeZone: string): string | undefined {
	if (alert.status !== 'Close') return undefined;
	return `:white_check_mark: Resolved ${formatTime(alert.closeAt, timeZone)}${alert.closeReason ? `: ${esc(alert.closeReason)}` : ''} · event ${esc(alert.eventId)}`;
}

/** The thread reply that tells followers of an alert it was handled. */
export function resolvedReply(alert: AlertRecord, timeZone: string): SlackMessage {
	const line = `:white_check_mark: ${alert.severity} ${alert.code} on ${assetLine(alert.asset)} resolved ${formatTime(alert.closeAt, timeZone)}${
		alert.closeReason ? `: ${alert.closeReason}` : ''
	}`;
	return { text: line, blocks: [section(esc(line))] };
}

/** A mention as Slack writes it: a user (U…/W…) or a user group (S…). */
export function mentionOf(target: string): string {
	return /^S[A-Z0-9]+$/.test(target)
		? `<!subteam^${target}>`
		: /^[UW][A-Z0-9]+$/.test(target)
			? `<@${target}>`
			: `@${esc(target)}`;
}

/** The thread reply re-announcing an open fault nobody acknowledged. */
export function reminderReply(
	alert: AlertRecord,
	level: 'remind' | 'escalate',
	mentions: readonly string[],
	timeZone: string,
): SlackMessage {
	const who = mentions.map(mentionOf).join(' ');
	const since = formatTime(alert.eventTime, timeZone);
	const line =
		level === 'escalate'
			? `:rotating_light: Escalation: ${alert.severity} ${alert.code} on ${assetLine(alert.asset)} is still open and nobody has acknowledged it (since ${since}).`
			: `:bell: Reminder: ${alert.severity} ${alert.code} on ${assetLine(alert.asset)} is still open and not acknowledged (since ${since}).`;
	const text = `${who ? `${who} ` : ''}${esc(line)} Press Acknowledge on the alert when you take it.`;
	return { text: truncate(text, 3000), blocks: [section(text)] };
}

/** The line an alert takes in a digest. */
export function alertLine(alert: AlertRecord, timeZone: string): string {
	const state =
		alert.status === 'Close'
			? ' :white_check_mark: resolved'
			: alert.ack
				? ` · acknowledged by <@${alert.ack.userId}>`
				: '';
	// The id comes first after the code so that truncation never cuts what identifies the event.
	const where = `${assetLine(alert.asset)} · ${alert.asset.group || '-'}`;
	return truncate(
		`${severityEmoji(alert.severity)} *${esc(alert.code)}* event ${esc(alert.eventId)}${state} · ${esc(where)} · ${formatTime(alert.eventTime, timeZone)} · ${esc(alert.content)}`,
		ALERT_LINE_MAX,
	);
}

/** Seven lines fit in one section. */
export const ALERT_LINE_MAX = 420;
