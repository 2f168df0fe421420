/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The Node each product needs: one `engines` range for the four products, in the form the
// commands' first module (shared/runtime/engines.ts) reads, its one-line refusal, and the guide
// of each command saying which Node it needs before it says how to install it.
// test/products runs the installed commands on an older Node.
import fs from 'node:fs';
import path from 'node:path';

import { minimumOf, unsupportedNodeMessage } from '../../shared/runtime/engines';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PRODUCTS } = require('../../scripts/pack') as {
	PRODUCTS: { id: string; manifest: string; readme: string }[];
};

const ROOT = path.resolve(__dirname, '../..');

interface Manifest {
	engines?: { node?: string };
	bin?: Record<string, string>;
}
const manifestOf = (file: string) =>
	JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as Manifest;

test('every product names one Node range, of the form the commands check (>=X.Y)', () => {
	const ranges = PRODUCTS.map((p) => manifestOf(p.manifest).engines?.node);
	expect(new Set(ranges).size).toBe(1);
	expect(minimumOf(ranges[0] ?? '')).toBeDefined();
});

test('below the range, one line names the Node needed, the Node found and where to get it', () => {
	const message = unsupportedNodeMessage('drive-monitoring-bot', '>=22.19', '20.20.2');
	expect(message).toBe(
		'drive-monitoring-bot needs Node.js 22.19 or later; this is Node.js 20.20.2. Install Node.js 22 or later from https://nodejs.org/en/download (or `nvm install 22`) and run it again.',
	);
	expect(unsupportedNodeMessage('x', '>=22.19', '22.18.9')).toContain('needs Node.js 22.19');
	expect(unsupportedNodeMessage('x', '>=22.19.3', '22.19.2')).toContain('needs Node.js 22.19.3');
	expect(unsupportedNodeMessage('x', '>=22', '18.20.8')).toContain('needs Node.js 22.0 or later');
});

test('at or above the range, or with a range of another form, nothing is said', () => {
	for (const version of ['22.19.0', '22.20.1', '24.21.0', '100.0.0'])
		expect(unsupportedNodeMessage('x', '>=22.19', version)).toBeUndefined();
	expect(unsupportedNodeMessage('x', '^22.19.0', '20.0.0')).toBeUndefined();
	expect(minimumOf('>= 22.19')).toEqual([22, 19, 0]);
	expect(minimumOf('>=22.19 <25')).toBeUndefined();
});

test("each command's guide (its package's README) says which Node it needs before how to install it", () => {
	const commands = PRODUCTS.filter((p) => manifestOf(p.manifest).bin);
	expect(commands.map((p) => p.id).sort()).toEqual(['bot', 'simulator']);
	for (const product of commands) {
		const [major, minor] = minimumOf(manifestOf(product.manifest).engines!.node!)!;
		const guide = fs.readFileSync(path.join(ROOT, product.readme), 'utf8');
		const needs = guide.indexOf(`Node.js ${major}.${minor} or later`);
		const firstCommand = guide.search(/npm install|npx /);
		expect({ readme: product.readme, needs: needs >= 0 && needs < firstCommand }).toEqual({
			readme: product.readme,
			needs: true,
		});
	}
});
