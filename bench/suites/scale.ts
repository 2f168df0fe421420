/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a benchmark program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Fleet scale: the bot as `npm start` runs it, in a process of its own, against the
// simulator in another process (bench/scale/sim-child.ts) and our Slack stand-in in this one.
// Memory is the bot process's RSS against a bare Node process's RSS of the same run; what the
// bot asked and when comes from the platform's own request log.
//   poll  : 10,000 assets, 50 ms latency, budget 50 req/s: read gaps of busy and of all assets,
//           reported lag against the lag measured from the request log, RSS and its slope;
//   push  : 100,000 assets, a CP's data-subscription user (plus one of its customers' own, to
//           show the merge): event-to-Slack p95 and lost alerts, RSS;
//   start : first start at 50,000 assets by polling: catch-up messages per channel, E8 calls
//           against the assets that alert.
// Durations and sizes are parameters (environment): SCALE_POLL_MINUTES (default 6; 30 for the
// soak), SCALE_WARMUP_MINUTES (a third of the poll run, at most 10), SCALE_POLL_ASSETS (10000),
// SCALE_PUSH_ASSETS (100000), SCALE_START_ASSETS (50000), SCALE_PUSH_EVENTS (30),
// SCALE_PHASES (poll,push,start).
// Reproduce: `npm run bench -- scale` (results in bench/results/latest.md).
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- a benchmark that runs the bot and the simulator as processes of their own, not node code */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '../../bot/log';
import { BOT_NODE_FLAGS } from '../../bot/cli/node-flags';
import { createPlatformClient } from '../../bot/platform/client';
import { ensurePushUser } from '../../bot/platform/push-user';
import type { SimulatorInfo } from '../../simulator';
import { fakeSlackToken } from '../../test/bot/helpers';
import { SlackApiServer, type StoredMessage } from '../../test/bot/slack-server';
import type { Read, SimRequest } from '../scale/sim-child';
import type { BenchSuite, Figure } from '../suite';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const POLL_MINUTES = env('SCALE_POLL_MINUTES', 6);
const POLL_ASSETS = env('SCALE_POLL_ASSETS', 10_000);
const PUSH_ASSETS = env('SCALE_PUSH_ASSETS', 100_000);
const START_ASSETS = env('SCALE_START_ASSETS', 50_000);
const PUSH_EVENTS = env('SCALE_PUSH_EVENTS', 30);
const PHASES = (process.env.SCALE_PHASES ?? 'poll,push,start').split(',');
// Warm-up, left out of the RSS slope: the first full round of event reads and the heap growing to
// its working size. A third of the run, at most 10 min. The first connectivity round (16 min at
// 10,000 assets) and the first CBM round (60 min) last longer; neither holds memory for its
// length any more, and a longer soak with SCALE_WARMUP_MINUTES past them shows what follows.
const WARMUP_MINUTES = env('SCALE_WARMUP_MINUTES', Math.min(10, POLL_MINUTES / 3));
const LATENCY_MS = 50;
const BUDGET = 50;
const CP_ID = 2;

const logger = createLogger({ level: 'error' });
export const MiB = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;
/** The p-th percentile (nearest rank). */
export const percentile = (values: number[], p: number) =>
	[...values].sort((a, b) => a - b)[
		Math.min(values.length - 1, Math.max(0, Math.ceil((p / 100) * values.length) - 1))
	] ?? NaN;

/** VmRSS, or with `field` another line of /proc/<pid>/status (RssAnon: without file-backed pages). */
function rssOf(pid: number, field = 'VmRSS'): number {
	const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(
		readFileSync(`/proc/${pid}/status`, 'utf8'),
	);
	return match ? Number(match[1]) * 1024 : NaN;
}

/** Slope of y over x by least squares (units of y per unit of x). */
function slope(points: Array<[number, number]>): number {
	const n = points.length;
	if (n < 2) return 0;
	const mx = points.reduce((s, [x]) => s + x, 0) / n;
	const my = points.reduce((s, [, y]) => s + y, 0) / n;
	const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
	const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
	return den === 0 ? 0 : num / den;
}

export async function bareNodeRss(): Promise<number> {
	const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
	await sleep(1500);
	const rss = rssOf(child.pid!);
	child.kill();
	return rss;
}

class SimProcess {
	private next = 0;
	private readonly waiting = new Map<
		number,
		{ resolve: (v: unknown) => void; reject: (e: Error) => void }
	>();
	info!: SimulatorInfo;

	private constructor(private readonly child: ChildProcess) {
		child.on('message', (m: { id: number; result?: unknown; error?: string }) => {
			const w = this.waiting.get(m.id);
			this.waiting.delete(m.id);
			if (m.error !== undefined) w?.reject(new Error(m.error));
			else w?.resolve(m.result);
		});
	}

	static async start(assets: number, latencyMs: number): Promise<SimProcess> {
		const child = fork(path.join(__dirname, '..', 'scale', 'sim-child.js'), [], {
			stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
			execArgv: ['--max-old-space-size=4096'],
		});
		const sim = new SimProcess(child);
		sim.info = (await sim.call({ op: 'start', assets, latencyMs })) as SimulatorInfo;
		return sim;
	}

	call(request: SimRequest): Promise<unknown> {
		const id = this.next++;
		return new Promise((resolve, reject) => {
			this.waiting.set(id, { resolve, reject });
			this.child.send({ id, request });
		});
	}

	async close(): Promise<void> {
		await Promise.race([this.call({ op: 'close' }), sleep(10_000)]);
		this.child.kill();
	}
}

interface LogLine {
	at: number;
	text: string;
}

class BotProcess {
	readonly lines: LogLine[] = [];
	private readonly child: ChildProcess;
	private readonly dir = mkdtempSync(path.join(tmpdir(), 'drive-scale-'));

	constructor(
		sim: SimProcess,
		slack: SlackApiServer,
		token: string,
		orgId: number,
		config: Record<string, unknown>,
		extraEnv: Record<string, string> = {},
	) {
		const credential = sim.info.credentials.find((c) => c.orgId === orgId)!;
		const configFile = path.join(this.dir, 'bot.json');
		writeFileSync(
			configFile,
			JSON.stringify({ ...config, stateFile: path.join(this.dir, 'state.sqlite') }),
		);
		// Started as npm start and the installed command start it: with the bot's V8 flags.
		// SCALE_BOT_FLAGS, e.g. --trace-gc (V8 flags NODE_OPTIONS refuses), with the bot's stdout
		// appended to SCALE_BOT_STDOUT: the live heap after each mark-compact, to tell a leak from lazy GC.
		const flags = (process.env.SCALE_BOT_FLAGS ?? '').split(/\s+/).filter(Boolean);
		const stdout = process.env.SCALE_BOT_STDOUT
			? openSync(process.env.SCALE_BOT_STDOUT, 'a')
			: 'ignore';
		this.child = spawn(
			process.execPath,
			[
				...BOT_NODE_FLAGS,
				...flags,
				path.join(__dirname, '..', '..', 'bot', 'cli.js'),
				'--config',
				configFile,
			],
			{
				stdio: ['ignore', stdout, 'pipe'],
				env: {
					PATH: process.env.PATH,
					LOG_LEVEL: process.env.SCALE_BOT_LOG_LEVEL ?? 'info',
					SLACK_BOT_TOKEN: token,
					SLACK_SIGNING_SECRET: 'scale-bench-signing-secret',
					SLACK_API_URL: slack.apiUrl,
					PORT: '0',
					DRIVE_MONITORING_BASE_URL: sim.info.baseUrl,
					DRIVE_MONITORING_AUTH_URL: sim.info.authUrl,
					DRIVE_MONITORING_TENANT_ID: sim.info.tenantId,
					DRIVE_MONITORING_API_KEY: credential.apiKey,
					DRIVE_MONITORING_API_SECRET: credential.apiSecret,
					DRIVE_MONITORING_API_SCOPE_ID: sim.info.apiScopeId,
					// SCALE_BOT_NODE_OPTIONS, e.g. --max-old-space-size=96: tells lazy GC apart from a leak.
					...(process.env.SCALE_BOT_NODE_OPTIONS
						? { NODE_OPTIONS: process.env.SCALE_BOT_NODE_OPTIONS }
						: {}),
					// glibc's malloc tuning (MALLOC_ARENA_MAX and the like), to compare native memory with it.
					...Object.fromEntries(
						Object.entries(process.env).filter(([name]) => name.startsWith('MALLOC_')),
					),
					...extraEnv,
				},
			},
		);
		if (typeof stdout === 'number') closeSync(stdout);
		let rest = '';
		this.child.stderr!.on('data', (chunk: Buffer) => {
			const parts = (rest + chunk.toString('utf8')).split('\n');
			rest = parts.pop() ?? '';
			for (const text of parts) this.lines.push({ at: Date.now(), text });
		});
	}

	get pid(): number {
		return this.child.pid!;
	}

	rss(field?: string): number {
		return rssOf(this.pid, field);
	}

	async waitFor(pattern: RegExp, timeoutMs: number): Promise<LogLine | undefined> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const line = this.lines.find((l) => pattern.test(l.text));
			if (line || Date.now() > deadline || this.child.exitCode !== null) return line;
			await sleep(100);
		}
	}

	async stop(): Promise<void> {
		// SCALE_BOT_LOG=<file> keeps the bot's log lines of every phase (for a figure that is off).
		if (process.env.SCALE_BOT_LOG)
			writeFileSync(process.env.SCALE_BOT_LOG, this.lines.map((l) => `${l.text}\n`).join(''), {
				flag: 'a',
			});
		this.child.kill('SIGTERM');
		await Promise.race([new Promise((r) => this.child.once('exit', r)), sleep(10_000)]);
		rmSync(this.dir, { recursive: true, force: true });
	}
}

/** RSS samples of a process every `everyMs` until `until` resolves true: [minute, RSS, anonymous RSS]. */
async function sampleRss(
	bot: BotProcess,
	everyMs: number,
	stop: () => boolean,
): Promise<Array<[number, number, number]>> {
	const samples: Array<[number, number, number]> = [];
	const t0 = Date.now();
	while (!stop()) {
		samples.push([(Date.now() - t0) / 60_000, bot.rss(), bot.rss('RssAnon')]);
		await sleep(everyMs);
	}
	return samples;
}

/** SCALE_BOT_LOG: the phase's RSS samples, [minute, RSS MiB, anonymous RSS MiB], to see when a peak or a rise came. */
function logSamples(phase: string, samples: Array<[number, number, number]>): void {
	const rows = samples.map(([minute, rss, anon]) => [
		Number(minute.toFixed(2)),
		Number((rss / 1048576).toFixed(1)),
		Number((anon / 1048576).toFixed(1)),
	]);
	if (process.env.SCALE_BOT_LOG)
		writeFileSync(process.env.SCALE_BOT_LOG, `rss ${phase} ${JSON.stringify(rows)}\n`, {
			flag: 'a',
		});
}

async function pollPhase(bareRss: number, slack: SlackApiServer, token: string): Promise<Figure[]> {
	const sim = await SimProcess.start(POLL_ASSETS, LATENCY_MS);
	const vendor = sim.info.credentials.find((c) => c.orgType === 'VENDOR')!;
	const bot = new BotProcess(sim, slack, token, vendor.orgId, {
		source: {
			kind: 'poll',
			pollIntervalSeconds: 30,
			maxRequestsPerSecond: BUDGET,
			maxQuietLagMinutes: 15,
		},
		// As a user's default config runs: connectivity by E8 within its share of the same budget.
		connectivity: { enabled: true },
	});
	const reads: Read[] = [];
	const started = Date.now();
	const endAt = started + POLL_MINUTES * 60_000;
	const candidates = (await sim.call({ op: 'assets' })) as number[];
	// Busy assets: a Fault on one of 100 assets every 5 s (each then has an alert in the last day).
	const busyPool = candidates
		.filter((_, i) => i % Math.max(1, Math.floor(candidates.length / 100)) === 0)
		.slice(0, 100);
	const raisedAt = new Map<number, number>();
	let done = false;
	const rssSamples = sampleRss(bot, 5_000, () => done);
	let i = 0;
	while (Date.now() < endAt) {
		await sleep(5_000);
		const assetId = busyPool[i++ % busyPool.length];
		await sim.call({ op: 'raise', assetId });
		if (!raisedAt.has(assetId)) raisedAt.set(assetId, Date.now());
		reads.push(...((await sim.call({ op: 'reads' })) as Read[]));
	}
	done = true;
	const samples = await rssSamples;
	logSamples('poll', samples);
	reads.push(...((await sim.call({ op: 'reads' })) as Read[]));
	const counts = (await sim.call({ op: 'counts' })) as Record<string, number>;
	const passes = bot.lines
		// The bot's own time of the line (its log's ISO prefix): the time the bench reads the pipe can
		// be seconds later on a loaded machine, by which time the next pass has read the oldest assets.
		.map((l) => ({
			at: Date.parse(l.text.slice(0, 24)) || l.at,
			m: /poll: pass read (\d+) of (\d+) assets in ([\d.]+) s.*; lag (\d+) s, busy assets (\d+) s/.exec(
				l.text,
			),
		}))
		.filter((p): p is { at: number; m: RegExpExecArray } => p.m !== null);
	const plan = bot.lines
		.filter((l) => l.text.includes('poll: plan:'))
		.pop()
		?.text.replace(/^.*poll: plan: /, '');
	await bot.stop();
	await sim.close();

	// Gaps between consecutive reads of one asset, as the platform saw them.
	reads.sort((a, b) => a.at - b.at);
	const lastAt = new Map<number, number>();
	const firstFullRound = (() => {
		const seen = new Set<number>();
		for (const r of reads) {
			seen.add(r.assetId);
			if (seen.size >= candidates.length * 0.99) return r.at;
		}
		return Infinity;
	})();
	const knownBusy = new Map<number, number>();
	for (const r of reads) {
		const raised = raisedAt.get(r.assetId);
		if (raised !== undefined && !knownBusy.has(r.assetId) && r.end >= raised)
			knownBusy.set(r.assetId, r.at);
	}
	let maxGapAll = 0;
	let maxGapBusy = 0;
	let busyGapOf = '';
	for (const r of reads) {
		const prev = lastAt.get(r.assetId);
		// Steady state: both reads after the first full round (which reads every asset once, in order).
		if (prev !== undefined && prev > firstFullRound) {
			maxGapAll = Math.max(maxGapAll, r.at - prev);
			const busySince = knownBusy.get(r.assetId);
			// Busy from the first read whose window holds its first fault (the bot learns it is busy then).
			if (busySince !== undefined && prev >= busySince && r.at - prev > maxGapBusy) {
				maxGapBusy = r.at - prev;
				busyGapOf = `asset ${r.assetId}: fault raised ${new Date(raisedAt.get(r.assetId)!).toISOString()}, known ${new Date(busySince).toISOString()}, read ${new Date(prev).toISOString()} then ${new Date(r.at).toISOString()}`;
			}
		}
		lastAt.set(r.assetId, r.at);
	}
	if (process.env.SCALE_BOT_LOG)
		writeFileSync(process.env.SCALE_BOT_LOG, `longest busy gap: ${busyGapOf}\n`, { flag: 'a' });
	// Reported lag (the bot's pass lines) against the lag measured from the request log at that time.
	const everRead = new Set(reads.map((r) => r.assetId));
	const errors: number[] = [];
	const lagLines: string[] = [];
	const endOf = new Map<number, number>();
	let k = 0;
	for (const pass of passes.filter((p) => p.at > firstFullRound)) {
		while (k < reads.length && reads[k].at <= pass.at) endOf.set(reads[k].assetId, reads[k++].end);
		let oldest = pass.at;
		let oldestId = -1;
		for (const id of everRead) {
			const end = endOf.get(id) ?? oldest;
			if (end < oldest) [oldest, oldestId] = [end, id];
		}
		const measured = (pass.at - oldest) / 1000;
		const reported = Number(pass.m[4]);
		if (measured > 0) errors.push(Math.abs(reported - measured) / measured);
		lagLines.push(
			`lag at ${new Date(pass.at).toISOString()}: reported ${reported} s, measured ${measured.toFixed(0)} s (asset ${oldestId} read through ${new Date(oldest).toISOString()})`,
		);
	}
	if (process.env.SCALE_BOT_LOG)
		writeFileSync(process.env.SCALE_BOT_LOG, lagLines.map((l) => `${l}\n`).join(''), { flag: 'a' });
	const warm = samples.filter(([minute]) => minute >= WARMUP_MINUTES);
	const peak = Math.max(...samples.map(([, rss]) => rss));
	const slopeMiBPerMin = slope(warm.map(([minute, rss]) => [minute, rss])) / 1048576;
	// Anonymous memory alone: the kernel may drop the node binary's file-backed pages from RSS
	// under memory pressure (seen in the soak: RSS fell 60 MiB at once), which hides a rise.
	const anonSlope = slope(warm.map(([minute, , anon]) => [minute, anon])) / 1048576;
	// Not rising: the peak of the second half after warm-up against the peak of the first half.
	const half = warm.length >> 1;
	const peakOf = (part: typeof warm) => Math.max(...part.map(([, , anon]) => anon));
	const [early, late] = [peakOf(warm.slice(0, half)), peakOf(warm.slice(half))];
	const e14 = Object.entries(counts)
		.filter(([key]) => key.startsWith('E14:'))
		.reduce((s, [, n]) => s + n, 0);
	const rate = e14 / ((Date.now() - started) / 1000);
	const meanError = errors.length ? errors.reduce((s, e) => s + e, 0) / errors.length : NaN;
	const label = `poll, ${POLL_ASSETS.toLocaleString('en-US')} assets, ${LATENCY_MS} ms latency, budget ${BUDGET} req/s, ${POLL_MINUTES} min`;
	return [
		{
			name: `${label}: bot RSS peak`,
			value: MiB(peak),
			baseline: `${MiB(bareRss)} bare Node`,
			ratio: `${(peak / bareRss).toFixed(2)}x`,
			target: '< 200 MiB',
			met: peak < 200 * 1048576,
		},
		{
			name: `${label}: RSS slope after warm-up (the first ${WARMUP_MINUTES.toFixed(1)} min; ${warm.length} samples)`,
			value: `${slopeMiBPerMin.toFixed(2)} MiB/min`,
			target: '≈ 0, not rising (< 0.5 MiB/min)',
			met: slopeMiBPerMin < 0.5,
		},
		{
			name: `${label}: anonymous RSS (RssAnon) slope after warm-up`,
			value: `${anonSlope.toFixed(2)} MiB/min`,
			target: '≈ 0, not rising (< 0.5 MiB/min)',
			met: anonSlope < 0.5,
		},
		{
			name: `${label}: anonymous RSS peak of the second half after warm-up against the first half`,
			value: MiB(late),
			baseline: `${MiB(early)} first half`,
			ratio: `${(late / early).toFixed(3)}x`,
			target: '<= 1.02x',
			met: late <= early * 1.02,
		},
		{
			name: `${label}: platform requests per second (E14, all kinds: ${counts.total})`,
			value: rate.toFixed(1),
			baseline: `${BUDGET} budget`,
			ratio: `${(rate / BUDGET).toFixed(2)}x`,
			target: `<= ${BUDGET}`,
			met: counts.total / ((Date.now() - started) / 1000) <= BUDGET * 1.05,
		},
		{
			name: `${label}: longest gap between reads of a busy asset`,
			value: `${(maxGapBusy / 1000).toFixed(0)} s`,
			target: '<= 60 s',
			met: maxGapBusy <= 60_000,
		},
		{
			name: `${label}: longest gap between reads of any asset after the first round`,
			value: `${(maxGapAll / 1000).toFixed(0)} s`,
			baseline: `plan: ${plan ?? '-'}`,
			target: '<= 900 s',
			met: maxGapAll <= 900_000,
		},
		{
			name: `${label}: E8 reads per second (connectivity, plus alert details)`,
			value: ((counts['E8:200'] ?? 0) / ((Date.now() - started) / 1000)).toFixed(1),
			baseline: `${BUDGET * 0.2} (20% of the budget, B70)`,
			target: `<= ${BUDGET * 0.2} + details`,
			met: (counts['E8:200'] ?? 0) / ((Date.now() - started) / 1000) <= BUDGET * 0.2 * 1.1,
		},
		{
			name: `${label}: reported lag vs lag measured from the request log (${errors.length} passes)`,
			value: `${(meanError * 100).toFixed(1)}% mean, ${(Math.max(0, ...errors) * 100).toFixed(1)}% max`,
			target: '<= 10%',
			met: meanError <= 0.1,
		},
	];
}

/** What one push run measured: faults raised to Slack posts, RSS samples [minute, RSS, anonymous RSS]. */
export interface PushRun {
	/** Assets in the bot's directory (what its platform credential sees). */
	directoryAssets: number;
	euOrgId: number;
	raised: number;
	/** Fault raised in the simulator (and so pushed) to its message in Slack, in ms, for those posted. */
	latencies: number[];
	lost: number;
	/** Faults in more than one top-level message. */
	twice: number;
	samples: Array<[number, number, number]>;
}

/**
 * The bot in push mode against `assets` assets, a CP's data-subscription user plus one of its customers' own (each
 * event arrives twice and must post once), `events` faults one per 3.2 s: the scale suite's push phase, and the
 * ha-store suite's run on either store (`env`: DRIVE_BOT_DATABASE_URL for PostgreSQL; without it the SQLite file).
 */
export async function runPush(options: {
	assets: number;
	events: number;
	slack: SlackApiServer;
	token: string;
	env?: Record<string, string>;
	phase: string;
	/** The bot's platform credential is the operator's (every asset in its directory) rather than the CP's. */
	operatorDirectory?: boolean;
}): Promise<PushRun> {
	const { slack, token } = options;
	const sim = await SimProcess.start(options.assets, 0);
	const base = {
		baseUrl: sim.info.baseUrl,
		authUrl: sim.info.authUrl,
		tenantId: sim.info.tenantId,
		apiScopeId: sim.info.apiScopeId,
	};
	const cp = sim.info.credentials.find((c) => c.orgId === CP_ID)!;
	const eu = sim.info.credentials.find((c) => c.orgType === 'EU')!;
	const url = sim.info.pushUrls.amqp;
	const users = [];
	for (const [name, c] of [
		[`CP ${cp.orgId}`, cp],
		[`EU ${eu.orgId}`, eu],
	] as const) {
		const client = createPlatformClient(
			{ ...base, apiKey: c.apiKey, apiSecret: c.apiSecret },
			logger,
		);
		users.push({ name, user: await ensurePushUser(client, url, `scale-${c.orgId}`, false) });
		await client.close();
	}
	const platformOrg = options.operatorDirectory
		? sim.info.credentials.find((c) => c.orgType === 'VENDOR')!.orgId
		: CP_ID;
	const bot = new BotProcess(
		sim,
		slack,
		token,
		platformOrg,
		{
			source: {
				kind: 'push',
				pushUsers: users.map((u, n) => ({
					name: u.name,
					url,
					userName: u.user.userName,
					topic: u.user.topic,
					passwordEnv: `SCALE_PUSH_PASSWORD_${n}`,
				})),
			},
			cbm: { enabled: false },
		},
		{
			...Object.fromEntries(users.map((u, n) => [`SCALE_PUSH_PASSWORD_${n}`, u.user.password])),
			...options.env,
		},
	);
	const ready = await bot.waitFor(/bot: alerts from the push channel, (\d+) assets/, 600_000);
	const directoryAssets = Number(/(\d+) assets/.exec(ready?.text ?? '')?.[1] ?? 0);
	const pool = (await sim.call({ op: 'assets', orgIds: [eu.orgId] })) as number[];
	const postedAt = new Map<string, number>();
	// Event ids restart in every simulator: only this run's posts count.
	let seenPosts = slack.posts().length;
	let done = false;
	const watcher = (async () => {
		while (!done) {
			const posts: StoredMessage[] = slack.posts();
			for (; seenPosts < posts.length; seenPosts++) {
				for (const [, id] of JSON.stringify(posts[seenPosts].blocks).matchAll(/event (\d+)/g))
					if (!postedAt.has(id)) postedAt.set(id, Date.now());
			}
			await sleep(10);
		}
	})();
	const rss = sampleRss(bot, 2_000, () => done);
	const raised: Array<{ eventId: string; at: number }> = [];
	const postsBefore = slack.posts().length;
	for (let i = 0; i < options.events; i++) {
		// Events of a customer that has its own user too: each arrives twice (CP and EU) and must post once.
		raised.push(
			(await sim.call({ op: 'raise', assetId: pool[(i * 7) % pool.length] })) as {
				eventId: string;
				at: number;
			},
		);
		// Below the storm threshold (20 alerts a minute in a channel, B6): "outside storms".
		await sleep(3_200);
	}
	const deadline = Date.now() + 30_000;
	while (raised.some((r) => !postedAt.has(r.eventId)) && Date.now() < deadline) await sleep(100);
	done = true;
	await watcher;
	const samples = await rss;
	logSamples(options.phase, samples);
	const latencies = raised
		.filter((r) => postedAt.has(r.eventId))
		.map((r) => postedAt.get(r.eventId)! - r.at);
	if (process.env.SCALE_BOT_LOG)
		writeFileSync(
			process.env.SCALE_BOT_LOG,
			`latencies ${options.phase} ${JSON.stringify(raised.map((r) => [r.eventId, r.at, postedAt.get(r.eventId)]))}\n`,
			{ flag: 'a' },
		);
	const timesPosted = new Map<string, number>();
	for (const m of slack
		.posts()
		.slice(postsBefore)
		.filter((p) => !p.threadTs)) {
		for (const id of new Set(
			[...JSON.stringify(m.blocks).matchAll(/event (\d+)/g)].map((x) => x[1]),
		))
			timesPosted.set(id, (timesPosted.get(id) ?? 0) + 1);
	}
	await bot.stop();
	await sim.close();
	return {
		directoryAssets,
		euOrgId: eu.orgId,
		raised: raised.length,
		latencies,
		lost: raised.length - latencies.length,
		twice: [...timesPosted.values()].filter((n) => n > 1).length,
		samples,
	};
}

async function pushPhase(bareRss: number, slack: SlackApiServer, token: string): Promise<Figure[]> {
	const run = await runPush({
		assets: PUSH_ASSETS,
		events: PUSH_EVENTS,
		slack,
		token,
		phase: 'push',
	});
	const peak = Math.max(...run.samples.map(([, r]) => r));
	const p95 = percentile(run.latencies, 95);
	const label = `push, ${PUSH_ASSETS.toLocaleString('en-US')} assets, CP ${CP_ID} user + EU ${run.euOrgId} user (${run.directoryAssets} assets in the bot's directory)`;
	// The targets: < 150 MiB at 10,000 assets, < 300 MiB at 100,000.
	const pushRssTargetMiB = PUSH_ASSETS <= 10_000 ? 150 : 300;
	return [
		{
			name: `${label}: bot RSS peak`,
			value: MiB(peak),
			baseline: `${MiB(bareRss)} bare Node`,
			ratio: `${(peak / bareRss).toFixed(2)}x`,
			target: `< ${pushRssTargetMiB} MiB`,
			met: peak < pushRssTargetMiB * 1048576,
		},
		{
			name: `${label}: event-to-Slack p95 (${run.raised} faults, one per 3.2 s)`,
			value: `${p95.toFixed(0)} ms`,
			target: '< 2000 ms',
			met: p95 < 2000,
		},
		{ name: `${label}: faults lost`, value: String(run.lost), target: '0', met: run.lost === 0 },
		{
			name: `${label}: faults posted more than once (each was pushed to both users)`,
			value: String(run.twice),
			target: '0',
			met: run.twice === 0,
		},
	];
}

async function startPhase(slack: SlackApiServer, token: string): Promise<Figure[]> {
	const sim = await SimProcess.start(START_ASSETS, 0);
	const vendor = sim.info.credentials.find((c) => c.orgType === 'VENDOR')!;
	const postsBefore = slack.posts().length;
	// Connectivity off: this phase counts the E8 reads of alert details (B48); connectivity's own E8
	// reads are paced within their share (B70) and measured in the poll phase.
	const bot = new BotProcess(sim, slack, token, vendor.orgId, {
		source: { kind: 'poll', pollIntervalSeconds: 30, maxRequestsPerSecond: 1000 },
		cbm: { enabled: false },
		connectivity: { enabled: false },
	});
	const pass = await bot.waitFor(/poll: pass read/, 1_800_000);
	await sleep(5_000); // the catch-up messages leave the outbox
	const catchUpLine = bot.lines.find((l) => l.text.includes('from before the start'))?.text ?? '';
	const alerting = Number(/alerts on (\d+) assets/.exec(catchUpLine)?.[1] ?? 0);
	const alerts = Number(/poll: (\d+) alerts on/.exec(catchUpLine)?.[1] ?? 0);
	const counts = (await sim.call({ op: 'counts' })) as Record<string, number>;
	const posts = slack
		.posts()
		.slice(postsBefore)
		.filter((m) => !m.threadTs);
	const perChannel = new Map<string, number>();
	for (const m of posts) perChannel.set(m.channel, (perChannel.get(m.channel) ?? 0) + 1);
	const e8 = counts['E8:200'] ?? 0;
	await bot.stop();
	await sim.close();
	const most = Math.max(0, ...perChannel.values());
	const label = `first start, ${START_ASSETS.toLocaleString('en-US')} assets by polling (${alerts} alerts from the last hour${pass ? '' : ', first pass NOT finished'})`;
	return [
		{
			name: `${label}: messages in the busiest channel`,
			value: String(most),
			baseline: `${alerts} one message per alert`,
			target: '<= 1',
			met: most <= 1 && pass !== undefined,
		},
		{
			name: `${label}: E8 calls (connectivity off)`,
			value: String(e8),
			baseline: `${alerting} alerting assets`,
			target: `<= ${alerting}`,
			met: e8 <= alerting,
		},
	];
}

const suite: BenchSuite = {
	name: 'scale',
	async run() {
		const token = fakeSlackToken('b');
		const slack = await new SlackApiServer({ token }).start();
		const bare = await bareNodeRss();
		const figures: Figure[] = [];
		try {
			if (PHASES.includes('poll')) figures.push(...(await pollPhase(bare, slack, token)));
			if (PHASES.includes('push')) figures.push(...(await pushPhase(bare, slack, token)));
			if (PHASES.includes('start')) figures.push(...(await startPhase(slack, token)));
		} finally {
			await slack.close();
		}
		return {
			name: 'scale',
			description: `Fleet scale: the bot in its own process (as npm start runs it), the simulator in another, our Slack stand-in; RSS against a bare Node process (${MiB(bare)}) of the same run. Phases: ${PHASES.join(', ')}.`,
			figures,
		};
	},
};

export default suite;
