import type { AssetRef } from '../kernel/alert';
import type { AssetStatus, CbmSection, CommandResult } from '../features/commands/model';
import type { Silence } from '../features/oncall/store';
import type { PlatformEvent } from '../platform/types';
import {
	assetLine,
	cbmEmoji,
	conditionEmoji,
	formatTime,
	severityEmoji,
	sparkline,
} from '../render/format';
import { DETAILS_ACTION } from './alert';
import { predictedDates } from './cbm';
import { linkText, offlineBlocks } from './links';
import { reportStartedAnswer } from './report';
import { signalBlocks, trendAnswer } from './trend';
import {
	actions,
	button,
	context,
	divider,
	esc,
	fields,
	header,
	LIMITS,
	section,
	table,
	withTable,
} from './kit';
import type { SourceStatus } from '../kernel/source-status';
import type { Block, SlackMessage } from '../kernel/message';

/** The subcommands, in help order: the `help` answer and docs/reference/bot-commands.md are both built from this list. */
export const SUBCOMMANDS: readonly { usage: string; meaning: string }[] = [
	{ usage: 'status <asset>', meaning: 'detail, conditions, open events, CBM summary, latest data' },
	{ usage: 'events <asset> [24h|7d|30d|...]', meaning: 'events in a period (default 24h)' },
	{ usage: 'cbm <asset>', meaning: 'CBM units, predicted dates and the 30-day KPI trend' },
	{
		usage: 'health [group]',
		meaning: 'fleet summary, counts by condition, assets with open faults',
	},
	{ usage: 'find <text>', meaning: 'assets whose name, serial number or group contains the text' },
	{
		usage: 'report <asset|group> [7d|30d|from..to] [title]',
		meaning: 'a drive or fleet report, posted here as a PDF',
	},
	{
		usage: 'trend <asset> <signal> [24h|7d|30d]',
		meaning: 'a chart of a signal (speed, current, temperature...), posted here',
	},
	{
		usage: 'mute <asset|group <name>|plant <name>> <30m|2h|1d> [reason]',
		meaning: 'record alerts without posting them (maintenance); `unmute …`, `mutes` lists them',
	},
	{ usage: 'help', meaning: 'this list' },
];

export const ASSET_NOTE = 'An asset is a name, a serial number or an id.';

export const HELP_LINES = (command: string): string[] => [
	...SUBCOMMANDS.map((s) => `\`${command} ${s.usage}\`: ${s.meaning}`),
	ASSET_NOTE,
];

function assetList(assets: readonly AssetRef[]): string {
	return assets
		.map(
			(a) =>
				`• ${esc(assetLine(a))} · ${esc(a.group || '-')} · ${esc(a.organization || '-')} · id ${a.id}`,
		)
		.join('\n');
}

/** Rows a table shows below its header row. */
const TABLE_ROWS = LIMITS.tableRows - 1;

/** `/drive events` as a table (newest first), the count and the open ones in the text fallback. */
function eventsMessage(
	result: Extract<CommandResult, { kind: 'events' }>,
	timeZone: string,
): SlackMessage {
	const title = `Events of ${assetLine(result.asset)}, last ${result.range}`;
	if (result.denied)
		return {
			text: `${title}: ${result.denied}`,
			blocks: [header(title), section(`:lock: ${esc(result.denied)}`)],
		};
	if (result.events.length === 0)
		return {
			text: `${title}: no events`,
			blocks: [header(title), section('No events in this period.')],
		};
	const open = result.events.filter((e) => e.eventStatus !== 'Close').length;
	const summary = `${result.events.length} event${result.events.length === 1 ? '' : 's'}, ${open} open`;
	const more =
		result.events.length > TABLE_ROWS
			? ` · the newest ${TABLE_ROWS} are shown; a shorter period shows the rest`
			: '';
	const rows = result.events
		.slice(0, TABLE_ROWS)
		.map((e) => [
			formatTime(e.eventDateTime, timeZone),
			e.eventType,
			String(e.eventCode ?? ''),
			String(e.content ?? ''),
			e.eventStatus === 'Close' ? 'closed' : 'open',
		]);
	return withTable(
		{
			text: `${title}: ${summary}`,
			blocks: [header(title), context(`${summary}, newest first${more}`)],
		},
		table(['Time', 'Severity', 'Code', 'Event', 'Status'], rows),
	);
}

/** `/drive find` as a table; one match gets its Details button. */
function findMessage(result: Extract<CommandResult, { kind: 'find' }>): SlackMessage {
	if (result.matches.length === 0)
		return {
			text: `No asset matches "${result.query}"`,
			blocks: [section(`No asset matches *${esc(result.query)}*.`)],
		};
	const names = result.matches.slice(0, 5).map(assetLine).join(', ');
	const text = `${result.matches.length}${result.more ? '+' : ''} assets match "${result.query}": ${names}${result.matches.length > 5 ? ', …' : ''}`;
	return withTable(
		{
			text,
			blocks: [
				section(
					`Assets matching *${esc(result.query)}*${result.more ? ' (more match; narrow the text)' : ''}:`,
				),
				...(result.matches.length === 1
					? [actions(button('Details', DETAILS_ACTION, String(result.matches[0].id)))]
					: []),
			],
		},
		table(
			['Asset', 'Serial number', 'Group', 'Organization', 'Id'],
			result.matches.map((a) => [
				a.name,
				a.serialNumber,
				a.group || '-',
				a.organization || '-',
				String(a.id),
			]),
			[null, null, null, null, 'right'],
		),
	);
}

function eventLines(events: readonly PlatformEvent[], timeZone: string, max: number): string[] {
	const lines = events
		.slice(0, max)
		.map(
			(e) =>
				`${severityEmoji(e.eventType)} ${formatTime(e.eventDateTime, timeZone)} *${esc(e.eventCode ?? '')}* ${esc(e.content ?? '')} · ${e.eventStatus === 'Close' ? 'closed' : '*open*'}`,
		);
	if (events.length > max) lines.push(`…and ${events.length - max} more`);
	return lines;
}

function cbmBlocks(cbm: CbmSection): Block[] {
	if (cbm.kind === 'denied') return [section(`*CBM*: ${esc(cbm.explanation)}`)];
	if (cbm.kind === 'none')
		return [
			section(
				'*CBM*: no CBM analysis for this asset (it is supported for two drive model families).',
			),
		];
	return cbm.units.map((u) =>
		section(
			`${cbmEmoji(u.status)} *${esc(u.unit)}*: ${u.status} · ${predictedDates(u)
				.map(([k, v]) => `${k} ${v}`)
				.join(' · ')}\n${sparkline(u.kpis, 'slack')}`,
		),
	);
}

function silenceLine(s: Silence, timeZone: string): string {
	return `:mute: ${esc(s.label)} muted until ${formatTime(new Date(s.until).toISOString(), timeZone)}${s.reason ? ` (${esc(s.reason)})` : ''}${s.createdBy ? ` by <@${s.createdBy}>` : ''} · silence ${s.id}`;
}

function silenceBlocks(silences: readonly Silence[] | undefined, timeZone: string): Block[] {
	return silences && silences.length > 0
		? [
				section(
					`*Silenced*\n${silences
						.slice(0, 10)
						.map((s) => silenceLine(s, timeZone))
						.join('\n')}`,
				),
			]
		: [];
}

function statusBlocks(s: AssetStatus, timeZone: string): Block[] {
	const conditions = Array.isArray(s.conditions)
		? s.conditions.map((c) => `${conditionEmoji(c.status)} ${c.type}: ${c.status}`).join('\n') ||
			'none reported'
		: esc(s.conditions.denied);
	return [
		header(`${s.asset.name} (${s.asset.serialNumber})`),
		fields([
			['Type / model', esc(`${s.assetType}${s.model ? ` / ${s.model}` : ''}`)],
			['Group / plant', esc(`${s.asset.group || '-'} / ${s.asset.plant || '-'}`)],
			['Organization', esc(s.asset.organization || '-')],
			['Subscription level', s.level ?? 'unknown'],
			['Latest data', formatTime(s.latestData, timeZone)],
			['Firmware', esc(s.firmware ?? '-')],
		]),
		section(`*Conditions*\n${conditions}`),
		section(
			`*Open events (last 7 days)*\n${s.eventsDenied ? esc(s.eventsDenied) : s.openEvents.length === 0 ? 'none' : eventLines(s.openEvents, timeZone, 10).join('\n')}`,
		),
		...cbmBlocks(s.cbm),
		...(s.link ? [section(`*Connectivity*: ${linkText(s.link, timeZone)}`)] : []),
		...signalBlocks(s.signals, timeZone),
		...silenceBlocks(s.silences, timeZone),
	];
}

/** A PowerTrain: a short block per member (drive, motor), within the 50-block limit. */
function powerTrainBlocks(
	asset: AssetRef,
	members: readonly AssetStatus[],
	silences: readonly Silence[],
	timeZone: string,
): Block[] {
	const blocks: Block[] = [
		header(`PowerTrain ${asset.name}`),
		context(`A PowerTrain is its drive and its motor: each is shown below.`),
	];
	for (const m of members.slice(0, 4)) {
		const conditions = Array.isArray(m.conditions)
			? m.conditions.map((c) => `${conditionEmoji(c.status)} ${c.type}: ${c.status}`).join(' · ') ||
				'none reported'
			: esc(m.conditions.denied);
		blocks.push(
			divider(),
			section(
				`*${esc(m.assetType)}: ${esc(assetLine(m.asset))}*${m.model ? ` · ${esc(m.model)}` : ''} · level ${m.level ?? 'unknown'} · latest data ${formatTime(m.latestData, timeZone)}`,
			),
			section(
				`*Conditions* ${conditions}\n*Open events (last 7 days)* ${m.openEvents.length === 0 ? 'none' : `\n${eventLines(m.openEvents, timeZone, 5).join('\n')}`}`,
			),
			...cbmBlocks(m.cbm).slice(0, 3),
			actions(
				button(`Details: ${m.asset.name}`, `${DETAILS_ACTION}:${m.asset.id}`, String(m.asset.id)),
			),
		);
	}
	return [...blocks, ...silenceBlocks(silences, timeZone)];
}

/** Block Kit for a command's answer. */
/** "Alerts by polling: 42 s behind (busy assets 12 s) · ..." for `/drive health` (B46). */
function sourceLine(source: SourceStatus): string {
	const late = source.lagSeconds > source.lagThresholdSeconds ? ' :warning: late' : '';
	if (source.kind === 'push') {
		return `Alerts by push: ${source.lagSeconds} s behind${late}${source.receivers ? `, ${source.receivers.connected} of ${source.receivers.configured} users connected` : ''}`;
	}
	const aside =
		source.setAside && source.setAside.events + source.setAside.cbm > 0
			? ` · set aside: ${source.setAside.events} for events, ${source.setAside.cbm} for CBM`
			: '';
	return `Alerts by polling: ${source.lagSeconds} s behind${late} (busy assets ${source.busyLagSeconds ?? 0} s)${source.plan ? ` · ${source.plan}` : ''}${aside}${source.connectivity ? ` · ${source.connectivity}` : ''}`;
}

export function commandMessage(result: CommandResult, timeZone: string): SlackMessage {
	switch (result.kind) {
		case 'help':
			return {
				text: `${result.command}: commands`,
				blocks: [
					section(
						`*${result.command}* answers about drives and motors:\n${HELP_LINES(result.command).join('\n')}`,
					),
				],
			};
		case 'usage':
			return {
				text: result.message,
				blocks: [section(`${result.message}\n${HELP_LINES(result.command).join('\n')}`)],
			};
		case 'refused':
		case 'error':
			return { text: result.message, blocks: [section(`:warning: ${esc(result.message)}`)] };
		case 'not_found':
			return {
				text: `No asset matches "${result.query}"`,
				blocks: [
					section(
						`No asset matches *${esc(result.query)}*.${result.suggestions.length ? ` Did you mean:\n${assetList(result.suggestions)}` : ''}`,
					),
				],
			};
		case 'ambiguous':
			return {
				text: `Several assets match "${result.query}"`,
				blocks: [
					section(
						`Several assets match *${esc(result.query)}*${(result.total ?? 0) > result.matches.length ? ` (${result.total}; the first ${result.matches.length} by name)` : ''}; name one:\n${assetList(result.matches)}`,
					),
				],
			};
		case 'status':
			return {
				text: `Status of ${assetLine(result.asset)}`,
				blocks: statusBlocks(result, timeZone),
			};
		case 'events':
			return eventsMessage(result, timeZone);
		case 'cbm':
			return {
				text: `CBM of ${assetLine(result.asset)}`,
				blocks: [
					header(`CBM of ${result.asset.name}`),
					...cbmBlocks(result.cbm),
					context('KPI: oldest day first; green good, yellow, red; dates UTC+8'),
				],
			};
		case 'health': {
			const title = `Fleet health${result.group ? `: ${result.group}` : ''}`;
			const counts =
				Object.entries(result.byStatus)
					.map(([status, n]) => `${conditionEmoji(status)} ${status}: ${n}`)
					.join('   ') || 'no condition known yet';
			const faults = result.openFaults
				.slice(0, 20)
				.map((f) => `• ${esc(assetLine(f.asset))}: ${f.count} open fault${f.count > 1 ? 's' : ''}`);
			return {
				text: `${title}: ${result.assets} assets, ${result.openFaults.length} with open faults`,
				blocks: [
					header(title),
					section(
						`*${result.assets} assets* · Overall condition: ${counts}${result.known < result.assets ? ` (${result.known} of ${result.assets} read so far)` : ''}`,
					),
					divider(),
					section(`*Assets with open faults*\n${faults.length ? faults.join('\n') : 'none'}`),
					...offlineBlocks(result.offlineByGroup),
					...(result.sources?.length ? [context(...result.sources.map(sourceLine))] : []),
				],
			};
		}
		case 'report_started':
			return reportStartedAnswer(result);
		case 'trend':
			return trendAnswer(result, timeZone);
		case 'powertrain':
			return {
				text: `Status of PowerTrain ${result.asset.name}: ${result.members.map((m) => assetLine(m.asset)).join(' and ')}`,
				blocks: powerTrainBlocks(result.asset, result.members, result.silences, timeZone),
			};
		case 'notice':
			return { text: result.message, blocks: [section(esc(result.message))] };
		case 'mutes':
			return {
				text:
					result.silences.length === 0
						? 'Nothing is muted.'
						: `${result.silences.length} active silence${result.silences.length === 1 ? '' : 's'}`,
				blocks: [
					section(
						result.silences.length === 0
							? `Nothing is muted. \`${result.command} mute <asset> 2h\` starts a silence.`
							: `*Active silences*\n${result.silences
									.slice(0, 30)
									.map((s) => silenceLine(s, timeZone))
									.join('\n')}`,
					),
				],
			};
		case 'find':
			return findMessage(result);
	}
}
