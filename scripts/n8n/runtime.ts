/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- a build script, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// A real n8n, installed once in a cache folder outside the source tree and reused by every run.
//
// The npm registry reached here cannot serve two of n8n's dependencies as n8n asks (xlsx points
// at a tarball elsewhere; newer linkedom needs a package the registry lacks), so the install
// pins them with npm overrides. Install scripts are skipped (they would download binaries);
// sqlite3, the one native module n8n needs built, is rebuilt against Node 24's headers, taken
// from the registry's node-<platform>-<arch> package of the very Node version that runs n8n.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { run } from './process';

export const N8N_VERSION = '2.41.1';
const OVERRIDES = { xlsx: '0.18.5', linkedom: '0.18.12' };

export interface N8nRuntime {
	/** the folder holding node_modules/n8n */
	dir: string;
	/** n8n's command-line entry, run with process.execPath */
	bin: string;
}

export function cacheRoot(): string {
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-drive-monitoring');
}

/** What makes an installed runtime reusable: same n8n, same overrides, same Node ABI. */
function recipe() {
	return {
		n8n: N8N_VERSION,
		overrides: OVERRIDES,
		node: process.version,
		modules: process.versions.modules,
	};
}

function runtimeAt(dir: string): N8nRuntime {
	return { dir, bin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n') };
}

function isComplete(dir: string): boolean {
	try {
		const stamp = fs.readFileSync(path.join(dir, 'complete.json'), 'utf8');
		return stamp === JSON.stringify(recipe()) && fs.existsSync(runtimeAt(dir).bin);
	} catch {
		return false;
	}
}

/** Node's headers (include/node) for node-gyp, from the registry package of this Node build. */
async function nodeHeaders(workDir: string): Promise<string> {
	const version = process.version.slice(1);
	const pkg = `node-${process.platform}-${process.arch}@${version}`;
	const nodedir = path.join(workDir, 'node-headers');
	fs.mkdirSync(nodedir, { recursive: true });
	const packed = await run('npm', ['pack', pkg, '--silent', '--pack-destination', workDir], {
		cwd: workDir,
	});
	const tarball = path.join(workDir, packed.stdout.trim().split('\n').pop()!);
	await run('tar', ['-xzf', tarball, '-C', nodedir, '--strip-components=1', 'package/include']);
	fs.rmSync(tarball);
	if (!fs.existsSync(path.join(nodedir, 'include', 'node', 'node_api.h'))) {
		throw new Error(`${pkg} has no include/node: cannot build sqlite3 for n8n`);
	}
	return nodedir;
}

/**
 * Returns the cached n8n runtime, installing it first when missing or made for another recipe.
 * Installs into a scratch folder and renames it into place, so an interrupted install is never
 * taken for a complete one; the next run resumes in the same scratch folder.
 */
export async function ensureN8nRuntime(
	log: (line: string) => void = console.log,
): Promise<N8nRuntime> {
	const dir = path.join(cacheRoot(), `n8n-${N8N_VERSION}`);
	if (isComplete(dir)) return runtimeAt(dir);

	const started = Date.now();
	const scratch = `${dir}.partial`;
	fs.mkdirSync(scratch, { recursive: true });
	fs.writeFileSync(
		path.join(scratch, 'package.json'),
		JSON.stringify(
			{
				name: 'drive-monitoring-n8n-runtime',
				private: true,
				description:
					'n8n for the real-n8n tests of n8n-nodes-drive-monitoring (made by scripts/n8n)',
				dependencies: { n8n: N8N_VERSION },
				overrides: OVERRIDES,
			},
			null,
			2,
		),
	);
	log(`n8n ${N8N_VERSION}: installing into ${dir} (once; about 3 minutes and 2.9 GB)`);
	await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: scratch,
		timeoutMs: 30 * 60_000,
	});
	const nodedir = await nodeHeaders(scratch);
	log(`n8n ${N8N_VERSION}: building sqlite3 against ${process.version}`);
	await run('npm', ['rebuild', 'sqlite3', `--nodedir=${nodedir}`, '--loglevel=error'], {
		cwd: scratch,
		timeoutMs: 20 * 60_000,
	});
	// The proof that the build is usable: load it in this Node.
	await run(process.execPath, ['-e', "require('sqlite3')"], { cwd: scratch });
	fs.writeFileSync(path.join(scratch, 'complete.json'), JSON.stringify(recipe()));
	fs.rmSync(dir, { recursive: true, force: true });
	fs.renameSync(scratch, dir);
	log(`n8n ${N8N_VERSION}: ready in ${Math.round((Date.now() - started) / 1000)} s`);
	return runtimeAt(dir);
}
