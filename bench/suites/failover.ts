/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a benchmark program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Failover of the bot's replicas, with production's lease timings (10 s lease renewed every 2 s): three
// replicas of the compiled bot on a private PostgreSQL, faults opening and closing all along, Slack answering in
// 400 ms, and the leader killed again and again, kill -9 and SIGSTOP in turn (the frozen one woken by SIGCONT
// after the failover, then stopped), a replica started for each one killed. A failover is the time from the kill
// until another process's first post reaches Slack. Baseline, the same run: what a user without replicas gets, the
// single process on its SQLite file killed with kill -9 and started again at once, until it posts.
// The runner is the replicas crash test's (test/bot/replicas-run.ts). Knobs: FAILOVER_KILLS (per signal, 20),
// FAILOVER_BASELINE_KILLS (20). Reproduce: `npm run bench -- failover`.
import { loadavg } from 'node:os';
import { createLogger } from '../../bot/log';
import { type FailoverOutcome, type KillSignal, runFailover } from '../../test/bot/replicas-run';
import { type BenchSuite, type Figure, percentile } from '../suite';

const KILLS = Number(process.env.FAILOVER_KILLS ?? 20);
const BASELINE_KILLS = Number(process.env.FAILOVER_BASELINE_KILLS ?? 20);
/** The targets, p95 until the new leader posts. */
const TARGET_MS: Record<KillSignal, number> = { SIGKILL: 15_000, SIGSTOP: 30_000 };
const logger = createLogger({ level: 'error', write: () => undefined });
const progress = (line: string) => process.stderr.write(`bench failover: ${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const load = () =>
	loadavg()
		.map((l) => l.toFixed(1))
		.join(' / ');

function timesOf(
	outcome: FailoverOutcome,
	signal: KillSignal,
): { times: number[]; missing: number } {
	const of = outcome.failovers.filter((f) => f.signal === signal);
	return {
		times: of.flatMap((f) => (f.ms === undefined ? [] : [f.ms])),
		missing: of.filter((f) => f.ms === undefined).length,
	};
}

const suite: BenchSuite = {
	name: 'failover',
	async run() {
		const loadBefore = load();
		const baseline = await runFailover({
			replicas: 1,
			store: 'sqlite',
			kills: BASELINE_KILLS,
			signals: ['SIGKILL'],
			slackLatencyMs: 400,
			logger,
			progress: (l) => progress(`baseline ${l}`),
		});
		const replicas = await runFailover({
			replicas: 3,
			kills: 2 * KILLS,
			signals: ['SIGKILL', 'SIGSTOP'],
			slackLatencyMs: 400,
			logger,
			progress,
		});
		const loadAfter = load();
		// The replicas' log during the slowest failover of each kind, to explain an outlier.
		for (const signal of ['SIGKILL', 'SIGSTOP'] as const) {
			const slowest = replicas.failovers
				.filter((f) => f.signal === signal)
				.sort((a, b) => (b.ms ?? Infinity) - (a.ms ?? Infinity))[0];
			if (slowest)
				progress(
					`the slowest failover after ${signal} (${slowest.ms ?? 'no post'} ms), what the replicas logged meanwhile:\n${slowest.log}`,
				);
		}
		const restart = timesOf(baseline, 'SIGKILL');
		const restartP95 = percentile(restart.times, 95);
		const figures: Figure[] = [];
		for (const signal of ['SIGKILL', 'SIGSTOP'] as const) {
			const { times, missing } = timesOf(replicas, signal);
			const [p50, p95, max] = [percentile(times, 50), percentile(times, 95), Math.max(...times)];
			const what = signal === 'SIGKILL' ? 'kill -9' : 'SIGSTOP';
			figures.push({
				name: `failover after ${what} of the leader (3 replicas, ${times.length} failovers${missing ? `, ${missing} without a post within 180 s` : ''}): p50 / p95 / max, kill to the next post`,
				value: `${seconds(p50)} / ${seconds(p95)} / ${seconds(max)}`,
				baseline: `${seconds(percentile(restart.times, 50))} / ${seconds(restartP95)} / ${seconds(Math.max(...restart.times))} single process, kill -9 and started again (${restart.times.length} restarts)`,
				ratio: (p95 / restartP95).toFixed(2),
				target: `p95 < ${seconds(TARGET_MS[signal])}`,
				met: missing === 0 && p95 < TARGET_MS[signal],
			});
		}
		for (const [name, outcome] of [
			['3 replicas', replicas],
			['single process', baseline],
		] as const) {
			const lists = [
				outcome.duplicates,
				outcome.lost,
				outcome.stillOpen,
				outcome.closeProblems,
				outcome.woken,
				outcome.crashed,
			];
			const wrong = lists.map((l) => l.length);
			// What went wrong, for the one who reads the run's output.
			for (const line of [...lists.flat(), ...outcome.stateOf])
				progress(`${name}: ${line.split('\n')[0]}`);
			figures.push({
				name: `${name}: ${outcome.faults} faults (all closed in the end): posted twice / lost / left open / closes not reaching their message once / woken leaders calling Slack or not stepping down / replicas crashed`,
				value: wrong.join(' / '),
				target: '0 / 0 / 0 / 0 / 0 / 0',
				met: wrong.every((n) => n === 0),
			});
			figures.push({
				name: `${name}: posts and updates found already in Slack after a kill (not made again)`,
				value: String(outcome.reconciled),
			});
		}
		figures.push({
			name: 'load average (1 / 5 / 15 min) before and after the run (shared 2-core machine)',
			value: `${loadBefore}; ${loadAfter}`,
		});
		return {
			name: 'failover',
			description: `Three replicas of the compiled bot on PostgreSQL 15 with production's lease (10 s, renewed every 2 s), faults opening and closing, Slack answering in 400 ms; ${2 * KILLS} kills of the leader, kill -9 and SIGSTOP in turn, a replica started for each. Failover: from the kill until another process's first post reaches Slack.`,
			figures,
		};
	},
};

export default suite;
