/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// This test runs the simulator's command line as a user would: spawning it is the point. The
// n8n rule against spawning guards node code that runs inside n8n, which this is not.
/* eslint-disable @n8n/community-nodes/no-dangerous-functions */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseCli, parseFault } from '../../simulator/cli';

const CLI = join(__dirname, '..', '..', 'dist', 'simulator', 'cli.js');

function start(args: string[]): {
	child: ChildProcessWithoutNullStreams;
	firstLine: Promise<string>;
	exit: Promise<number | null>;
} {
	const child = spawn(process.execPath, [CLI, ...args], { stdio: 'pipe' });
	const firstLine = new Promise<string>((resolve, reject) => {
		let buffer = '';
		child.stdout.on('data', (chunk: Buffer) => {
			buffer += chunk.toString();
			const newline = buffer.indexOf('\n');
			if (newline >= 0) resolve(buffer.slice(0, newline));
		});
		child.once('exit', (code) => reject(new Error(`exited with ${code} before printing a line`)));
	});
	const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
	return { child, firstLine, exit };
}

describe('simulator CLI (dist/simulator/cli.js; npm test builds it first)', () => {
	test('the build exists', () => {
		expect(existsSync(CLI)).toBe(true);
	});

	test('prints the start-up JSON as its first line, serves the API, applies --fault, stops on SIGTERM', async () => {
		const { child, firstLine, exit } = start([
			'--port',
			'0',
			'--seed',
			'3',
			'--assets',
			'80',
			'--no-push',
			'--fault',
			'5xx=1,path=/organization/nodes',
		]);
		try {
			const info = JSON.parse(await firstLine);
			expect(Object.keys(info)).toEqual(
				expect.arrayContaining([
					'baseUrl',
					'authUrl',
					'tenantId',
					'apiScopeId',
					'credentials',
					'subscriptionCodes',
					'registrySerialNumbers',
					'pushUrls',
				]),
			);
			expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(info.assetCount).toBe(80);
			expect(info.credentials[0]).toEqual({
				orgId: expect.any(Number),
				orgName: expect.any(String),
				orgType: 'VENDOR',
				apiKey: expect.any(String),
				apiSecret: expect.any(String),
			});
			expect(info.subscriptionCodes[0]).toEqual({
				code: expect.any(String),
				level: expect.any(String),
				type: expect.any(String),
				assetType: expect.any(String),
			});
			const eu = info.credentials.find((c: { orgType: string }) => c.orgType === 'EU');
			const tokenRes = await fetch(`${info.authUrl}/${info.tenantId}/oauth2/v2.0/token`, {
				method: 'POST',
				body: new URLSearchParams({
					grant_type: 'client_credentials',
					client_id: eu.apiKey,
					client_secret: eu.apiSecret,
					Type: 'oauth2',
					scope: `${info.apiScopeId}/.default`,
				}),
			});
			const { access_token: token } = (await tokenRes.json()) as { access_token: string };
			const headers = { authorization: `Bearer ${token}` };
			expect(
				(await fetch(`${info.baseUrl}/devcenter/extapi/v1/organization`, { headers })).status,
			).toBe(200);
			expect(
				(await fetch(`${info.baseUrl}/devcenter/extapi/v1/organization/nodes`, { headers })).status,
			).toBe(503);
		} finally {
			child.kill('SIGTERM');
		}
		expect(await exit).toBe(0);
	});

	test('a bad option exits 2 with the reason and the usage', async () => {
		const child = spawn(process.execPath, [CLI, '--fault', 'explode=1'], { stdio: 'pipe' });
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
		expect(code).toBe(2);
		expect(stderr).toMatch(/unknown key 'explode'/);
		expect(stderr).toMatch(/Usage:/);
	});

	test('--fault specs parse into rules', () => {
		expect(parseFault('429=0.5,retry-after=3,path=/assetdata,path=/oauth2,times=4')).toEqual({
			rateLimitRate: 0.5,
			retryAfterSec: 3,
			paths: ['/assetdata', '/oauth2'],
			times: 4,
		});
		expect(parseFault('malformed=1,kind=truncated,latency=50')).toEqual({
			malformedRate: 1,
			malformedKind: 'truncated',
			latencyMs: 50,
		});
		expect(() => parseFault('latency=soon')).toThrow(/'soon' is not a number/);
	});

	test('options parse into simulator options, and bad numbers are refused naming the option', () => {
		expect(
			parseCli([
				'--port',
				'8080',
				'--seed',
				'demo',
				'--assets',
				'10000',
				'--event-rate',
				'2.5',
				'--time-scale',
				'60',
				'--token-lifetime',
				'120',
				'--report-delay',
				'0',
			]),
		).toEqual({
			port: 8080,
			host: undefined,
			seed: 'demo',
			assets: 10000,
			eventRatePerMinute: 2.5,
			timeScale: 60,
			tokenLifetimeSec: 120,
			reportGenerationMs: 0,
			push: undefined,
			faults: [],
		});
		expect((parseCli(['--seed', '42']) as { seed: unknown }).seed).toBe(42);
		expect(parseCli(['--help'])).toBe('help');
		expect(() => parseCli(['--time-scale', '0'])).toThrow("--time-scale: '0' must be a number > 0");
		expect(() => parseCli(['--port', 'eighty'])).toThrow(/--port/);
		expect(() => parseCli(['--colour'])).toThrow(/colour/);
	});
});
