/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Every shell command in the README and the guides (their ```sh blocks) is either run here or listed in CHECKED with
// the test or script that runs it; a command added to a guide with neither fails this file.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { envSchema } from '../../bot/config/env';

const root = join(__dirname, '..', '..');
const GUIDES = [
	'README.md',
	'bench/README.md',
	...readdirSync(join(root, 'docs'))
		.filter((f) => f.endsWith('.md'))
		.map((f) => `docs/${f}`),
];

/** The command lines of a Markdown file's shell blocks, comments dropped. */
function shellCommands(file: string): string[] {
	const text = readFileSync(join(root, file), 'utf8');
	return [...text.matchAll(/^```(?:sh|bash|shell|console)\n([\s\S]*?)^```/gm)]
		.flatMap((m) => m[1].split('\n'))
		.map((line) =>
			line
				.replace(/\s+#.*$/, '')
				.replace(/^\$ /, '')
				.trim(),
		)
		.filter((line) => line !== '' && !line.startsWith('#'));
}

/** The README also names commands in its prose (`npm run pack`): those count too. */
function inlineCommands(file: string): string[] {
	return [
		...readFileSync(join(root, file), 'utf8').matchAll(/`((?:npm|npx|node|bash) [^`]+)`/g),
	].map((m) => m[1]);
}

const DOCUMENTED = [
	...GUIDES.flatMap((file) => shellCommands(file).map((command) => ({ file, command }))),
	...inlineCommands('README.md').map((command) => ({ file: 'README.md (prose)', command })),
];

/** Commands run elsewhere: where, and a text of that file that shows it runs them. */
const CHECKED: Array<{ command: string; where: string; shows: string }> = [
	{
		command: 'npm ci && npm start',
		where: 'test/bot/terminal.test.ts',
		shows: '`npm start` without Slack tokens or platform credentials',
	},
	{ command: 'npm ci && npm test', where: '.ci/run', shows: 'npm test' },
	{
		command: 'npx drive-monitoring-simulator --port 8080',
		where: 'test/products/install.e2e.ts',
		shows: 'installs into an empty folder and `npx drive-monitoring-simulator` answers E1',
	},
	{
		command: 'npm start',
		where: 'test/bot/terminal.test.ts',
		shows: '`npm start` without Slack tokens or platform credentials',
	},
	{ command: 'npm test', where: '.ci/run', shows: 'npm test' },
	{
		command: 'npm run pack',
		where: 'test/products/install.e2e.ts',
		shows: 'each tarball of `npm run pack` installed',
	},
	{ command: 'bash .ci/run', where: '.github/workflows/ci.yml', shows: 'run: .ci/run' },
	{
		command: 'npx drive-monitoring-bot',
		where: 'test/products/install.e2e.ts',
		shows: "npx(botDir, ['drive-monitoring-bot']",
	},
	{
		command: 'node dist/bot/cli.js --create-push-user amqps://<broker>',
		where: 'test/bot/push-merge.e2e.test.ts',
		shows: '`--create-push-user` makes one per configured organization',
	},
	{
		command:
			'PGPASSWORD=… drive-monitoring-bot migrate --from drive-bot.sqlite --to postgres://drive_bot@db.example.internal/drive_bot',
		where: 'test/bot/migrate.e2e.test.ts',
		shows: '{ PGPASSWORD: password }',
	},
];

/** Run by this file. */
const RUN_HERE = ['npm run --silent simulator -- --port 8080'];

/** `export A=... B=...` lines set environment variables: each must be one the bot declares (bot/config/env.ts). */
const isExport = (command: string): boolean => command.startsWith('export ');

describe('the shell commands of the README and the guides', () => {
	it('finds the commands (the extraction works)', () => {
		expect(DOCUMENTED.map((d) => d.command)).toEqual(
			expect.arrayContaining(['npm ci && npm start', 'npm run --silent simulator -- --port 8080']),
		);
	});

	it.each([
		...new Map(DOCUMENTED.map((d) => [`${d.file} ${d.command}`, [d.file, d.command]])).values(),
	])('%s: `%s` is run by a test or checked', (_file, command) => {
		if (isExport(command)) {
			const declared = Object.keys(
				(envSchema._zod.def as unknown as { shape: Record<string, unknown> }).shape,
			);
			const names = [...command.matchAll(/([A-Z][A-Z0-9_]+)=/g)].map((m) => m[1]);
			expect(names.length).toBeGreaterThan(0);
			for (const name of names) expect(declared).toContain(name);
			return;
		}
		const known = CHECKED.some((c) => c.command === command) || RUN_HERE.includes(command);
		if (!known)
			throw new Error(
				`\`${command}\` is documented but neither run by test/docs/quick-start.test.ts nor listed in its CHECKED list with the test that runs it`,
			);
	});

	it.each(CHECKED.map((c) => [c.command, c.where, c.shows]))(
		'`%s` is checked by %s',
		(command, where, shows) => {
			expect(DOCUMENTED.some((d) => d.command === command)).toBe(true); // a stale entry would vouch for nothing
			expect(existsSync(join(root, where))).toBe(true);
			// Compared without whitespace: the formatter may wrap the shown text across lines.
			const compact = (text: string) => text.replace(/\s+/g, '');
			expect(compact(readFileSync(join(root, where), 'utf8'))).toContain(compact(shows));
		},
	);

	it('`npm run --silent simulator -- --port <port>` prints, first, one JSON line with what docs/simulator.md lists', async () => {
		// The npm script builds, then runs dist/simulator/cli.js; the build is npm test's own first step (pretest), so this
		// runs the built CLI with the guide's arguments, on a free port (0) rather than 8080, which may be taken.
		const keys = [
			...(
				/first line on stdout is one JSON object with the URLs and credentials to use \(([^)]*)\)/.exec(
					readFileSync(join(root, 'docs/simulator.md'), 'utf8').replace(/\s+/g, ' '),
				)?.[1] ?? ''
			).matchAll(/`(\w+)`/g),
		].map((m) => m[1]);
		expect(keys).toEqual(expect.arrayContaining(['baseUrl', 'authUrl', 'credentials']));
		// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- running the CLI as a user does is the point; this is not node code
		const child = spawn(
			process.execPath,
			[join(root, 'dist', 'simulator', 'cli.js'), '--port', '0'],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		try {
			const first = await new Promise<string>((resolve, reject) => {
				let out = '';
				const timer = setTimeout(
					() => reject(new Error(`the simulator printed no line within 60 s: ${out}`)),
					60_000,
				);
				child.stdout.on('data', (d: Buffer) => {
					out += d.toString();
					if (out.includes('\n')) {
						clearTimeout(timer);
						resolve(out.slice(0, out.indexOf('\n')));
					}
				});
				child.on('exit', (code) =>
					reject(new Error(`the simulator exited (${code}) before printing`)),
				);
			});
			const info = JSON.parse(first) as Record<string, unknown>;
			for (const key of keys) expect(info).toHaveProperty(key);
			expect(String(info.baseUrl)).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
		} finally {
			child.kill('SIGTERM');
			await new Promise((resolve) =>
				child.exitCode === null ? child.once('exit', resolve) : resolve(undefined),
			);
		}
	}, 90_000);
});

describe("the README's picture", () => {
	it('is drawn from the current alert blocks and example workflow (regenerate: see scripts/docs-picture.ts)', () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { renderPicture } = require('../../scripts/docs-picture') as {
			renderPicture: () => string;
		};
		expect(readFileSync(join(root, 'docs', 'images', 'alert-and-workflow.html'), 'utf8')).toBe(
			renderPicture(),
		);
		expect(existsSync(join(root, 'docs', 'images', 'alert-and-workflow.png'))).toBe(true);
		expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain(
			'](docs/images/alert-and-workflow.png)',
		);
	});
});
