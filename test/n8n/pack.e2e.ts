/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The pack and the push companion as n8n sees them after a community-package install from their
// tarballs: the pack brings no other package, both load under their production names, and the
// pack's code resolves zod from n8n itself (n8n puts its own node_modules on NODE_PATH).
import fs from 'node:fs';
import path from 'node:path';

import { n8nCommand } from '../../scripts/n8n/instance';
import { expectPackLoaded, readState } from './harness';

const state = readState();
const nodesDir = path.join(state.instance.userFolder, '.n8n', 'nodes');

describe('the pack installed into n8n as a community package', () => {
	it('is unpacked where n8n installs community packages, without dev or peer dependencies', () => {
		const installed = JSON.parse(
			fs.readFileSync(path.join(state.pack.directory, 'package.json'), 'utf8'),
		);
		expect(state.pack.directory).toBe(
			path.join(nodesDir, 'node_modules', 'n8n-nodes-drive-monitoring'),
		);
		expect(installed.devDependencies).toBeUndefined();
		expect(installed.peerDependencies).toBeUndefined();
		expect(installed.dependencies).toBeUndefined();
	});

	it('adds no other package: after installing it alone, n8n holds the pack and nothing else', () => {
		expect(state.afterPackInstall).toEqual(['n8n-nodes-drive-monitoring']);
	});

	it('ships only what n8n loads: the nodes, the credential, the core they import, icons and codex files', () => {
		const files: string[] = [];
		const list = (dir: string) => {
			for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
				const full = path.join(dir, entry.name);
				if (entry.isDirectory()) list(full);
				else files.push(path.relative(state.pack.directory, full));
			}
		};
		list(state.pack.directory);
		expect(
			files
				.filter((f) => !/^dist\/(nodes|credentials|shared)\/.+\.(js|svg|node\.json)$/.test(f))
				.sort(),
		).toEqual(['LICENSE', 'README.md', 'package.json']);
		for (const absent of [
			'dist/bot',
			'dist/simulator',
			'dist/test',
			'dist/bench',
			'dist/shared/push',
			'dist/shared/transport/undici.js',
		]) {
			expect(fs.existsSync(path.join(state.pack.directory, absent))).toBe(false);
		}
		expect(
			files.some((f) => f.endsWith('.tsbuildinfo') || f.endsWith('.map') || f.endsWith('.d.ts')),
		).toBe(false);
	});

	it('the push companion brings its own broker clients, and no second n8n-workflow', () => {
		expect(fs.existsSync(path.join(state.push.directory, 'node_modules', 'rhea'))).toBe(true);
		expect(fs.existsSync(path.join(state.push.directory, 'node_modules', 'mqtt'))).toBe(true);
		expect(fs.existsSync(path.join(state.push.directory, 'node_modules', 'n8n-workflow'))).toBe(
			false,
		);
		expect(fs.existsSync(path.join(state.pack.directory, 'node_modules'))).toBe(false);
	});

	it('both load without errors when n8n starts an execution command', async () => {
		// `execute` loads community packages before it looks the workflow up (list and import do not).
		const result = await n8nCommand(state.instance, ['execute', '--id=none'], {
			allowFailure: true,
		});
		const output = `${result.stdout}\n${result.stderr}`;
		expectPackLoaded(output);
		expectPackLoaded(output, 'n8n-nodes-drive-monitoring-push');
		expect(output).toContain('The workflow with the id "none" does not exist.');
	});
});
