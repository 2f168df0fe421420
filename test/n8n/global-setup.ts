/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Once per `npm run test:n8n` (which runs `npm run pack` first): n8n from the cache (installed
// the first time), then the pack and the push companion installed from their tarballs into a new
// n8n user folder as n8n's installer does, the pack first, alone, to see what it brings.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { installPack, productTarball } from '../../scripts/n8n/install-pack';
import { ensureN8nRuntime } from '../../scripts/n8n/runtime';
import { ARTIFACTS, STATE_FILE, type E2eState } from './harness';

export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	fs.rmSync(ARTIFACTS, { recursive: true, force: true });
	fs.mkdirSync(ARTIFACTS, { recursive: true });

	const runtime = await ensureN8nRuntime((line) => console.log(`\n[test:n8n] ${line}`));
	const runtimeReady = Date.now();

	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-'));
	const pack = await installPack(productTarball('n8n-nodes-drive-monitoring'), userFolder);
	const afterPackInstall = installedPackages(
		path.join(userFolder, '.n8n', 'nodes', 'node_modules'),
	);
	const push = await installPack(productTarball('n8n-nodes-drive-monitoring-push'), userFolder);

	const state: E2eState = {
		instance: { runtime, userFolder, encryptionKey: crypto.randomBytes(24).toString('hex') },
		pack,
		push,
		afterPackInstall,
		timings: { runtimeMs: runtimeReady - started, packInstallMs: Date.now() - runtimeReady },
	};
	fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
	console.log(
		`[test:n8n] n8n ready in ${state.timings.runtimeMs} ms; ${pack.name}@${pack.version} ` +
			`(${Math.round(pack.tarballBytes / 1024)} KiB packed) and ${push.name}@${push.version} installed in ${state.timings.packInstallMs} ms`,
	);
}

/** Every package folder under a node_modules folder, nested ones included (scoped names whole). */
export function installedPackages(nodeModules: string): string[] {
	if (!fs.existsSync(nodeModules)) return [];
	const found: string[] = [];
	for (const entry of fs.readdirSync(nodeModules)) {
		if (entry.startsWith('.')) continue;
		const names = entry.startsWith('@')
			? fs.readdirSync(path.join(nodeModules, entry)).map((n) => `${entry}/${n}`)
			: [entry];
		for (const name of names) {
			found.push(name);
			found.push(
				...installedPackages(path.join(nodeModules, name, 'node_modules')).map(
					(inner) => `${name} > ${inner}`,
				),
			);
		}
	}
	return found.sort();
}
