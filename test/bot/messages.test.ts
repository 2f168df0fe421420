import type { AlertRecord, AssetRef, CbmAlert } from '../../bot/kernel/alert';
import { alertMessage, reminderReply, resolvedReply } from '../../bot/blocks/alert';
import { cbmDigestMessage, cbmMessage, cbmRecoveredReply } from '../../bot/blocks/cbm';
import { commandMessage } from '../../bot/blocks/command';
import { digestMessage } from '../../bot/blocks/digest';
import { homeView } from '../../bot/blocks/home';
import {
	reportCreatingMessage,
	reportFailedMessage,
	reportReadyMessage,
	reportStartedAnswer,
} from '../../bot/blocks/report';
import { silenceSummaryMessage } from '../../bot/blocks/silence';
import type { AssetStatus, CommandResult } from '../../bot/features/commands/model';
import type { PlatformEvent } from '../../bot/platform/types';
import { messageToText } from '../../bot/render/text';
import { blockKitProblems } from './slack-server';
import type { SlackMessage } from '../../bot/kernel/message';

// Every message the bot builds, checked twice: as Slack would take it (blocks, and the table in
// the attachments) and as the text fallback and terminal rendering a reader without blocks gets.
const asset: AssetRef = {
	id: 7,
	name: 'Pump 3 drive',
	serialNumber: 'D12345678',
	organization: 'Harbor Water',
	organizationId: 2,
	group: 'Pumps',
	groupId: 11,
	plant: 'North Plant',
};
const long = (n: number) => 'x'.repeat(n);

function alert(i: number, content = 'Overcurrent'): AlertRecord {
	return {
		key: `7:${i}`,
		eventId: String(500_000 + i),
		severity: 'Fault',
		asset,
		code: '2310',
		content,
		eventTime: '2026-11-21T14:00:00Z',
		status: 'Open',
		deviceWorkStatus: 1,
		hasLogger: true,
	};
}

function event(i: number): PlatformEvent {
	return {
		id: i,
		eventType: i % 2 ? 'Fault' : 'Warning',
		eventCode: `C${i}`,
		eventDateTime: new Date(Date.UTC(2026, 10, 21, 0, i)).toISOString(),
		eventStatus: i % 3 ? 'Close' : 'Open',
		content: `Event text ${i} ${long(300)}`,
	};
}

const cbmUnit: CbmAlert = {
	key: '7:Fan',
	asset,
	unit: 'Fan',
	status: 'Red',
	previous: 'Yellow',
	predictedStartPlanDate: '2026-12-01',
	kpis: Array.from({ length: 30 }, (_, i) => ({
		date: `2026-10-${String(i + 1).padStart(2, '0')}`,
		kpi: i / 30,
	})),
};

const status: AssetStatus = {
	kind: 'status',
	asset,
	assetType: 'Drive',
	model: 'ACS880',
	firmware: '3.1',
	latestData: '2026-11-21T14:00:00Z',
	level: 'Premium',
	conditions: [{ type: 'Overall', status: 'Good' }],
	openEvents: Array.from({ length: 40 }, (_, i) => event(i * 3)),
	cbm: { kind: 'units', units: [cbmUnit] },
};

const refs = (n: number) =>
	Array.from({ length: n }, (_, i) => ({
		...asset,
		id: i + 1,
		name: `Pump ${i + 1} ${long(100)}`,
		serialNumber: `D${String(i).padStart(8, '0')}`,
	}));

/** One of every command answer, each as large as the bot makes them. */
const results: CommandResult[] = [
	{ kind: 'help', command: '/drive' },
	{ kind: 'usage', command: '/drive', message: '"x" is not a subcommand.' },
	{ kind: 'refused', message: 'Not here.' },
	{ kind: 'error', message: `The platform failed ${long(5000)}` },
	{ kind: 'not_found', query: 'pmup', suggestions: refs(5) },
	{ kind: 'ambiguous', query: 'pump', matches: refs(10), total: 20 },
	status,
	{ kind: 'events', asset, range: '30d', events: Array.from({ length: 250 }, (_, i) => event(i)) },
	{ kind: 'events', asset, range: '24h', events: [] },
	{
		kind: 'events',
		asset,
		range: '7d',
		events: [],
		denied: 'Event history needs Basic or better.',
	},
	{ kind: 'cbm', asset, cbm: { kind: 'units', units: [cbmUnit] } },
	{
		kind: 'health',
		assets: 10_000,
		known: 9_000,
		byStatus: { Good: 8_000, Poor: 1_000 },
		openFaults: refs(40).map((a) => ({ asset: a, count: 2 })),
		offlineByGroup: { Pumps: { offline: 3, unknown: 1 } },
	},
	{ kind: 'find', query: 'pump', matches: refs(20), more: true },
	{ kind: 'find', query: 'D00000000', matches: refs(1), more: false },
	{ kind: 'find', query: 'nothing', matches: [], more: false },
	{
		kind: 'report_started',
		reportId: 1,
		title: 'Weekly',
		what: 'drive report of Pump 3',
		startDate: '2026-11-14',
		endDate: '2026-11-21',
		note: 'Left out (x).',
	},
	{
		kind: 'trend',
		asset,
		parameter: { label: 'Speed', unit: 'rpm', code: 'speed' },
		range: '7d',
		points: 2016,
		gaps: 3,
		min: 0,
		avg: 1400,
		max: 1500,
		band: true,
		textChart: 'chart',
		postedTo: 'C1',
		chart: Array.from({ length: 20 }, (_, i) => ({
			label: `11-${String(i + 1).padStart(2, '0')} 00:00`,
			value: 1400 + i,
		})),
	},
	{ kind: 'powertrain', asset, members: [status, { ...status, assetType: 'Motor' }], silences: [] },
	{ kind: 'notice', message: 'Muted.' },
	{ kind: 'mutes', silences: [], command: '/drive' },
];

const messages: Array<[string, SlackMessage]> = [
	...results.map(
		(r, i) => [`command ${r.kind} #${i}`, commandMessage(r, '+08:00')] as [string, SlackMessage],
	),
	['alert', alertMessage(alert(1, long(10_000)), 'UTC')],
	['resolved', resolvedReply({ ...alert(2), status: 'Close', closeReason: 'Reset' }, 'UTC')],
	['reminder', reminderReply(alert(3), 'remind', ['S0ONCALL'], 'UTC')],
	[
		'digest',
		digestMessage(
			Array.from({ length: 300 }, (_, i) => alert(i)),
			[alert(900)],
			'UTC',
		),
	],
	['cbm', cbmMessage(cbmUnit)],
	['cbm recovered', cbmRecoveredReply({ ...cbmUnit, status: 'Good' })],
	[
		'cbm digest',
		cbmDigestMessage(
			Array.from({ length: 200 }, () => cbmUnit),
			'2026-11-21',
		),
	],
	[
		'silence summary',
		silenceSummaryMessage(
			{
				scope: 'group Pumps',
				from: 0,
				until: 7_200_000,
				alerts: Array.from({ length: 500 }, (_, i) => alert(i)),
			},
			'UTC',
		),
	],
	[
		'report started',
		reportStartedAnswer({
			reportId: 1,
			title: 'Weekly',
			what: 'drive report',
			startDate: '2026-11-14',
			endDate: '2026-11-21',
		}),
	],
	[
		'report creating',
		reportCreatingMessage({
			reportId: 1,
			title: 'Weekly',
			what: 'drive report',
			startDate: '2026-11-14',
			endDate: '2026-11-21',
		}),
	],
	[
		'report ready',
		reportReadyMessage({
			reportId: 1,
			title: 'Weekly',
			what: 'drive report',
			startDate: '2026-11-14',
			endDate: '2026-11-21',
		}),
	],
	[
		'report failed',
		reportFailedMessage(
			{
				reportId: 1,
				title: 'Weekly',
				what: 'drive report',
				startDate: '2026-11-14',
				endDate: '2026-11-21',
			},
			'Likely reason: none.',
		),
	],
];

test.each(messages)(
	'%s is valid Block Kit and reads as text without its blocks',
	(_name, message) => {
		expect(blockKitProblems(message.text, message.blocks, message.attachments)).toEqual([]);
		// The fallback notifications and screen readers get: a sentence, no raw Block Kit.
		expect(message.text.trim().length).toBeGreaterThan(5);
		expect(message.text).not.toMatch(/"type":/);
		expect(messageToText(message, () => '').trim().length).toBeGreaterThan(0);
	},
);

test("events and find are tables in the attachments, within Slack's 100 rows, with a text fallback that counts them", () => {
	const events = commandMessage(results[7], 'UTC');
	expect(events.text).toBe('Events of Pump 3 drive (D12345678), last 30d: 250 events, 84 open');
	const rows = (events.attachments?.[0].blocks[0] as { rows: unknown[][] }).rows;
	expect(rows).toHaveLength(100);
	expect(rows[0]).toEqual(
		['Time', 'Severity', 'Code', 'Event', 'Status'].map((text) => ({ type: 'raw_text', text })),
	);
	expect(JSON.stringify(events.blocks)).toContain('the newest 99 are shown');
	// The terminal (and a reader without tables) gets aligned columns.
	const text = messageToText(events, () => '');
	expect(text).toMatch(/ {2}Time {2,}Severity {2}Code {2,}Event/);
	// The first 99 as the handler ordered them (newest first), the rest left to a shorter period.
	expect(text).toMatch(/\bC98\b/);
	expect(text).not.toMatch(/\bC99\b/);
	const find = commandMessage(results[12], 'UTC');
	expect(find.text).toMatch(/^20\+ assets match "pump": Pump 1 /);
	expect((find.attachments?.[0].blocks[0] as { rows: unknown[][] }).rows).toHaveLength(21);
	const one = commandMessage(results[13], 'UTC');
	expect(JSON.stringify(one.blocks)).toContain('asset_details');
});

test('the validator refuses what Slack refuses in tables', () => {
	const cell = (text: string) => ({ type: 'raw_text', text });
	const tableOf = (rows: unknown[][], extra: object = {}) => ({ type: 'table', rows, ...extra });
	expect(blockKitProblems('t', [tableOf([[cell('a')]])])).toEqual([
		"blocks[0]: a table block goes in the message's attachments",
	]);
	expect(
		blockKitProblems(
			't',
			[],
			[{ blocks: [tableOf(Array.from({ length: 101 }, () => [cell('a')]))] }],
		),
	).toEqual(['attachments[0].blocks[0]: 101 rows > 100']);
	expect(
		blockKitProblems(
			't',
			[],
			[{ blocks: [tableOf([Array.from({ length: 21 }, () => cell('a'))])] }],
		),
	).toEqual(['attachments[0].blocks[0].rows[0]: 1 to 20 cells']);
	expect(blockKitProblems('t', [], [{ blocks: [tableOf([[cell('')]])] }])).toEqual([
		'attachments[0].blocks[0].rows[0][0]: a cell is raw_text with text, or rich_text',
	]);
	expect(
		blockKitProblems(
			't',
			[],
			[{ blocks: [tableOf([[cell('a')]], { column_settings: [{ align: 'middle' }] })] }],
		),
	).toEqual(['attachments[0].blocks[0].column_settings[0].align: left, center or right']);
});

test('the App Home keeps sections: Slack shows table blocks in messages only', () => {
	const view = homeView(
		{
			at: '2026-11-21T14:00:00Z',
			faultsByGroup: [{ group: 'Pumps', count: 2, assets: [{ asset, count: 2 }] }],
			cbm: [cbmUnit],
			offline: [],
			silences: [],
		},
		'UTC',
		'/drive',
	);
	expect(view.blocks.some((b) => b.type === 'table')).toBe(false);
	expect(blockKitProblems('home', view.blocks)).toEqual([]);
});

test("a trend carries Slack's line chart beside the text chart, and the validator refuses what Slack refuses in charts", () => {
	const trend = commandMessage(results[16], 'UTC');
	const chart = trend.blocks.find((b) => b.type === 'data_visualization') as {
		title: string;
		chart: {
			series: Array<{ data: unknown[] }>;
			axis_config: { categories: string[]; y_label?: string };
		};
	};
	expect(chart.title).toBe('Speed of Pump 3 drive');
	expect(chart.chart.series[0].data).toHaveLength(20);
	expect(chart.chart.axis_config).toMatchObject({ y_label: 'rpm' });
	expect(messageToText(trend, () => '')).toContain(
		'Speed of Pump 3 drive (D12345678), last 7d\nmin 0 rpm',
	);
	expect(trend.blocks.some((b) => b.type === 'section' && b.text?.text === '```\nchart\n```')).toBe(
		true,
	);
	const bad = (patch: object) => blockKitProblems('t', [{ ...chart, ...patch }]);
	expect(bad({ title: long(51) })).toEqual(['blocks[0].title: 1 to 50 characters']);
	expect(bad({ chart: { ...chart.chart, axis_config: { categories: [long(21)] } } })).toContain(
		'blocks[0].axis_config.categories: labels of at most 20 characters',
	);
	expect(bad({ chart: { ...chart.chart, axis_config: { categories: ['a'] } } })).toEqual([
		'blocks[0].chart.series[0].data: points on the categories, with finite values',
	]);
	// Too few points for a line: no chart, the text chart alone.
	const flat = commandMessage(
		{
			...(results[16] as Extract<CommandResult, { kind: 'trend' }>),
			chart: [{ label: 'a', value: 1 }],
		},
		'UTC',
	);
	expect(flat.blocks.some((b) => b.type === 'data_visualization')).toBe(false);
});
