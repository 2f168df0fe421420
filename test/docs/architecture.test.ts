/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// docs/architecture.md's picture of the bot (scripts/docs-architecture.ts): the committed picture and section are
// what the script draws from the code now, and a table that names what the code does not have stops the drawing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	BOT_LAYOUT,
	END,
	LayoutError,
	modulesOf,
	renderSection,
	renderSvg,
	START,
	withSection,
	type BotLayout,
} from '../../scripts/docs-architecture';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const REDRAW = 'redraw: node --require ./bench/n8n/swc-register.js scripts/docs-architecture.ts';

/** BOT_LAYOUT with one change, for the failure cases. */
function changed(edit: (layout: BotLayout) => void): BotLayout {
	const layout = structuredClone(BOT_LAYOUT);
	edit(layout);
	return layout;
}

test(`the committed picture and section are what the script draws from the code now (${REDRAW})`, () => {
	expect(read('docs/images/bot-roles.svg')).toBe(renderSvg());
	const doc = read('docs/architecture.md');
	expect(doc.slice(doc.indexOf(START), doc.indexOf(END) + END.length)).toBe(renderSection());
	expect(withSection(doc, renderSection())).toBe(doc);
});

test('a module the table names that the tree does not have stops the drawing, saying what to change', () => {
	const moved = changed((l) => (l.leader.parts[0].module = 'bot/leader/sources/gone.ts'));
	expect(() => renderSvg(moved)).toThrow(LayoutError);
	expect(() => renderSvg(moved)).toThrow(
		'bot/leader/sources/gone.ts is not in the tree: point its entry in BOT_LAYOUT (scripts/docs-architecture.ts) at where it is now',
	);
	expect(() =>
		renderSection(changed((l) => (l.faultPath[0].module = 'shared/push/gone/'))),
	).toThrow('shared/push/gone/ is not a folder of the tree');
});

test('a symbol the module does not declare stops the drawing', () => {
	expect(() =>
		renderSvg(changed((l) => (l.everyReplica.parts[0].symbol = 'createSlackAppRenamed'))),
	).toThrow('bot/slack/app.ts declares no createSlackAppRenamed ("Slack app and listeners")');
});

test("a part drawn in the other role's column (not started by that role's code) stops the drawing", () => {
	const swapped = changed((l) => {
		const poll = l.leader.parts.find((p) => p.symbol === 'startPollSource')!;
		l.everyReplica.parts.push(poll);
	});
	expect(() => renderSvg(swapped)).toThrow(
		'startPollSource ("Poll source (E14 by plan)") is not started by the code of every replica',
	);
	const rootGone = changed((l) => (l.leader.roots[0].within = 'startLeaderDuties'));
	expect(() => renderSvg(rootGone)).toThrow('bot/app/leader.ts has no function startLeaderDuties');
});

test('a folder stands for every module in it, read from the tree', () => {
	const modules = modulesOf('bot/leader/sources/');
	expect(modules).toEqual(expect.arrayContaining(['bot/leader/sources/push.ts']));
	expect(modules.every((m) => m.startsWith('bot/leader/sources/') && m.endsWith('.ts'))).toBe(true);
	const foldered = changed((l) => (l.leader.parts[0].module = 'bot/leader/sources/'));
	expect(renderSvg(foldered)).toContain('bot/leader/sources/  startPushSource');
});
