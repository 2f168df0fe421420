/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- Node-only: the first module the bot's and the simulator's commands load, never in the n8n pack */
// The first import of each installed command (drive-monitoring-bot, drive-monitoring-simulator):
// on a Node older than its package's `engines`, the command says in one line which Node it needs
// and how to get it, and exits, instead of failing later with a stack trace (node:sqlite, for one,
// is missing before Node 22.5). It runs before any other module of the program is loaded, so it
// uses nothing newer than Node 18: no dependency, only `fs` and `path`.
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Manifest {
	name?: string;
	bin?: string | Record<string, string>;
	engines?: { node?: string };
}

/** The lowest version a `>=X[.Y[.Z]]` range admits, or undefined for any other form of range. */
export function minimumOf(range: string): number[] | undefined {
	const match = /^\s*>=\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range);
	return match ? [1, 2, 3].map((i) => Number(match[i] ?? 0)) : undefined;
}

function atLeast(version: number[], minimum: number[]): boolean {
	for (let i = 0; i < 3; i++) {
		if ((version[i] ?? 0) !== minimum[i]) return (version[i] ?? 0) > minimum[i];
	}
	return true;
}

/**
 * The one line to print when `nodeVersion` (process.versions.node) is below the range, or
 * undefined when it is not, or when the range is of a form this check does not read (then the
 * program starts as it would without the check; test/release checks every product's range here).
 */
export function unsupportedNodeMessage(
	program: string,
	range: string,
	nodeVersion: string,
): string | undefined {
	const minimum = minimumOf(range);
	if (!minimum || atLeast(nodeVersion.split('.').map(Number), minimum)) return undefined;
	const needed = minimum[2] === 0 ? minimum.slice(0, 2).join('.') : minimum.join('.');
	return (
		`${program} needs Node.js ${needed} or later; this is Node.js ${nodeVersion}. Install Node.js ` +
		`${minimum[0]} or later from https://nodejs.org/en/download (or \`nvm install ${minimum[0]}\`) and run it again.`
	);
}

/** The package.json nearest above this file: in an installed product, the product's own. */
function ownManifest(): Manifest | undefined {
	for (let dir = __dirname; ; dir = path.dirname(dir)) {
		const file = path.join(dir, 'package.json');
		if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
		if (path.dirname(dir) === dir) return undefined;
	}
}

function programName(manifest: Manifest): string {
	const bins = typeof manifest.bin === 'object' ? Object.keys(manifest.bin) : [];
	if (bins.length === 1) return bins[0];
	const script = process.argv[1];
	return script
		? `node ${path.relative(process.cwd(), script)}`
		: (manifest.name ?? 'this program');
}

const manifest = ownManifest();
const message =
	manifest?.engines?.node &&
	unsupportedNodeMessage(programName(manifest), manifest.engines.node, process.versions.node);
if (message) {
	process.stderr.write(`${message}\n`);
	process.exit(1);
}
