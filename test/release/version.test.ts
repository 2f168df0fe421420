/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// scripts/release.js: the four products' versions, the lock and CHANGELOG.md move together
// (version:set) and a release is refused when they, the tag or the repository disagree
// (version:check, which publish.yml runs before anything is published).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const release = require('../../scripts/release') as {
	releaseProblems(root: string, options?: { tag?: string; repository?: string }): string[];
	setVersion(root: string, version: string, today?: string): void;
	changelogSections(text: string): { name: string; date?: string; body: string }[];
};

const ROOT = path.resolve(__dirname, '../..');
const MANIFESTS = [
	'package.json',
	'n8n-push/package.json',
	'bot/package.json',
	'simulator/package.json',
];
const REPOSITORY = 'n8n-nodes-drive-monitoring/n8n-nodes-drive-monitoring';

type Json = Record<string, unknown> & { version: string };
const read = (dir: string, file: string) =>
	JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Json;
const write = (dir: string, file: string, value: unknown) =>
	fs.writeFileSync(path.join(dir, file), `${JSON.stringify(value, null, 2)}\n`);

/** The files the release script reads, copied out of this tree, so a test can change them. */
function copyOfTree(): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dm-release-'));
	for (const file of [...MANIFESTS, 'package-lock.json', 'CHANGELOG.md']) {
		fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
		fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
	}
	// What this tree has under Unreleased changes with every merge: the tests start from an empty section and
	// write their own entries (withUnreleased), so they do not depend on it.
	const changelog = path.join(dir, 'CHANGELOG.md');
	fs.writeFileSync(
		changelog,
		fs
			.readFileSync(changelog, 'utf8')
			.replace(/## \[Unreleased\]\n[\s\S]*?(?=\n## \[)/, '## [Unreleased]\n'),
	);
	return dir;
}

const copies: string[] = [];
function tree(): string {
	const dir = copyOfTree();
	copies.push(dir);
	return dir;
}
afterAll(() => {
	for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

function withUnreleased(dir: string, entry: string): void {
	const file = path.join(dir, 'CHANGELOG.md');
	fs.writeFileSync(
		file,
		fs.readFileSync(file, 'utf8').replace('## [Unreleased]\n', `## [Unreleased]\n\n${entry}\n`),
	);
}

test('this tree agrees: one version in the four manifests and the lock, an entry for it in CHANGELOG.md, one repository', () => {
	expect(
		release.releaseProblems(ROOT, {
			tag: `v${read(ROOT, 'package.json').version}`,
			repository: REPOSITORY,
		}),
	).toEqual([]);
	const versions = MANIFESTS.map((file) => read(ROOT, file).version);
	expect(new Set(versions).size).toBe(1);
});

test("version:set moves every manifest, the lock, the bot's range on the simulator and the Unreleased entries to the new version", () => {
	const dir = tree();
	withUnreleased(dir, '### Fixed\n\n- A fault raised twice is posted once.');
	release.setVersion(dir, '0.2.0', '2026-12-01');

	for (const file of MANIFESTS) expect(read(dir, file).version).toBe('0.2.0');
	expect(
		(read(dir, 'bot/package.json').peerDependencies as Record<string, string>)[
			'drive-monitoring-simulator'
		],
	).toBe('0.2.0');
	const lock = read(dir, 'package-lock.json') as Json & {
		packages: Record<string, { version: string }>;
	};
	expect([lock.version, lock.packages[''].version]).toEqual(['0.2.0', '0.2.0']);

	const changelog = fs.readFileSync(path.join(dir, 'CHANGELOG.md'), 'utf8');
	const sections = release.changelogSections(changelog);
	expect(sections.slice(0, 3).map((s) => [s.name, s.date])).toEqual([
		['Unreleased', undefined],
		['0.2.0', '2026-12-01'],
		['0.1.0', '2026-11-25'],
	]);
	expect(sections[0].body).toBe('');
	expect(sections[1].body).toBe('### Fixed\n\n- A fault raised twice is posted once.');
	expect(changelog).toContain(
		`[Unreleased]: https://github.com/${REPOSITORY}/compare/v0.2.0...HEAD`,
	);
	expect(changelog).toContain(`[0.2.0]: https://github.com/${REPOSITORY}/compare/v0.1.0...v0.2.0`);

	expect(release.releaseProblems(dir, { tag: 'v0.2.0', repository: REPOSITORY })).toEqual([]);
	expect(release.releaseProblems(dir, { tag: 'v0.1.0' })).toEqual([
		expect.stringContaining("the tag v0.1.0 does not name the products' version 0.2.0"),
	]);
});

test('version:set refuses a version that is not semantic, not newer, or has nothing under Unreleased, and changes nothing', () => {
	const dir = tree();
	const before = fs.readFileSync(path.join(dir, 'bot/package.json'), 'utf8');
	expect(() => release.setVersion(dir, '0.2')).toThrow('"0.2" is not a semantic version');
	expect(() => release.setVersion(dir, '0.1.0')).toThrow(
		'0.1.0 is not after the current version 0.1.0',
	);
	expect(() => release.setVersion(dir, '0.0.9')).toThrow('is not after the current version');
	expect(() => release.setVersion(dir, '0.2.0')).toThrow(
		'nothing under ## [Unreleased]: write what changed in 0.2.0 first',
	);
	expect(fs.readFileSync(path.join(dir, 'bot/package.json'), 'utf8')).toBe(before);
	withUnreleased(dir, '- Something.');
	release.setVersion(dir, '0.2.0-rc.1');
	expect(read(dir, 'simulator/package.json').version).toBe('0.2.0-rc.1');
	expect(() => release.setVersion(dir, '0.2.0-rc.0')).toThrow(
		'is not after the current version 0.2.0-rc.1',
	);
});

test('version:check names each disagreement and how to fix it', () => {
	const dir = tree();
	const bot = read(dir, 'bot/package.json');
	write(dir, 'bot/package.json', {
		...bot,
		version: '0.1.1',
		peerDependencies: { 'drive-monitoring-simulator': '0.0.9' },
	});
	const lock = read(dir, 'package-lock.json');
	write(dir, 'package-lock.json', { ...lock, version: '0.0.1' });
	const simulator = read(dir, 'simulator/package.json');
	write(dir, 'simulator/package.json', {
		...simulator,
		repository: { type: 'git', url: 'git+https://github.com/someone/fork.git' },
	});
	const changelog = path.join(dir, 'CHANGELOG.md');
	fs.writeFileSync(
		changelog,
		fs
			.readFileSync(changelog, 'utf8')
			.replace('## [0.1.0] - 2026-11-25', '## [0.1.0]')
			.replace(/^\[0\.1\.0\]: .*$/m, ''),
	);

	expect(release.releaseProblems(dir, { tag: 'v0.1.0', repository: 'someone/fork' })).toEqual([
		'bot/package.json: version 0.1.1, but package.json says 0.1.0: run npm run version:set -- 0.1.0',
		'package-lock.json: version 0.0.1, but package.json says 0.1.0: run npm run version:set -- 0.1.0',
		'bot/package.json: peerDependencies names drive-monitoring-simulator 0.0.9, but the products are at 0.1.0: run npm run version:set -- 0.1.0',
		`simulator/package.json: repository git+https://github.com/someone/fork.git, but package.json names git+https://github.com/${REPOSITORY}.git`,
		`the manifests name the repository git+https://github.com/${REPOSITORY}.git, but this runs in someone/fork: npm refuses provenance for a package that names another repository`,
		'CHANGELOG.md: ## [0.1.0] needs its release date (## [0.1.0] - YYYY-MM-DD)',
		'CHANGELOG.md: no link for [0.1.0] at the end ([0.1.0]: <release or compare URL>)',
	]);

	const missing = tree();
	const text = fs.readFileSync(path.join(missing, 'CHANGELOG.md'), 'utf8');
	fs.writeFileSync(path.join(missing, 'CHANGELOG.md'), text.slice(0, text.indexOf('## [0.1.0]')));
	expect(release.releaseProblems(missing)).toEqual([
		'CHANGELOG.md has no ## [0.1.0] entry: write it, or move the Unreleased entries with npm run version:set -- 0.1.0',
		expect.stringContaining('no link for [0.1.0]'),
	]);
});

test('`node scripts/release.js check --tag` exits 1 and says what disagrees, as publish.yml runs it', async () => {
	const run = promisify(execFile);
	const version = read(ROOT, 'package.json').version;
	const ok = await run(
		process.execPath,
		['scripts/release.js', 'check', '--tag', `v${version}`, '--repository', REPOSITORY],
		{ cwd: ROOT },
	);
	expect(ok.stdout).toBe(
		`version ${version}: manifests, lock and CHANGELOG agree, and so does the tag v${version}\n`,
	);
	const refused = await run(process.execPath, ['scripts/release.js', 'check', '--tag', 'v99.0.0'], {
		cwd: ROOT,
	}).then(
		() => undefined,
		(error: { code: number; stderr: string }) => error,
	);
	expect(refused?.code).toBe(1);
	expect(refused?.stderr).toContain(
		`the tag v99.0.0 does not name the products' version ${version}`,
	);
});
