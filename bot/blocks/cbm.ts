import type { CbmAlert } from '../kernel/alert';
import { assetLine, cbmEmoji, sparkline } from '../render/format';
import { context, esc, fields, header, section, sectionsOf } from './kit';
import type { SlackMessage } from '../kernel/message';

export function predictedDates(
	unit: Pick<CbmAlert, 'predictedNoPlanDate' | 'predictedStartPlanDate' | 'predictedRunPlanDate'>,
): Array<[string, string]> {
	// The spec: an empty date means the time is already past.
	const date = (value: string | undefined) => (value ? `${value} (UTC+8)` : 'already past');
	return [
		['Plan maintenance by', date(unit.predictedStartPlanDate)],
		['Run without plan until', date(unit.predictedNoPlanDate)],
		['Run with plan until', date(unit.predictedRunPlanDate)],
	];
}

/** A unit that moved to Yellow or Red. */
export function cbmMessage(cbm: CbmAlert): SlackMessage {
	const title = `CBM ${cbm.status}: ${cbm.unit} of ${cbm.asset.name}`;
	return {
		text: `${title} (${cbm.asset.serialNumber})${cbm.previous ? `, was ${cbm.previous}` : ''}`,
		blocks: [
			header(title),
			fields([
				['Asset', esc(assetLine(cbm.asset))],
				[
					'Unit',
					`${cbmEmoji(cbm.status)} ${esc(cbm.unit)}: ${cbm.status}${cbm.previous ? ` (was ${cbm.previous})` : ''}`,
				],
				['Group / plant', esc(`${cbm.asset.group || '-'} / ${cbm.asset.plant || '-'}`)],
				...predictedDates(cbm),
			]),
			...(cbm.kpis.length > 0
				? [
						section(`*30-day KPI*\n${sparkline(cbm.kpis, 'slack')}`),
						context(
							`${cbm.kpis[0].date} to ${cbm.kpis[cbm.kpis.length - 1].date} (UTC+8) · green good, yellow, red`,
						),
					]
				: []),
		],
	};
}

/** The thread reply when the unit is back to Good. */
export function cbmRecoveredReply(cbm: CbmAlert): SlackMessage {
	const line = `${cbmEmoji('Good')} ${cbm.unit} of ${assetLine(cbm.asset)} is back to Good${cbm.previous ? ` (was ${cbm.previous})` : ''}.`;
	return { text: line, blocks: [section(esc(line))] };
}

/** The optional daily digest: every unit not Good in the channel's scope. */
export function cbmDigestMessage(units: readonly CbmAlert[], day: string): SlackMessage {
	const text =
		units.length === 0
			? `CBM digest ${day}: every unit is Good.`
			: `CBM digest ${day}: ${units.length} units need attention`;
	const lines = units.map(
		(u) =>
			`${cbmEmoji(u.status)} *${esc(u.unit)}* ${esc(assetLine(u.asset))}: ${u.status}, plan by ${u.predictedStartPlanDate || 'now'} ${sparkline(u.kpis.slice(-10), 'slack')}`,
	);
	return { text, blocks: [header(text), ...sectionsOf(lines, 45)] };
}
