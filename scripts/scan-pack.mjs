// n8n's community-package scanner (@n8n/scan-community-package, analyzePackage) on this pack, as
// n8n's verification runs it: the source pass (package.json, nodes/, credentials/) and the
// tarball pass (every shipped .js and package.json), inline eslint-disable comments ignored.
// The scanner itself fetches the package from the registry; this script hands it our tree and
// the tarball of `npm run pack` instead. Exit code 1 when either pass finds an error.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const tarball =
	process.argv[2] ??
	path.join(root, 'artifacts', 'packages', `n8n-nodes-drive-monitoring-${version}.tgz`);
if (!fs.existsSync(tarball)) {
	console.error(`${tarball} is missing: run npm run pack first`);
	process.exit(1);
}
const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'dm-scan-'));
execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);

let failed = false;
for (const [label, dir, patterns] of [
	['source', root, SOURCE_FILE_PATTERNS],
	[`tarball ${path.basename(tarball)}`, unpacked, ['**/*.js', 'package.json']],
]) {
	const result = await analyzePackage(dir, patterns);
	console.log(
		`scanner, ${label}: ${result.passed ? 'passed, 0 errors' : `FAILED: ${result.message}`}`,
	);
	if (!result.passed) {
		failed = true;
		console.log(result.details ?? '');
	}
}
fs.rmSync(unpacked, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
