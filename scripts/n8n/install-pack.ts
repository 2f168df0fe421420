// Installs this package into an n8n user folder exactly as n8n's community-package installer
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

/** `npm pack` of the built repository; returns the tarball's path inside workDir. */
export async function packRepository(workDir: string): Promise<string> {
  fs.mkdirSync(workDir, { recursive: true });
  const packed = await run('npm', ['pack', '--silent', '--pack-destination', workDir], { cwd: REPO_ROOT });
  return path.join(workDir, packed.stdout.trim().split('\n').pop()!);
}

export async function installPack(tarball: string, userFolder: string): Promise<InstalledPack> {
  const nodesDir = path.join(userFolder, '.n8n', 'nodes');
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;
  const directory = path.join(nodesDir, 'node_modules', manifest.name);
  fs.rmSync(directory, { recursive: true, force: true });
  fs.mkdirSync(directory, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', directory, '--strip-components=1']);

  const packageJsonPath = path.join(directory, 'package.json');
  const packed = JSON.parse(fs.readFileSync(packageJsonPath, 'utf8')) as PackageJson;
  const { devDependencies: _dev, peerDependencies: _peer, optionalDependencies: _optional, ...production } = packed;
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

  return { name: packed.name, version: packed.version, directory, tarballBytes: fs.statSync(tarball).size };
}
