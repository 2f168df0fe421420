/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The GitHub workflows against GitHub's workflow schema (@action-validator/core, the validator of
// the action-validator CLI), and what each must do: CI runs .ci/run; a version tag publishes with
// provenance only after the agreement check and CI.
import fs from 'node:fs';
import path from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { publishCommands } = require('../../scripts/release') as {
	publishCommands(
		packed: { name: string; version: string; tarball: string; requires: string[] }[],
		dir: string,
		options: { dryRun: boolean; published?: Set<string> },
	): { name: string; args: string[] }[];
};

const DIR = path.resolve(__dirname, '../../.github/workflows');
const files = fs.readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f));

interface Step {
	run?: string;
	uses?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
}
interface Job {
	needs?: string | string[];
	uses?: string;
	permissions?: Record<string, string>;
	steps?: Step[];
}
interface Workflow {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}
const workflow = (name: string) => parse(fs.readFileSync(path.join(DIR, name), 'utf8')) as Workflow;
const runs = (job: Job) => (job.steps ?? []).flatMap((s) => (s.run ? [s.run] : []));

test.each(files)('%s is a valid GitHub workflow', (file) => {
	expect(validateWorkflow(fs.readFileSync(path.join(DIR, file), 'utf8')).errors).toEqual([]);
});

test('the validator refuses a broken workflow (so the check above can fail)', () => {
	const broken = fs.readFileSync(path.join(DIR, 'ci.yml'), 'utf8').replace('runs-on:', 'runs-onn:');
	expect(validateWorkflow(broken).errors.length).toBeGreaterThan(0);
});

test('ci.yml runs .ci/run on push and pull request, and can be called by publish.yml', () => {
	const ci = workflow('ci.yml');
	expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push', 'workflow_call']);
	expect(Object.values(ci.jobs).flatMap(runs)).toContain('.ci/run');
	expect(ci.permissions).toEqual({ contents: 'read' });
});

test('publish.yml: a v* tag; the agreement check and CI before npm publish with provenance from the tarballs', () => {
	const publish = workflow('publish.yml');
	expect(publish.on).toEqual({ push: { tags: ['v*'] } });
	expect(runs(publish.jobs.agree)).toContain(
		'node scripts/release.js check --tag "$GITHUB_REF_NAME" --repository "$GITHUB_REPOSITORY"',
	);
	expect(publish.jobs.ci.uses).toBe('./.github/workflows/ci.yml');
	const job = publish.jobs.publish;
	expect(job.needs).toEqual(['agree', 'ci']);
	// Provenance needs GitHub's OIDC token; only this job may mint one.
	expect(job.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
	expect(publish.permissions).toEqual({ contents: 'read' });
	expect(runs(job)).toEqual([
		expect.stringMatching(/^npm install --global npm@/),
		'npm ci --no-audit --no-fund',
		expect.stringContaining('scripts/release.js check'),
		'npm run pack',
		'npm run lint:n8n',
		'npm run scan',
		'npm run release:publish',
	]);
	expect(job.steps!.find((s) => s.uses?.startsWith('actions/setup-node'))!.with).toMatchObject({
		'registry-url': 'https://registry.npmjs.org',
	});
});

test('release:publish: npm publish of each tarball with provenance and public access, the simulator before the bot that names it; --dry-run in CI', () => {
	// As `npm run pack` lists them in artifacts/packages/packages.json (the bot after the simulator it names).
	const packed = [
		{ name: 'n8n-nodes-drive-monitoring', requires: ['n8n-workflow'] },
		{ name: 'n8n-nodes-drive-monitoring-push', requires: ['mqtt', 'n8n-workflow'] },
		{ name: 'drive-monitoring-bot', requires: ['@slack/bolt', 'drive-monitoring-simulator'] },
		{ name: 'drive-monitoring-simulator', requires: ['aedes'] },
	].map((p) => ({ ...p, version: '1.2.3', tarball: `${p.name}-1.2.3.tgz` }));
	const commands = publishCommands(packed, '/packages', { dryRun: false });
	expect(commands.map((c) => c.name).sort()).toEqual([
		'drive-monitoring-bot',
		'drive-monitoring-simulator',
		'n8n-nodes-drive-monitoring',
		'n8n-nodes-drive-monitoring-push',
	]);
	const names = commands.map((c) => c.name);
	expect(names.indexOf('drive-monitoring-simulator')).toBeLessThan(
		names.indexOf('drive-monitoring-bot'),
	);
	for (const { name, args } of commands) {
		const tarball = packed.find((p) => p.name === name)!.tarball;
		expect(args).toEqual([
			'publish',
			path.join('/packages', tarball),
			'--access',
			'public',
			'--provenance',
		]);
	}
	// After a release: a real run leaves out what is on the registry; a dry run still checks it.
	const published = new Set(['drive-monitoring-simulator']);
	expect(
		publishCommands(packed, '/packages', { dryRun: false, published }).map((c) => c.name),
	).not.toContain('drive-monitoring-simulator');
	const dry = publishCommands(packed, '/packages', { dryRun: true, published });
	expect(dry.find((c) => c.name === 'drive-monitoring-simulator')!.args.slice(-2)).toEqual([
		'--dry-run',
		'--force',
	]);
	expect(dry.find((c) => c.name === 'drive-monitoring-bot')!.args.slice(-1)).toEqual(['--dry-run']);
	const preRelease = publishCommands(
		[{ name: 'x', version: '1.0.0-rc.1', tarball: 'x.tgz', requires: [] }],
		'/p',
		{ dryRun: true },
	);
	expect(preRelease[0].args).toEqual([
		'publish',
		path.join('/p', 'x.tgz'),
		'--access',
		'public',
		'--tag',
		'next',
		'--dry-run',
	]);
	expect(fs.readFileSync(path.resolve(__dirname, '../../.ci/run'), 'utf8')).toMatch(
		/^npm run pack\n[\s\S]*^npm run release:publish -- --dry-run$/m,
	);
});
