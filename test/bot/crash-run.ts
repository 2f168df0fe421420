/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { storeEnvironment } from './store-under-test';
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { METADATA_TYPE } from '../../bot/kernel/notice';
import type { BotLogger } from '../../bot/log';
import { type Simulator, startSimulator } from '../../simulator';
import { credentialsOf, pushUserFor, type SimAsset } from './harness';
import { fakeSlackToken, tempStateFile, waitFor } from './helpers';
import { SlackApiServer, type StoredMessage } from './slack-server';

// The crash scenario shared by the crash test and the benchmark: the compiled bot (as `npm start`
// runs it with Slack tokens, platform and push at the simulator) is killed with SIGKILL at random
// instants while faults are raised and closed, with a slow Slack, and restarted on the same state.
// From test/bot under jest, or dist/test/bot when the compiled benchmark imports this file.
const ROOT = path.resolve(
	__dirname,
	'..',
	'..',
	...(path.basename(path.resolve(__dirname, '..', '..')) === 'dist' ? ['..'] : []),
);
const CLI = path.join(ROOT, 'dist', 'bot', 'cli.js');

export interface CrashOutcome {
	faults: number;
	closed: number;
	kills: number;
	/** Faults carried by more than one message. */
	duplicates: string[];
	/** Faults in no message. */
	lost: string[];
	/** Faults whose one message does not show their final state (open or resolved). */
	stale: string[];
	/** Posts found already in Slack after a kill (not made again). */
	reconciled: number;
	topLevelMessages: number;
	blockKitProblems: number;
	/** The bot's last log lines, for a failure's explanation. */
	stderr: string;
}

/** Top-level messages whose metadata says they carry this event (not a close line about it). */
export function carriers(slack: SlackApiServer, eventId: string): StoredMessage[] {
	return slack.posts().filter(
		(m) =>
			!m.threadTs &&
			m.metadata?.event_type === METADATA_TYPE &&
			String(m.metadata.event_payload.alerts ?? '')
				.split(',')
				.includes(eventId),
	);
}

/** Whether a fault's one message shows it open, or resolved once closed. */
export function showsFinalState(message: StoredMessage, eventId: string, closed: boolean): boolean {
	const json = JSON.stringify(message.blocks);
	const resolved = new RegExp(
		`Resolved [^"]*· event ${eventId}\\b|event ${eventId} :white_check_mark: resolved`,
	).test(json);
	return closed ? resolved : !resolved && json.includes(`event ${eventId}`);
}

/** The simulator, a slow Slack, and the environment of the compiled bot run as `npm start` runs it, against both. */
export interface BotScene {
	sim: Simulator;
	slack: SlackApiServer;
	/** The bot's environment, without its store (DRIVE_BOT_STATE or DRIVE_BOT_DATABASE_URL). */
	env: NodeJS.ProcessEnv;
	/** A temporary directory for the run (config file, state file), removed by close(). */
	dir: string;
	/** Assets of the pushed organization that can fault. */
	assets: SimAsset[];
	close(): Promise<void>;
}

export async function startBotScene(options: {
	slackLatencyMs: number;
	logger: BotLogger;
}): Promise<BotScene> {
	const sim = await startSimulator();
	const botToken = fakeSlackToken('b');
	const slack = await new SlackApiServer({
		token: botToken,
		latencyMs: options.slackLatencyMs,
	}).start();
	const state = tempStateFile();
	const close = async () => {
		await slack.close();
		await sim.close();
		state.cleanup();
	};
	try {
		const candidates = sim.fleet
			.assets()
			.filter((a) => a.assetType !== 'PowerTrain' && a.level !== 'expired');
		const orgId = candidates[0].orgId;
		const push = await pushUserFor(sim, orgId, options.logger);
		const credentials = credentialsOf(sim, 'EU', orgId);
		const dir = path.dirname(state.file);
		const configFile = path.join(dir, 'bot.json');
		// A backlog of 8 before digests: more single posts, so more kills land inside one.
		writeFileSync(
			configFile,
			JSON.stringify({
				source: { kind: 'push' },
				cbm: { enabled: false },
				alerts: { defaultChannel: '#crash-test', digestBacklog: 8 },
			}),
		);
		const env: NodeJS.ProcessEnv = {
			PATH: process.env.PATH,
			LOG_LEVEL: 'info',
			SLACK_BOT_TOKEN: botToken,
			SLACK_SIGNING_SECRET: `crash-${Math.random().toString(36).slice(2)}`,
			SLACK_API_URL: slack.apiUrl,
			PORT: '0',
			DRIVE_MONITORING_BASE_URL: credentials.baseUrl,
			DRIVE_MONITORING_AUTH_URL: credentials.authUrl,
			DRIVE_MONITORING_TENANT_ID: credentials.tenantId,
			DRIVE_MONITORING_API_KEY: credentials.apiKey,
			DRIVE_MONITORING_API_SECRET: credentials.apiSecret,
			DRIVE_MONITORING_API_SCOPE_ID: credentials.apiScopeId,
			DRIVE_MONITORING_PUSH_URL: push.url,
			DRIVE_MONITORING_PUSH_USER: push.userName,
			DRIVE_MONITORING_PUSH_PASSWORD: push.password,
			DRIVE_MONITORING_PUSH_TOPIC: push.topic,
			DRIVE_BOT_CONFIG: configFile,
		};
		return { sim, slack, env, dir, assets: candidates.filter((a) => a.orgId === orgId), close };
	} catch (error) {
		await close();
		throw error;
	}
}

/** The compiled bot as a child process, its log (stderr) handed to `onLog`. */
export function spawnBot(env: NodeJS.ProcessEnv, onLog: (text: string) => void): ChildProcess {
	// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- the bot's own CLI, run as an operator would
	const started = spawn(process.execPath, [CLI], { env, stdio: ['ignore', 'ignore', 'pipe'] });
	started.stderr?.on('data', (d: Buffer) => onLog(d.toString()));
	return started;
}

/** Faults raised on random assets, about a third of them closed (some at once, some later). */
export class FaultStream {
	readonly raised: string[] = [];
	readonly closed = new Set<string>();
	private readonly assetOf = new Map<string, number>();

	constructor(private readonly scene: BotScene) {}

	/** Raises one fault, and closes a random open one about a third of the time. */
	step(): void {
		const { assets, sim } = this.scene;
		const asset = assets[Math.floor(Math.random() * assets.length)];
		const event = sim.control.raiseEvent(asset.id, { eventType: 'Fault' });
		this.raised.push(String(event.id));
		this.assetOf.set(String(event.id), asset.id);
		const open = this.open();
		if (Math.random() < 0.35 && open.length > 0)
			this.close(open[Math.floor(Math.random() * open.length)]);
	}

	open(): string[] {
		return this.raised.filter((id) => !this.closed.has(id));
	}

	close(id: string): void {
		this.scene.sim.control.closeEvent(
			this.assetOf.get(id) as number,
			Number(id),
			'Reset during the crash run',
		);
		this.closed.add(id);
	}

	/** The faults not in exactly one message showing their final state (open or resolved). */
	problems(slack: SlackApiServer): { duplicates: string[]; lost: string[]; stale: string[] } {
		return {
			duplicates: this.raised.filter((id) => carriers(slack, id).length > 1),
			lost: this.raised.filter((id) => carriers(slack, id).length === 0),
			stale: this.raised.filter(
				(id) =>
					carriers(slack, id).length === 1 &&
					!showsFinalState(carriers(slack, id)[0], id, this.closed.has(id)),
			),
		};
	}

	settled(slack: SlackApiServer): boolean {
		return this.raised.every(
			(id) =>
				carriers(slack, id).length === 1 &&
				showsFinalState(carriers(slack, id)[0], id, this.closed.has(id)),
		);
	}
}

export async function runCrashScenario(options: {
	kills: number;
	slackLatencyMs: number;
	logger: BotLogger;
	settleMs?: number;
}): Promise<CrashOutcome> {
	const scene = await startBotScene(options);
	const { slack } = scene;
	let child: ChildProcess | undefined;
	let stderr = '';
	let reconciled = 0;
	const start = (env: NodeJS.ProcessEnv) =>
		spawnBot(env, (text) => {
			stderr = (stderr + text).slice(-20_000);
			reconciled += text.split('had reached Slack before the answer was lost').length - 1;
		});
	const kill = async (target: ChildProcess | undefined, signal: NodeJS.Signals) => {
		if (!target || target.exitCode !== null || target.signalCode !== null) return;
		const exited = new Promise((resolve) => target.once('exit', resolve));
		target.kill(signal);
		await exited;
	};
	try {
		const env: NodeJS.ProcessEnv = {
			...scene.env,
			...(await storeEnvironment(path.join(scene.dir, 'state.sqlite'))),
		};
		child = start(env);
		const faults = new FaultStream(scene);
		let kills = 0;
		const killer = (async () => {
			while (kills < options.kills) {
				await sleep(800 + Math.random() * 2500);
				await kill(child, 'SIGKILL');
				kills++;
				child = start(env);
			}
		})();
		while (kills < options.kills) {
			faults.step();
			await sleep(300 + Math.random() * 600);
		}
		await killer;
		await waitFor(
			'every fault in one message, in its final state',
			() => faults.settled(slack),
			options.settleMs ?? 180_000,
		).catch(() => undefined);
		return {
			faults: faults.raised.length,
			closed: faults.closed.size,
			kills,
			...faults.problems(slack),
			reconciled,
			topLevelMessages: slack.posts().filter((m) => !m.threadTs).length,
			blockKitProblems: slack.problems.length,
			stderr,
		};
	} finally {
		await kill(child, 'SIGKILL');
		await scene.close();
	}
}
