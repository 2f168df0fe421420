/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- a build script, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The README's picture (docs/images/alert-and-workflow.png): the bot's real alert message (bot/blocks/alert.ts, for
// a drive of the simulator's seeded fleet) drawn as Slack shows Block Kit, beside the example workflow
// examples/new-faults-to-chat.json drawn as n8n's canvas from its nodes, positions and connections.
//
// Regenerate:  node --require ./bench/n8n/swc-register.js scripts/docs-picture.ts
// It writes docs/images/alert-and-workflow.html, then screenshots it with Debian's chromium (headless); set
// CHROMIUM to another Chrome/Chromium binary if needed. Nothing here talks to Slack or n8n: no Slack workspace or
// n8n instance is needed, and the picture changes only when the alert blocks, the fleet seed or the example change.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AlertRecord } from '../bot/kernel/alert';
import { alertMessage } from '../bot/blocks/alert';
import { seedFleet } from '../simulator/fleet/seed';
import type { Block } from '../bot/kernel/message';

const root = join(__dirname, '..');
const out = join(root, 'docs', 'images');

const html = (s: string): string =>
	s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
// Drawn, not emoji glyphs: the machine's fonts need not have Slack's emoji.
const dot = (color: string): string => `<i class="dot" style="background:${color}"></i>`;
const EMOJI: Record<string, string> = {
	red_circle: dot('#e01e5a'),
	large_orange_circle: dot('#f2952f'),
	large_blue_circle: dot('#1d9bd1'),
	rotating_light: dot('#e01e5a'),
	white_check_mark: dot('#2eb67d'),
	bust_in_silhouette: dot('#616061'),
	mute: dot('#616061'),
};
/** Slack mrkdwn (as the bot writes it: *bold*, ~strike~, :emoji:, line breaks, &amp; escapes) to HTML. */
const mrkdwn = (s: string): string =>
	html(s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'))
		.replace(/:([a-z_]+):/g, (m, name: string) => EMOJI[name] ?? m)
		.replace(/\*([^*\n]+)\*/g, '<b>$1</b>')
		.replace(/~([^~\n]+)~/g, '<s>$1</s>')
		.replace(/\n/g, '<br>');

/** The parts of Block Kit the bot's alert uses (header, section, fields, actions, context). */
interface AnyBlock {
	type: Block['type'];
	text?: { text: string };
	fields?: Array<{ text: string }>;
	elements?: Array<{ text: string | { text: string }; style?: string }>;
}

function blockHtml(block: AnyBlock): string {
	switch (block.type) {
		case 'header':
			return `<div class="header">${html(block.text!.text)}</div>`;
		case 'section':
			return block.fields
				? `<div class="fields">${block.fields.map((f) => `<div>${mrkdwn(f.text)}</div>`).join('')}</div>`
				: `<div class="section">${mrkdwn(block.text!.text)}</div>`;
		case 'actions':
			return `<div class="actions">${(block.elements ?? []).map((e) => `<span class="button ${e.style ?? ''}">${html(typeof e.text === 'string' ? e.text : e.text.text)}</span>`).join('')}</div>`;
		case 'context':
			return `<div class="context">${(block.elements ?? []).map((e) => `<span>${mrkdwn(typeof e.text === 'string' ? e.text : e.text.text)}</span>`).join('')}</div>`;
		default:
			return '';
	}
}

/** The first drive of the seeded fleet (seed 1, as `npm start` uses), faulting with a drive fault code of the simulator. */
function sampleAlert(): AlertRecord {
	const origin = Date.UTC(2026, 10, 25, 7, 42);
	const fleet = seedFleet(1, 20, origin);
	const drive = [...fleet.assets.values()].find((a) => a.assetType === 'Drive')!;
	return {
		key: `${drive.id}:1`,
		eventId: '4100017',
		severity: 'Fault',
		asset: {
			id: drive.id,
			name: drive.name,
			serialNumber: drive.serialNumber,
			organization: fleet.orgs.get(drive.orgId)?.name ?? '',
			group: fleet.groups.get(drive.groupId)?.name ?? '',
			plant: fleet.plants.get(drive.plantId)?.name ?? '',
		},
		code: '2310',
		content: 'Overcurrent (2310)',
		eventTime: new Date(origin).toISOString(),
		status: 'Open',
		deviceWorkStatus: 2,
		hasLogger: true,
	};
}

interface WorkflowNode {
	name: string;
	type: string;
	position: [number, number];
	parameters: Record<string, unknown>;
}

function canvasHtml(file: string): string {
	const workflow = JSON.parse(readFileSync(join(root, 'examples', file), 'utf8')) as {
		name: string;
		nodes: WorkflowNode[];
		connections: Record<string, { main: Array<Array<{ node: string }>> }>;
	};
	const nodes = workflow.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote');
	const minX = Math.min(...nodes.map((n) => n.position[0]));
	const minY = Math.min(...nodes.map((n) => n.position[1]));
	const at = (n: WorkflowNode) => ({
		x: Math.round((n.position[0] - minX) * 0.65) + 24,
		y: Math.round((n.position[1] - minY) * 0.65) + 90,
	});
	const byName = new Map(nodes.map((n) => [n.name, n]));
	const edges = Object.entries(workflow.connections).flatMap(([from, c]) =>
		(c.main[0] ?? []).map((to) => [byName.get(from), byName.get(to.node)] as const),
	);
	const lines = edges
		.filter((e): e is readonly [WorkflowNode, WorkflowNode] => Boolean(e[0] && e[1]))
		.map(([a, b]) => {
			const p = at(a);
			const q = at(b);
			return `<path d="M${p.x + 80} ${p.y + 40} C${p.x + 110} ${p.y + 40} ${q.x - 30} ${q.y + 40} ${q.x} ${q.y + 40}" />`;
		});
	const label = (n: WorkflowNode): string => {
		const op = [n.parameters.resource, n.parameters.operation].filter(Boolean).join(': ');
		return op ? `<small>${html(op)}</small>` : '';
	};
	const icon = (n: WorkflowNode): string =>
		n.type.startsWith('n8n-nodes-drive-monitoring')
			? '⚙'
			: n.type.endsWith('scheduleTrigger')
				? '▶'
				: n.type.endsWith('slack')
					? '#'
					: '◆';
	const boxes = nodes.map((n) => {
		const p = at(n);
		return `<div class="node${n.type.toLowerCase().includes('trigger') ? ' trigger' : ''}" style="left:${p.x}px;top:${p.y}px"><div class="box">${icon(n)}</div><div class="name">${html(n.name)}</div>${label(n)}</div>`;
	});
	return `<div class="canvas"><div class="title">n8n · ${html(workflow.name)}</div><svg>${lines.join('')}</svg>${boxes.join('')}</div>`;
}

const STYLE = `
body{margin:0;font-family:"Lato","Helvetica Neue",Arial,sans-serif;background:#f4f4f6;display:flex;gap:24px;padding:24px;width:1240px;box-sizing:border-box}
.slack{background:#fff;border:1px solid #ddd;border-radius:8px;width:560px;padding:16px 20px;font-size:15px;color:#1d1c1d}
.slack .chan{font-weight:700;border-bottom:1px solid #eee;margin:-16px -20px 12px;padding:10px 20px;color:#1d1c1d}
.msg{display:flex;gap:10px}.avatar{width:36px;height:36px;border-radius:6px;background:#1f6feb;color:#fff;display:flex;align-items:center;justify-content:center;font-weight:700}
.who b{margin-right:6px}.who span{color:#616061;font-size:12px}.app{background:#eee;border-radius:3px;padding:0 3px;font-size:10px;color:#616061}
.header{font-size:18px;font-weight:900;margin:6px 0}.section{margin:6px 0}
.fields{display:grid;grid-template-columns:1fr 1fr;gap:8px 16px;margin:8px 0}
.actions{display:flex;flex-wrap:wrap;gap:8px;margin:10px 0}.button{border:1px solid #ccc;border-radius:4px;padding:4px 12px;font-weight:700;font-size:13px}
.button.primary{background:#007a5a;color:#fff;border-color:#007a5a}
.context{color:#616061;font-size:12px;display:flex;flex-direction:column;gap:2px}
.canvas{position:relative;flex:1;height:390px;border-radius:8px;border:1px solid #ddd;background:#fbfbfb radial-gradient(#d5d5d8 1px,transparent 1px);background-size:20px 20px}
.canvas .title{position:absolute;left:16px;top:12px;font-weight:700;color:#444}
.canvas svg{position:absolute;inset:0;width:100%;height:100%;fill:none;stroke:#8a8a8f;stroke-width:2}
.node{position:absolute;width:80px;text-align:center;font-size:12px;color:#333}
.node .box{height:80px;border:2px solid #b8b8c0;border-radius:8px;background:#fff;display:flex;align-items:center;justify-content:center;font-size:30px;color:#ff6d5a}
.dot{display:inline-block;width:12px;height:12px;border-radius:6px;margin-right:4px;vertical-align:-1px}
.node.trigger .box{border-radius:40px 8px 8px 40px}.node .name{font-weight:700;margin-top:6px}.node small{color:#777}
`;

export function renderPicture(): string {
	const message = alertMessage(sampleAlert(), 'Europe/Berlin');
	const slack = `<div class="slack"><div class="chan"># drive-alerts</div><div class="msg"><div class="avatar">DM</div><div><div class="who"><b>Drive Monitoring</b><span class="app">APP</span></div>${(message.blocks as unknown as AnyBlock[]).map(blockHtml).join('')}</div></div></div>`;
	return `<!doctype html><html><head><meta charset="utf-8"><style>${STYLE}</style></head><body>${slack}${canvasHtml('new-faults-to-chat.json')}</body></html>\n`;
}

if (require.main === module) {
	mkdirSync(out, { recursive: true });
	const page = join(out, 'alert-and-workflow.html');
	writeFileSync(page, renderPicture());
	// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- screenshots with a browser the maintainer runs; this is not node code
	execFileSync(
		process.env.CHROMIUM ?? 'chromium',
		[
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--hide-scrollbars',
			'--window-size=1240,440',
			`--screenshot=${join(out, 'alert-and-workflow.png')}`,
			`file://${page}`,
		],
		{ stdio: 'inherit' },
	);
}
