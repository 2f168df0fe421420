/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import type { BotLogger } from '../../bot/log';
import { startPostgres, type PrivatePostgres } from '../helpers/postgres-server';
import { carriers, FaultStream, spawnBot, startBotScene } from './crash-run';
import { waitFor } from './helpers';
import type { SlackApiServer } from './slack-server';

// Replicas of the compiled bot as child processes, shared by the replicas crash test and the failover
// benchmark: the same command and configuration on each, one private PostgreSQL, the simulator's push channel and
// a slow Slack. Faults open and close all along; the leader is killed again and again (kill -9, or SIGSTOP and
// SIGCONT later) and a replica started for each one killed. Every Slack call is traced to the process that made
// it (its socket, through /proc), so a failover is timed from the kill to the first post of another process, and a
// woken leader's calls are seen.

const OPEN_AT_MOST = 12;

export type KillSignal = 'SIGKILL' | 'SIGSTOP';

export interface FailoverRunOptions {
	/** Replicas kept running (1 with `store: 'sqlite'`: the single process a user without replicas runs, restarted). */
	replicas: number;
	kills: number;
	/** Signals of the kills in turn. */
	signals: KillSignal[];
	slackLatencyMs: number;
	/** PostgreSQL shared by the replicas (default), or the single process's SQLite file. */
	store?: 'postgres' | 'sqlite';
	/** DRIVE_BOT_LEADER_LEASE_MS and DRIVE_BOT_LEADER_RENEW_MS; unset: production's 10 s and 2 s. */
	lease?: { leaseMs: number; renewMs: number };
	/** The pause after a failover before the next kill, in ms (random within). Default 1,000 to 3,000. */
	pauseMs?: [number, number];
	/** How long a woken leader is watched (it must make no Slack call) before it is stopped. Default 4,000. */
	watchWokenMs?: number;
	logger: BotLogger;
	/** A line per failover, as it happens. */
	progress?: (line: string) => void;
}

export interface Failover {
	signal: KillSignal;
	/** From the kill until another process's first post reached Slack; undefined: none within the limit. */
	ms?: number;
	/** What the replicas logged meanwhile (each line after its replica's name), to explain a slow one. */
	log: string;
}

export interface FailoverOutcome {
	failovers: Failover[];
	faults: number;
	closed: number;
	duplicates: string[];
	lost: string[];
	/** Closed faults whose message does not show them resolved at the end. */
	stillOpen: string[];
	/** Closed faults whose close did not reach their message exactly once (see resolveProblems). */
	closeProblems: string[];
	/** What a leader woken by SIGCONT did wrong: a Slack call (fencing lets it make none), or no step-down within the watch. */
	woken: string[];
	/** Replicas that exited without being killed. */
	crashed: string[];
	replicasStarted: number;
	/** Posts and updates found already in Slack after a kill (not made again). */
	reconciled: number;
	blockKitProblems: number;
	/** The last log lines of every replica, for a failure's explanation. */
	logs: string;
	/** What the shared database holds for the faults left open or whose close went wrong (PostgreSQL): its record and outbox rows. */
	stateOf: string[];
}

interface Replica {
	name: string;
	child: ChildProcess;
	pid: number;
	log: string;
	/** Its log since it was frozen by SIGSTOP (then woken and watched). */
	sinceWoken?: string;
	/** Set once the test signalled it: its exit is no crash. */
	signalled?: string;
	exited?: string;
}

/** The process (among `pids`) owning the client end of a connection to this host's port `serverPort` from `clientPort`. */
function socketOwner(clientPort: number, serverPort: number, pids: number[]): number | undefined {
	const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
	let inode: string | undefined;
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		let text = '';
		try {
			text = readFileSync(table, 'utf8');
		} catch {
			continue;
		}
		for (const line of text.split('\n').slice(1)) {
			const cols = line.trim().split(/\s+/);
			if (
				cols.length > 9 &&
				cols[1].endsWith(`:${hex(clientPort)}`) &&
				cols[2].endsWith(`:${hex(serverPort)}`)
			)
				inode = cols[9];
		}
		if (inode) break;
	}
	if (!inode || inode === '0') return undefined;
	const target = `socket:[${inode}]`;
	for (const pid of pids) {
		let fds: string[] = [];
		try {
			fds = readdirSync(`/proc/${pid}/fd`);
		} catch {
			continue;
		}
		for (const fd of fds) {
			try {
				if (readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return pid;
			} catch {
				// closed meanwhile
			}
		}
	}
	return undefined;
}

/** One Slack Web API call, with the replica that made it. */
interface TracedCall {
	method: string;
	at: number;
	pid?: number;
}

/**
 * Each close of a fault must reach its message once: a message of its own is posted open and updated to resolved by
 * exactly one update (or posted resolved, closed before it went out); in a digest, the fault turns resolved once and
 * never back. Replays the accepted chat.update calls of every carrier in order.
 */
function resolveProblems(slack: SlackApiServer, faults: FaultStream): string[] {
	const problems: string[] = [];
	const shows = (blocks: unknown, id: string) =>
		new RegExp(`Resolved [^"]*· event ${id}\\b|event ${id} :white_check_mark: resolved`).test(
			JSON.stringify(blocks),
		);
	for (const id of faults.closed) {
		const [message] = carriers(slack, id);
		if (!message) continue; // counted as lost
		const updates = slack
			.accepted('chat.update')
			.filter(
				(c) => String(c.body.channel) === message.channel && String(c.body.ts) === message.ts,
			);
		const single = String(message.metadata?.event_payload.alerts ?? '') === id;
		const post = slack.accepted('chat.postMessage').find(
			(c) =>
				!c.body.thread_ts &&
				String(
					(c.body.metadata as { event_payload?: { alerts?: string } } | undefined)?.event_payload
						?.alerts ?? '',
				)
					.split(',')
					.includes(id),
		);
		let resolved = post ? shows(post.body.blocks, id) : false;
		let turns = resolved ? 1 : 0;
		let reverts = 0;
		let resolvedUpdates = 0;
		for (const update of updates) {
			const now = shows(update.body.blocks, id);
			if (now) resolvedUpdates++;
			if (now && !resolved) turns++;
			if (!now && resolved) reverts++;
			resolved = now;
		}
		const wrong = reverts > 0 || turns !== 1 || (single && resolvedUpdates > 1);
		if (wrong)
			problems.push(
				`${id}: ${resolvedUpdates} update(s) showing it resolved, turned resolved ${turns} time(s), back to open ${reverts} time(s)`,
			);
	}
	return problems;
}

export async function runFailover(options: FailoverRunOptions): Promise<FailoverOutcome> {
	const store = options.store ?? 'postgres';
	const scene = await startBotScene(options);
	const { slack } = scene;
	const replicas: Replica[] = [];
	const traced: TracedCall[] = [];
	const woken: string[] = [];
	let reconciled = 0;
	/** The replicas' log while a failover is timed. */
	let failoverLog: string | undefined;
	let pg: PrivatePostgres | undefined;
	let lease: Client | undefined;
	let streaming = true;
	let stream: Promise<void> = Promise.resolve();
	const say = options.progress ?? (() => undefined);
	const live = () => replicas.filter((r) => !r.exited && !r.signalled);
	const stop = async (r: Replica, signal: NodeJS.Signals, limitMs = 20_000) => {
		r.signalled ??= signal;
		if (r.exited) return;
		const exited = new Promise<void>((resolve) =>
			r.exited ? resolve() : r.child.once('exit', () => resolve()),
		);
		r.child.kill(signal);
		if (signal === 'SIGTERM') {
			const timer = new AbortController();
			const done = await Promise.race([
				exited.then(() => true),
				sleep(limitMs, false, { signal: timer.signal }).catch(() => true),
			]);
			timer.abort();
			if (!done) r.child.kill('SIGKILL');
		}
		await exited;
	};
	try {
		slack.onApiCall = (method: string, request: IncomingMessage) => {
			const { remotePort, localPort } = request.socket;
			const pids = replicas.filter((r) => !r.exited).map((r) => r.pid);
			traced.push({
				method,
				at: Date.now(),
				pid: remotePort && localPort ? socketOwner(remotePort, localPort, pids) : undefined,
			});
		};
		let env: NodeJS.ProcessEnv = { ...scene.env };
		if (store === 'postgres') {
			pg = await startPostgres();
			env = { ...env, DRIVE_BOT_DATABASE_URL: pg.url() };
			if (options.lease)
				env = {
					...env,
					DRIVE_BOT_LEADER_LEASE_MS: String(options.lease.leaseMs),
					DRIVE_BOT_LEADER_RENEW_MS: String(options.lease.renewMs),
				};
		} else {
			env = { ...env, DRIVE_BOT_STATE: path.join(scene.dir, 'state.sqlite') };
		}
		const leaseMs = options.lease?.leaseMs ?? 10_000;
		const start = (): Replica => {
			const name = `replica-${replicas.length + 1}`;
			const child = spawnBot(env, (text) => {
				r.log = (r.log + text).slice(-6_000);
				reconciled += text.split('had reached Slack before the answer was lost').length - 1;
				if (r.sinceWoken !== undefined) r.sinceWoken += text;
				if (failoverLog !== undefined) failoverLog += text.replace(/^(?=.)/gm, `${r.name}: `);
			});
			const r: Replica = { name, child, pid: child.pid as number, log: '' };
			child.once('exit', (code, signal) => (r.exited = signal ?? `exit code ${code}`));
			replicas.push(r);
			return r;
		};
		const started = (r: Replica) =>
			waitFor(`${r.name} started`, () => r.exited ?? (/state in /.test(r.log) && r), 120_000);
		/** The replica that leads now: the lease row names it and was renewed within the lease (PostgreSQL), or the single process. */
		const leader = async (): Promise<Replica | undefined> => {
			if (!lease) return live().length === 1 ? live()[0] : undefined;
			const { rows } = await lease.query<{ holder: string; age: string }>(
				'SELECT holder, (extract(epoch from clock_timestamp()) * 1000)::bigint - renewed_at AS age FROM leader_lease WHERE id = 1',
			);
			if (!rows[0] || Number(rows[0].age) > leaseMs) return undefined;
			const pid = Number(rows[0].holder.split(':').at(-1));
			return live().find((r) => r.pid === pid);
		};
		const postsBy = (since: number, exceptPid: number) =>
			traced.some(
				(c) =>
					c.method === 'chat.postMessage' &&
					c.at >= since &&
					c.pid !== undefined &&
					c.pid !== exceptPid,
			);

		for (let i = 0; i < options.replicas; i++) start();
		if (pg) {
			lease = new Client({ connectionString: pg.url() });
			lease.on('error', () => undefined);
			await lease.connect();
		}
		for (const r of [...replicas]) await started(r);
		const faults = new FaultStream(scene);
		stream = (async () => {
			while (streaming) {
				faults.step();
				// At most a dozen open at once (the oldest closed first): the closes at the end stay few, so the run ends soon.
				while (faults.open().length > OPEN_AT_MOST) faults.close(faults.open()[0]);
				await sleep(300 + Math.random() * 600);
			}
		})();
		stream.catch(() => undefined); // awaited at the end, where its error fails the run
		await waitFor(
			'a leader posting',
			async () => (await leader()) !== undefined && postsBy(0, -1),
			120_000,
		);

		const failovers: Failover[] = [];
		for (let i = 0; i < options.kills; i++) {
			const [low, high] = options.pauseMs ?? [1_000, 3_000];
			await sleep(low + Math.random() * (high - low));
			const target = await waitFor('a leader to kill', leader, 120_000);
			const signal = options.signals[i % options.signals.length];
			const killedAt = Date.now();
			failoverLog = '';
			if (signal === 'SIGKILL') await stop(target, 'SIGKILL');
			else {
				target.signalled = 'SIGSTOP';
				target.sinceWoken = '';
				target.child.kill('SIGSTOP');
			}
			// An orchestrator's replacement, so that as many replicas stay up.
			const replacement = start();
			const took = await waitFor(
				'another replica posting',
				() => postsBy(killedAt, target.pid),
				180_000,
			).then(
				() =>
					(traced.find(
						(c) =>
							c.method === 'chat.postMessage' &&
							c.at >= killedAt &&
							c.pid !== undefined &&
							c.pid !== target.pid,
					)?.at ?? Date.now()) - killedAt,
				() => undefined,
			);
			failovers.push({ signal, ms: took, log: failoverLog.slice(-20_000) });
			failoverLog = undefined;
			say(
				`failover ${i + 1}/${options.kills} after ${signal === 'SIGKILL' ? 'kill -9' : 'SIGSTOP'}: ${took === undefined ? 'no post within 180 s' : `${took} ms`}`,
			);
			if (signal === 'SIGSTOP') {
				// The old leader wakes: it must see its lease lost and make no Slack call; then it is stopped (three stay up).
				const wokenAt = Date.now();
				target.child.kill('SIGCONT');
				await sleep(options.watchWokenMs ?? 4_000);
				const steppedDown = (target.sinceWoken ?? '').includes('bot: no longer leading');
				await stop(target, 'SIGTERM');
				const calls = traced.filter((c) => c.pid === target.pid && c.at >= wokenAt);
				if (calls.length > 0)
					woken.push(
						`${target.name} (pid ${target.pid}), woken, called Slack: ${calls.map((c) => c.method).join(', ')}`,
					);
				if (!steppedDown)
					woken.push(
						`${target.name} (pid ${target.pid}), woken, did not say it stopped leading within the watch`,
					);
			}
			await started(replacement);
		}
		streaming = false;
		await stream;
		// Every fault closed at the end: none may be left "Open".
		for (const id of faults.open()) faults.close(id);
		const limit = 240_000;
		await waitFor(
			'every fault in one message, shown resolved',
			() => faults.settled(slack),
			limit,
		).catch(() => undefined);
		const { duplicates, lost, stale } = faults.problems(slack);
		const closeProblems = resolveProblems(slack, faults);
		const stateOf: string[] = [];
		const db = lease;
		for (const id of db
			? [...new Set([...stale, ...closeProblems.map((p) => p.split(':')[0])])]
			: []) {
			if (!db) break;
			const events = await db.query<{ key: string; status: string }>(
				'SELECT key, status FROM events WHERE key LIKE $1',
				[`%:${id}`],
			);
			const calls = await db.query<{
				id: string;
				item: string;
				attempts: number;
				failed: number;
				last_error: string | null;
				progress: string;
				intent: string | null;
			}>(
				'SELECT id, item, attempts, failed, last_error, progress, intent FROM outbox WHERE item LIKE $1',
				[`%${id}%`],
			);
			stateOf.push(
				`${id}: ${JSON.stringify(events.rows)}; outbox ${JSON.stringify(calls.rows.map((c) => ({ ...c, item: c.item.slice(0, 80) })))}`,
			);
		}
		return {
			failovers,
			faults: faults.raised.length,
			closed: faults.closed.size,
			duplicates,
			lost,
			stillOpen: stale,
			closeProblems,
			stateOf,
			woken,
			crashed: replicas
				.filter((r) => r.exited && !r.signalled)
				.map((r) => `${r.name} (pid ${r.pid}): ${r.exited}\n${r.log}`),
			replicasStarted: replicas.length,
			reconciled,
			blockKitProblems: slack.problems.length,
			logs: replicas
				.map(
					(r) =>
						`--- ${r.name} (pid ${r.pid}${r.signalled ? `, ${r.signalled}` : ''}${r.exited ? `, exited: ${r.exited}` : ''})\n${r.log}`,
				)
				.join('\n'),
		};
	} finally {
		streaming = false;
		await stream.catch(() => undefined);
		for (const r of replicas) {
			r.signalled ??= 'SIGKILL';
			r.child.kill('SIGCONT');
			r.child.kill('SIGKILL');
		}
		await Promise.all(
			replicas.map((r) =>
				r.exited ? undefined : new Promise((resolve) => r.child.once('exit', resolve)),
			),
		);
		await lease?.end().catch(() => undefined);
		pg?.stop();
		await scene.close();
	}
}
