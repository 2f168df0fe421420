/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console -- a build script, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The picture of the bot in docs/architecture.md (docs/images/bot-roles.svg and the section between its
// bot-roles markers): what every replica runs, what only the leader runs, and the path of a fault from the
// platform to a Slack message. Everything in it is read from the modules BOT_LAYOUT names: each part's module
// must exist and declare the symbol it names, a folder stands for every module in it, and each part must be
// started by the code of its role (the composition root for every replica, the leader's duties for the leader).
// A renamed or moved module, or a part started by the other role, stops the script with what to change here.
//
// Regenerate:  node --require ./bench/n8n/swc-register.js scripts/docs-architecture.ts
// test/docs/architecture.test.ts fails when the committed picture or section differs from what this draws.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A part of the bot: a module (or a folder: every module in it) and the symbol it is known by. */
export interface Part {
	label: string;
	/** A .ts file, or a folder ending in / (its modules, read from the tree). */
	module: string;
	/** Declared in the module (a folder: in one of its modules): a function, class, constant or method. */
	symbol: string;
}

/** The code that starts a role's parts: a module, or one function of it. */
export interface Root {
	module: string;
	within?: string;
	/** A function inside `within` whose body belongs to the other role. */
	except?: string;
}

export interface Step extends Part {
	/** Where the step runs, when it is not a part of the bot. */
	outside?: 'platform' | 'Slack';
}

export interface BotLayout {
	everyReplica: { roots: Root[]; parts: Part[] };
	leader: { roots: Root[]; parts: Part[] };
	/** A fault from the platform to a Slack message; `alternative` steps are drawn beside the one before. */
	faultPath: Array<Step & { alternative?: boolean }>;
}

/**
 * The bot as the picture shows it. This table is all there is to change when the bot's modules move:
 * point a part at its new module (or folder) and symbol, and a role at the code that starts it.
 */
export const BOT_LAYOUT: BotLayout = {
	everyReplica: {
		roots: [
			{ module: 'bot/app/start.ts', within: 'startBot' },
			{ module: 'bot/app/compose.ts' },
			{ module: 'bot/app/replica.ts' },
			{ module: 'bot/app/role.ts' },
			{ module: 'bot/cli.ts' },
			{ module: 'bot/cli/front.ts' },
		],
		parts: [
			{ label: 'Slack app and listeners', module: 'bot/slack/app.ts', symbol: 'createSlackApp' },
			{ label: '/drive commands', module: 'bot/features/commands/', symbol: 'CommandHandler' },
			{ label: 'On-call: acknowledge, silence', module: 'bot/features/oncall/', symbol: 'OnCall' },
			{
				label: 'Connectivity: online and offline',
				module: 'bot/features/connectivity/',
				symbol: 'ConnectivityTracker',
			},
			{ label: 'Reports on request', module: 'bot/features/reports/', symbol: 'ReportService' },
			{ label: 'Alert engine: routing', module: 'bot/features/alerts/', symbol: 'AlertEngine' },
			{
				label: 'Outbox dispatcher (idle unless leading)',
				module: 'bot/leader/outbox/dispatcher.ts',
				symbol: 'Dispatcher',
			},
			{ label: 'State: SQLite or PostgreSQL', module: 'bot/state/', symbol: 'openDatabase' },
			{
				label: 'Leadership: lease and fence',
				module: 'bot/cluster/',
				symbol: 'startLeadership',
			},
			{
				label: 'Ops: /healthz, /readyz, /metrics',
				module: 'bot/ops/server.ts',
				symbol: 'startOpsServer',
			},
		],
	},
	leader: {
		roots: [
			{ module: 'bot/app/leader.ts' },
			{ module: 'bot/leader/sources/start.ts' },
			{ module: 'bot/leader/sources/push-users.ts' },
		],
		parts: [
			{
				label: 'Push source (AMQP 1.0, MQTT)',
				module: 'bot/leader/sources/push.ts',
				symbol: 'startPushSource',
			},
			{
				label: 'Poll source (E14 by plan)',
				module: 'bot/leader/sources/poll.ts',
				symbol: 'startPollSource',
			},
			{
				label: 'Connectivity poll (E8)',
				module: 'bot/leader/sources/connectivity-poll.ts',
				symbol: 'startConnectivityPoll',
			},
			{
				label: 'Connectivity sweeps',
				module: 'bot/leader/jobs/connectivity-sweeps.ts',
				symbol: 'startConnectivitySweeps',
			},
			{
				label: 'Report schedules',
				module: 'bot/leader/jobs/report-schedule.ts',
				symbol: 'ReportScheduler',
			},
			{
				label: 'Report checks (E22)',
				module: 'bot/leader/jobs/report-checks.ts',
				symbol: 'startReportChecks',
			},
			{
				label: 'CBM daily digest',
				module: 'bot/leader/jobs/cbm-digest.ts',
				symbol: 'startCbmDigest',
			},
			{
				label: 'On-call reminders and escalations',
				module: 'bot/leader/jobs/oncall-checks.ts',
				symbol: 'startOnCallChecks',
			},
			{
				label: 'Outbox: send the calls',
				module: 'bot/leader/outbox/dispatcher.ts',
				symbol: 'kick',
			},
		],
	},
	faultPath: [
		{
			label: 'The platform pushes an AssetEvent',
			module: 'shared/push/create-receiver.ts',
			symbol: 'createPushReceiver',
			outside: 'platform',
		},
		{
			label: 'Push source takes the delivery',
			module: 'bot/leader/sources/push.ts',
			symbol: 'startPushSource',
		},
		{
			label: 'or the poll source reads it (E14)',
			module: 'bot/leader/sources/poll.ts',
			symbol: 'startPollSource',
			alternative: true,
		},
		{
			label: 'Alert engine routes it to channels',
			module: 'bot/features/alerts/routing.ts',
			symbol: 'routeAlert',
		},
		{
			label: 'The alert and its Slack call are stored',
			module: 'bot/features/alerts/outbox.ts',
			symbol: 'enqueue',
		},
		{
			label: 'The outbox sends the call',
			module: 'bot/leader/outbox/dispatcher.ts',
			symbol: 'kick',
		},
		{
			label: 'The handler of its kind makes it once',
			module: 'bot/leader/outbox/handlers/alert.ts',
			symbol: 'sendAlert',
		},
		{
			label: 'The lease is checked before the call',
			module: 'bot/leader/outbox/fenced.ts',
			symbol: 'fencedDelivery',
		},
		{ label: 'Block Kit message', module: 'bot/blocks/alert.ts', symbol: 'alertMessage' },
		{
			label: 'chat.postMessage to Slack',
			module: 'bot/slack/notifier.ts',
			symbol: 'SlackNotifier',
			outside: 'Slack',
		},
	],
};

const root = join(__dirname, '..');

/** Thrown when the table names what the code does not have: says which entry to change. */
export class LayoutError extends Error {}

function source(file: string): string {
	if (!existsSync(join(root, file)))
		throw new LayoutError(
			`${file} is not in the tree: point its entry in BOT_LAYOUT (scripts/docs-architecture.ts) at where it is now`,
		);
	return readFileSync(join(root, file), 'utf8');
}

/** The .ts modules a part stands for: the file, or every module in the folder (sorted, tests left out). */
export function modulesOf(module: string): string[] {
	if (!module.endsWith('/')) return [module];
	if (!existsSync(join(root, module)) || !statSync(join(root, module)).isDirectory())
		throw new LayoutError(
			`${module} is not a folder of the tree: point its entry in BOT_LAYOUT (scripts/docs-architecture.ts) at where it is now`,
		);
	const files: string[] = [];
	for (const entry of readdirSync(join(root, module), { withFileTypes: true })) {
		const path = `${module}${entry.name}`;
		if (entry.isDirectory()) files.push(...modulesOf(`${path}/`));
		else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(path);
	}
	return files.sort();
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether the code declares `symbol`: a function, class, constant, type or method of that name. */
function declares(code: string, symbol: string): boolean {
	const name = escapeRegExp(symbol);
	return new RegExp(
		`(?:function\\*?|class|const|let|interface|type|enum)\\s+${name}\\b|^\\s*(?:(?:public|private|protected|static|async|readonly)\\s+)*${name}\\s*[(<=:]`,
		'm',
	).test(code);
}

function checkPart(part: Part): void {
	const modules = modulesOf(part.module);
	if (!modules.some((file) => declares(source(file), part.symbol)))
		throw new LayoutError(
			`${part.module} declares no ${part.symbol} ("${part.label}"): name the symbol it has now in BOT_LAYOUT (scripts/docs-architecture.ts)`,
		);
}

/** The body of function `name` in `code`, from its first line to its closing brace. */
function functionBody(code: string, name: string, file: string): { start: number; end: number } {
	const at = new RegExp(
		`(?:function\\s+${escapeRegExp(name)}\\b|\\b${escapeRegExp(name)}\\s*=\\s*(?:async\\s*)?\\()`,
	).exec(code);
	const open = at ? code.indexOf('{\n', at.index) : -1;
	if (!at || open < 0)
		throw new LayoutError(
			`${file} has no function ${name}: point the role's root in BOT_LAYOUT (scripts/docs-architecture.ts) at the code that starts it`,
		);
	let depth = 0;
	for (let i = open; i < code.length; i++) {
		if (code[i] === '{') depth++;
		else if (code[i] === '}' && --depth === 0) return { start: at.index, end: i + 1 };
	}
	return { start: at.index, end: code.length };
}

/** The code of a role's roots: what starts that role's parts. */
function rootCode(roots: Root[]): string {
	return roots
		.map((r) => {
			const code = source(r.module);
			if (!r.within) return code;
			const body = functionBody(code, r.within, r.module);
			const text = code.slice(body.start, body.end);
			if (!r.except) return text;
			const inner = functionBody(text, r.except, r.module);
			return text.slice(0, inner.start) + text.slice(inner.end);
		})
		.join('\n');
}

function checkRole(name: string, role: BotLayout['leader']): void {
	const code = rootCode(role.roots);
	for (const part of role.parts) {
		checkPart(part);
		if (!new RegExp(`\\b${escapeRegExp(part.symbol)}\\b`).test(code))
			throw new LayoutError(
				`${part.symbol} ("${part.label}") is not started by the code of ${name} (${role.roots.map((r) => r.within ?? r.module).join(', ')}): move it to the other role in BOT_LAYOUT (scripts/docs-architecture.ts), or point the role at the code that starts it`,
			);
	}
}

/** Checks the table against the code: every module, symbol and role as it names them. */
export function checkLayout(layout: BotLayout): void {
	checkRole('every replica', layout.everyReplica);
	checkRole('the leader', layout.leader);
	for (const step of layout.faultPath) checkPart(step);
}

// Drawing: an SVG of fixed-width text, so the same table draws the same bytes on any machine.
const FONT = 'font-family="DejaVu Sans, Helvetica, Arial, sans-serif"';
const MONO = 'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace"';
const COLORS = {
	replica: { fill: '#eef4fb', stroke: '#4a79b4' },
	leader: { fill: '#fdf1e4', stroke: '#c77a22' },
	platform: { fill: '#eeeeee', stroke: '#777777' },
	Slack: { fill: '#f3e9f5', stroke: '#7b3f8c' },
};
type Tone = keyof typeof COLORS;

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function box(x: number, y: number, w: number, h: number, tone: Tone, lines: string[]): string {
	const { fill, stroke } = COLORS[tone];
	const [label, ...code] = lines;
	return [
		`<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="6" fill="${fill}" stroke="${stroke}"/>`,
		`<text x="${x + 10}" y="${y + 18}" ${FONT} font-size="13" font-weight="bold" fill="#222">${xml(label)}</text>`,
		...code.map(
			(line, i) =>
				`<text x="${x + 10}" y="${y + 35 + i * 15}" ${MONO} font-size="11" fill="#444">${xml(line)}</text>`,
		),
	].join('\n');
}

const partLines = (part: Part) => [part.label, `${part.module}  ${part.symbol}`];

function columnSvg(x: number, y: number, width: number, title: string, tone: Tone, parts: Part[]) {
	const items = parts.map((part, i) => box(x, y + 30 + i * 52, width, 44, tone, partLines(part)));
	return {
		svg: [
			`<text x="${x}" y="${y + 16}" ${FONT} font-size="15" font-weight="bold" fill="${COLORS[tone].stroke}">${xml(title)}</text>`,
			...items,
		].join('\n'),
		bottom: y + 30 + parts.length * 52,
	};
}

/**
 * Where each step of the path runs: the platform or Slack, or the bot; in the bot, on the leader from the first
 * step that is one of the leader's parts on (what the leader's code calls runs in the leader's process).
 */
function tonesOf(layout: BotLayout): Tone[] {
	let leading = false;
	return layout.faultPath.map((step) => {
		if (step.outside) return step.outside;
		const leaders = layout.leader.parts.some(
			(p) => p.module === step.module && p.symbol === step.symbol,
		);
		if (leaders && !step.alternative) leading = true;
		return leading || leaders ? 'leader' : 'replica';
	});
}

function pathSvg(x: number, y: number, width: number, layout: BotLayout) {
	const out = [
		`<text x="${x}" y="${y + 16}" ${FONT} font-size="15" font-weight="bold" fill="#333">A fault, from the platform to a Slack message</text>`,
	];
	const half = (width - 40) / 2;
	// Wider gaps than the role columns': each arrow of the path is seen whole between its two steps.
	const stride = 62;
	let top = y + 30;
	let previousBottom: number | undefined;
	const tones = tonesOf(layout);
	for (const [i, step] of layout.faultPath.entries()) {
		const tone = tones[i];
		const lines = [step.label, `${step.module}  ${step.symbol}`];
		if (step.alternative) {
			out.push(box(x + half + 40, top - stride, half, 44, tone, lines));
			out.push(arrow(x + half, top - stride + 22, x + half + 40, top - stride + 22, true));
			continue;
		}
		if (previousBottom !== undefined)
			out.push(arrow(x + half / 2, previousBottom, x + half / 2, top));
		out.push(box(x, top, half, 44, tone, lines));
		previousBottom = top + 44;
		top += stride;
	}
	const legend: Array<[Tone, string]> = [
		['replica', 'every replica'],
		['leader', 'only the leader'],
		['platform', 'the platform'],
		['Slack', 'Slack'],
	];
	legend.forEach(([tone, text], i) => {
		const ly = y + 150 + i * 26;
		out.push(
			`<rect x="${x + half + 40}" y="${ly}" width="18" height="18" rx="3" fill="${COLORS[tone].fill}" stroke="${COLORS[tone].stroke}"/>`,
			`<text x="${x + half + 66}" y="${ly + 14}" ${FONT} font-size="13" fill="#333">${xml(text)}</text>`,
		);
	});
	return { svg: out.join('\n'), bottom: top };
}

function arrow(x1: number, y1: number, x2: number, y2: number, dashed = false): string {
	return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#555" stroke-width="1.5"${dashed ? ' stroke-dasharray="4 3"' : ' marker-end="url(#arrow)"'}/>`;
}

export function renderSvg(layout: BotLayout = BOT_LAYOUT): string {
	checkLayout(layout);
	const width = 1100;
	const column = (width - 60) / 2;
	const replica = columnSvg(20, 50, column, 'Every replica', 'replica', layout.everyReplica.parts);
	const leader = columnSvg(
		40 + column,
		50,
		column,
		'Only the leader',
		'leader',
		layout.leader.parts,
	);
	const path = pathSvg(20, Math.max(replica.bottom, leader.bottom) + 20, width - 40, layout);
	const height = path.bottom + 20;
	return `${[
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
		'<defs><marker id="arrow" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto" markerUnits="userSpaceOnUse"><path d="M0,0 L8,4 L0,8 z" fill="#555"/></marker></defs>',
		`<rect width="${width}" height="${height}" fill="#ffffff"/>`,
		`<text x="20" y="28" ${FONT} font-size="18" font-weight="bold" fill="#222">The Slack bot: its roles and the path of a fault</text>`,
		replica.svg,
		leader.svg,
		path.svg,
		'</svg>',
	].join('\n')}\n`;
}

const link = (module: string) => `[${module}](../${module})`;
const partItem = (part: Part) => `- ${part.label}: \`${part.symbol}\` in ${link(part.module)}`;
/** "A, B and C start" (or "A starts"): the code that starts a role's parts. */
function rootsStart(roots: Root[]): string {
	const names = roots.map((r) =>
		r.within ? `\`${r.within}\` in ${link(r.module)}` : link(r.module),
	);
	const last = names.pop();
	return names.length > 0 ? `${names.join(', ')} and ${last} start` : `${last} starts`;
}

export const START =
	'<!-- bot-roles: drawn by scripts/docs-architecture.ts; do not edit by hand -->';
export const END = '<!-- /bot-roles -->';

/** The section of docs/architecture.md between START and END. */
export function renderSection(layout: BotLayout = BOT_LAYOUT): string {
	checkLayout(layout);
	const exceptions = layout.everyReplica.roots
		.filter((r) => r.except)
		.map((r) => `\`${r.except}\``);
	return [
		START,
		'',
		'![The bot: what every replica runs, what only the leader runs, and the path of a fault](images/bot-roles.svg)',
		'',
		`**Every replica** runs what ${rootsStart(layout.everyReplica.roots)}${exceptions.length ? ` (outside ${exceptions.join(', ')})` : ''}:`,
		...layout.everyReplica.parts.map(partItem),
		'',
		`**Only the leader** runs what ${rootsStart(layout.leader.roots)} (a single process on SQLite always leads):`,
		...layout.leader.parts.map(partItem),
		'',
		'**A fault, from the platform to a Slack message:**',
		...layout.faultPath.map(
			(step, i) =>
				`${step.alternative ? '   -' : `${layout.faultPath.slice(0, i + 1).filter((s) => !s.alternative).length}.`} ${step.label}: \`${step.symbol}\` in ${link(step.module)}`,
		),
		'',
		'Redraw: `node --require ./bench/n8n/swc-register.js scripts/docs-architecture.ts` (the table `BOT_LAYOUT` in',
		'that script names each part; `test/docs/architecture.test.ts` fails when this section or the picture is stale).',
		'',
		END,
	].join('\n');
}

/** The document with its bot-roles section replaced (or added at the end). */
export function withSection(doc: string, section: string): string {
	const start = doc.indexOf(START);
	const end = doc.indexOf(END);
	if (start < 0 || end < start)
		return `${doc.trimEnd()}\n\n## The bot's roles and a fault's path\n\n${section}\n`;
	return doc.slice(0, start) + section + doc.slice(end + END.length);
}

if (require.main === module) {
	const svg = renderSvg();
	writeFileSync(join(root, 'docs', 'images', 'bot-roles.svg'), svg);
	const docFile = join(root, 'docs', 'architecture.md');
	writeFileSync(docFile, withSection(readFileSync(docFile, 'utf8'), renderSection()));
	console.log('docs/images/bot-roles.svg and the bot-roles section of docs/architecture.md drawn');
}
