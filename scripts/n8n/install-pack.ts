/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-unused-vars -- a build script, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Installs an n8n package of this tree (the pack or the push companion, from the tarballs of
// `npm run pack`) into an n8n user folder exactly as n8n's community-package installer
// does (CommunityPackagesService.downloadPackage in n8n 2.41): the `npm pack` tarball unpacked
// into <N8N_USER_FOLDER>/.n8n/nodes/node_modules/<name>, devDependencies, peerDependencies and
// optionalDependencies removed from its package.json, `npm install` run inside it with the
// installer's flags, and the version recorded in nodes/package.json. Node types therefore carry
// their production names (n8n-nodes-drive-monitoring.<node>), as for a user.
import fs from 'node:fs';
import path from 'node:path';

import { run } from './process';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

interface PackageJson {
	name: string;
	version: string;
	dependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	n8n?: { nodes?: string[]; credentials?: string[] };
}

export interface InstalledPack {
	name: string;
	version: string;
	directory: string;
	tarballBytes: number;
}

export const PACKAGES_DIR = path.join(REPO_ROOT, 'artifacts', 'packages');

/** The tarball `npm run pack` wrote for a package name (and this tree's version). */
export function productTarball(name: string): string {
	const { version } = JSON.parse(
		fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'),
	) as PackageJson;
	const tarball = path.join(PACKAGES_DIR, `${name}-${version}.tgz`);
	if (!fs.existsSync(tarball)) throw new Error(`${tarball} is missing: run npm run pack`);
	return tarball;
}

/** The package.json inside a tarball. */
async function manifestOf(tarball: string): Promise<PackageJson> {
	const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
	return JSON.parse(stdout) as PackageJson;
}

export async function installPack(tarball: string, userFolder: string): Promise<InstalledPack> {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const manifest = await manifestOf(tarball);
	const directory = path.join(nodesDir, 'node_modules', manifest.name);
	fs.rmSync(directory, { recursive: true, force: true });
	fs.mkdirSync(directory, { recursive: true });
	await run('tar', ['-xzf', tarball, '-C', directory, '--strip-components=1']);

	const packageJsonPath = path.join(directory, 'package.json');
	const packed = JSON.parse(fs.readFileSync(packageJsonPath, 'utf8')) as PackageJson;
	const {
		devDependencies: _dev,
		peerDependencies: _peer,
		optionalDependencies: _optional,
		...production
	} = packed;
	fs.writeFileSync(packageJsonPath, JSON.stringify(production, null, 2));
	await run(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
			'--loglevel=error',
		],
		{ cwd: directory },
	);

	const ledgerPath = path.join(nodesDir, 'package.json');
	const ledger = fs.existsSync(ledgerPath)
		? (JSON.parse(fs.readFileSync(ledgerPath, 'utf8')) as PackageJson)
		: { name: 'installed-nodes', private: true, dependencies: {} };
	ledger.dependencies = { ...ledger.dependencies, [packed.name]: packed.version };
	fs.writeFileSync(ledgerPath, JSON.stringify(ledger, null, 2));

	return {
		name: packed.name,
		version: packed.version,
		directory,
		tarballBytes: fs.statSync(tarball).size,
	};
}
