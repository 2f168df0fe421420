/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The bot's V8 flags (bot/node-flags.ts) are given wherever the bot is started: the shebang of
// the installed command, `npm start`, and (through the same constant) the scale benchmark.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BOT_NODE_FLAGS, missingNodeFlags } from '../../bot/cli/node-flags';

const root = path.resolve(__dirname, '..', '..');

describe('the bot process runs with its V8 flags', () => {
	it('the installed command (the shebang of bot/cli.ts) passes them to node', () => {
		const shebang = readFileSync(path.join(root, 'bot', 'cli.ts'), 'utf8').split('\n')[0];
		expect(shebang).toBe(`#!/usr/bin/env -S node ${BOT_NODE_FLAGS.join(' ')}`);
	});

	it('npm start passes them to node', () => {
		const scripts = (
			JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
				scripts: Record<string, string>;
			}
		).scripts;
		expect(scripts.start).toContain(`node ${BOT_NODE_FLAGS.join(' ')} dist/bot/cli.js`);
	});

	it('names the flags a process was started without, from the command line or NODE_OPTIONS', () => {
		expect(missingNodeFlags([])).toEqual(['--max-semi-space-size=8']);
		expect(missingNodeFlags(['--max-semi-space-size=16'])).toEqual([]);
		// Another value is the operator's choice, not a missing flag.
		expect(missingNodeFlags(['--max-semi-space-size=4'])).toEqual([]);
		expect(missingNodeFlags([], '--max-old-space-size=200 --max_semi_space_size=32')).toEqual([]);
		expect(missingNodeFlags(['--inspect'], '--max-old-space-size=200')).toEqual([
			'--max-semi-space-size=8',
		]);
	});
});
