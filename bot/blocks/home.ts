import type { FleetGlance } from '../features/home/service';
import { assetLine, cbmEmoji, formatTime } from '../render/format';
import { linkText } from './links';
import { context, divider, esc, header, section, sectionsOf } from './kit';
import type { Block } from '../kernel/message';

/** Slack's Home tab holds up to 100 blocks; each list here is capped well inside. */
const MAX_LINES = 40;

function capped(lines: string[], empty: string, more: (n: number) => string): Block[] {
	if (lines.length === 0) return [section(empty)];
	const shown = lines.slice(0, MAX_LINES);
	if (lines.length > MAX_LINES) shown.push(more(lines.length - MAX_LINES));
	return sectionsOf(shown, 6);
}

/** The App Home: open faults by group, CBM units Yellow or Red, offline assets, active silences. */
export function homeView(
	glance: FleetGlance,
	timeZone: string,
	command: string,
): { type: 'home'; blocks: Block[] } {
	const faults = glance.faultsByGroup.map(
		(g) =>
			`:red_circle: *${esc(g.group)}*: ${g.count} open fault${g.count === 1 ? '' : 's'} · ${g.assets
				.slice(0, 5)
				.map((a) => esc(assetLine(a.asset)))
				.join(', ')}${g.assets.length > 5 ? ` and ${g.assets.length - 5} more` : ''}`,
	);
	const cbm = glance.cbm.map(
		(u) =>
			`${cbmEmoji(u.status)} *${esc(u.unit)}* of ${esc(assetLine(u.asset))} · ${esc(u.asset.group || '-')}: ${u.status}, plan by ${u.predictedStartPlanDate || 'now'}`,
	);
	const offline = glance.offline.map(
		(l) => `${esc(assetLine(l.asset))} · ${esc(l.asset.group || '-')}: ${linkText(l, timeZone)}`,
	);
	const blocks: Block[] = [
		header('Drive fleet at a glance'),
		context(
			`Updated ${formatTime(glance.at, timeZone)} · opens fresh every time · \`${command} help\` for commands`,
		),
		divider(),
		section(`*Open faults by group*`),
		...capped(faults, 'No open fault.', (n) => `…and ${n} more groups`),
		divider(),
		section('*CBM units in Yellow or Red*'),
		...capped(cbm, 'Every CBM unit is Good (or not analysed).', (n) => `…and ${n} more units`),
		divider(),
		section('*Offline or unknown assets*'),
		...capped(offline, 'Every monitored asset sends data.', (n) => `…and ${n} more assets`),
		divider(),
		section('*Active silences*'),
		...(glance.silences === undefined
			? [section('Silences are not set up in this bot.')]
			: capped(
					glance.silences.map(
						(s) =>
							`:no_bell: *${esc(s.target)}* until ${formatTime(s.until, timeZone)}${s.reason ? ` · ${esc(s.reason)}` : ''}${s.by ? ` · by <@${s.by}>` : ''}`,
					),
					'No silence is active.',
					(n) => `…and ${n} more`,
				)),
	];
	return { type: 'home', blocks };
}
