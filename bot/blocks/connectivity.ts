import { durationText, type Outage, stillOffline } from '../kernel/outage';
import { assetLine, formatTime } from '../render/format';
import { context, esc, header, sectionsOf } from './kit';
import type { SlackMessage } from '../kernel/message';

function scopeLabel(outage: Outage): string {
	return outage.scope
		? `${outage.scopeKind === 'plant' ? 'plant' : 'group'} ${outage.scope}`
		: `no ${outage.scopeKind}`;
}

function plural(n: number, word: string): string {
	return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The outage message: who is offline since when, and who is back (assumption B30). */
export function connectivityMessage(outage: Outage, timeZone: string): SlackMessage {
	const offline = stillOffline(outage);
	const total = outage.members.length;
	const where = scopeLabel(outage);
	const title =
		offline.length === 0
			? `✅ Back online: ${plural(total, 'asset')} in ${where}`
			: offline.length === total
				? `🔌 ${plural(total, 'asset')} offline in ${where}`
				: `🔌 ${offline.length} of ${total} assets still offline in ${where}`;
	const lines = outage.members.map((m) =>
		m.backAt === undefined
			? `:red_circle: *${esc(assetLine(m.asset))}* offline since ${formatTime(m.offlineSince, timeZone)}`
			: `:large_green_circle: ~${esc(assetLine(m.asset))}~ back ${formatTime(m.backAt, timeZone)} after ${durationText(m.offlineSince, m.backAt)}`,
	);
	// One gateway often serves a whole line: when they share one, it is the first thing to check.
	const gateways = [
		...new Set(outage.members.map((m) => m.gateway).filter((g): g is string => Boolean(g))),
	];
	const shared =
		gateways.length === 1 && outage.members.every((m) => m.gateway === gateways[0])
			? gateways[0]
			: undefined;
	const note =
		offline.length === 0
			? 'Every asset of this message sends data again.'
			: `While offline, no fault can reach this channel from these assets. Check ${shared ? `gateway ${esc(shared)}${total > 1 ? ' (all of them are behind it)' : ''}` : 'the gateway'}, its power and its network link.`;
	return {
		text: `${title}: ${outage.members.map((m) => assetLine(m.asset)).join(', ')}`.slice(0, 3000),
		blocks: [
			header(title),
			...sectionsOf(lines, 40),
			context(`${note} · ${esc(outage.members[0]?.asset.organization || '-')}`),
		],
	};
}

/** The thread reply when assets of an outage are back. */
export function connectivityBackReply(
	outage: Outage,
	returned: readonly number[],
	timeZone: string,
): SlackMessage {
	const back = outage.members.filter(
		(m) => returned.includes(m.asset.id) && m.backAt !== undefined,
	);
	const offline = stillOffline(outage);
	const names = back
		.map(
			(m) => `${assetLine(m.asset)} (offline ${durationText(m.offlineSince, m.backAt as string)})`,
		)
		.join(', ');
	const text =
		offline.length === 0
			? `:white_check_mark: All ${plural(outage.members.length, 'asset')} of ${scopeLabel(outage)} are back online: ${names}.`
			: `:white_check_mark: Back online: ${names}. Still offline: ${plural(offline.length, 'asset')}.`;
	const last = back
		.map((m) => m.backAt as string)
		.sort()
		.pop();
	return {
		text,
		blocks: [...sectionsOf([esc(text)], 3), context(`Seen online ${formatTime(last, timeZone)}`)],
	};
}
