/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- a benchmark program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The bot on PostgreSQL against the same bot on its SQLite file, measured in the same run: the scale
// suite's push set-up at 10,000 assets (bench/suites/scale.ts runPush: the bot in a process of its own as npm start
// runs it, the simulator in another, a CP's data-subscription user plus a customer's, one fault per 3.2 s; here with
// the operator's platform credential, so all 10,000 assets are in the bot's directory), once per
// store and round, the stores alternating. PostgreSQL is a private PostgreSQL 15 on 127.0.0.1 (test/helpers/postgres-server.ts),
// a fresh database per run; its server processes are not in the bot's RSS, as SQLite's work is.
//   - alert latency p95, fault raised in the simulator (and pushed) to its message in our Slack server: PostgreSQL
//     against SQLite, target at most 1.5x and under 1 s;
//   - RSS peak of the bot process at 10,000 assets: PostgreSQL against SQLite, target within 10%.
// Knobs: HA_STORE_ROUNDS (2), HA_STORE_ASSETS (10000), HA_STORE_EVENTS (30 faults per run).
// Reproduce: `npm run bench -- ha-store` (results in bench/results/latest.md).
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { startPostgres } from '../../test/helpers/postgres-server';
import { fakeSlackToken } from '../../test/bot/helpers';
import { SlackApiServer } from '../../test/bot/slack-server';
import type { BenchSuite, Figure } from '../suite';
import { bareNodeRss, MiB, percentile, type PushRun, runPush } from './scale';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ROUNDS = env('HA_STORE_ROUNDS', 2);
const ASSETS = env('HA_STORE_ASSETS', 10_000);
const EVENTS = env('HA_STORE_EVENTS', 30);
/** The targets the PostgreSQL store must meet, stated here and never lowered. */
const LATENCY_RATIO_MAX = 1.5;
const LATENCY_P95_MAX_MS = 1000;
const RSS_RATIO_MAX = 1.1;

const median = (values: number[]) => percentile(values, 50);
const load = () =>
	loadavg()
		.map((l) => l.toFixed(2))
		.join(' / ');

const suite: BenchSuite = {
	name: 'ha-store',
	async run() {
		const token = fakeSlackToken('b');
		const slack = await new SlackApiServer({ token }).start();
		const pg = await startPostgres();
		const bare = await bareNodeRss();
		const runs: Record<'sqlite' | 'postgres', PushRun[]> = { sqlite: [], postgres: [] };
		const loads: string[] = [`start ${load()}`];
		try {
			for (let round = 1; round <= ROUNDS; round++) {
				// Alternating which store goes first, so a drift of the shared machine's load favours neither.
				const order: Array<'sqlite' | 'postgres'> =
					round % 2 === 1 ? ['sqlite', 'postgres'] : ['postgres', 'sqlite'];
				for (const store of order) {
					let env: Record<string, string> | undefined;
					if (store === 'postgres') {
						// A fresh database per run: event ids restart in every simulator.
						const name = `ha_bench_${round}`;
						const admin = new Client({ connectionString: pg.url() });
						await admin.connect();
						await admin.query(`CREATE DATABASE ${name}`);
						await admin.end();
						const url = new URL(pg.url());
						url.pathname = `/${name}`;
						env = { DRIVE_BOT_DATABASE_URL: url.toString() };
					}
					console.error(`bench: ha-store round ${round}, ${store} (load average ${load()})`);
					runs[store].push(
						await runPush({
							assets: ASSETS,
							events: EVENTS,
							slack,
							token,
							env,
							phase: `ha-store-${store}-${round}`,
							operatorDirectory: true,
						}),
					);
					loads.push(`after ${store} ${round}: ${load()}`);
				}
			}
		} finally {
			pg.stop();
			await slack.close();
		}
		const latencies = (store: 'sqlite' | 'postgres') => runs[store].flatMap((r) => r.latencies);
		const p95 = {
			sqlite: percentile(latencies('sqlite'), 95),
			postgres: percentile(latencies('postgres'), 95),
		};
		const p50 = { sqlite: median(latencies('sqlite')), postgres: median(latencies('postgres')) };
		const peaks = (store: 'sqlite' | 'postgres') =>
			runs[store].map((r) => Math.max(...r.samples.map(([, rss]) => rss)));
		const rss = { sqlite: median(peaks('sqlite')), postgres: median(peaks('postgres')) };
		const lost = (store: 'sqlite' | 'postgres') => runs[store].reduce((n, r) => n + r.lost, 0);
		const twice = (store: 'sqlite' | 'postgres') => runs[store].reduce((n, r) => n + r.twice, 0);
		const assets = runs.postgres[0]?.directoryAssets ?? 0;
		const label = `push, ${ASSETS.toLocaleString('en-US')} assets (${assets} in the bot's directory), ${ROUNDS} round(s) of ${EVENTS} faults per store`;
		const latencyRatio = p95.postgres / p95.sqlite;
		const rssRatio = rss.postgres / rss.sqlite;
		const figures: Figure[] = [
			{
				name: `${label}: alert latency p95, fault raised -> message in Slack, PostgreSQL (${latencies('postgres').length} faults)`,
				value: `${p95.postgres.toFixed(0)} ms`,
				baseline: `${p95.sqlite.toFixed(0)} ms SQLite (${latencies('sqlite').length} faults)`,
				ratio: `${latencyRatio.toFixed(2)}x`,
				target: `<= ${LATENCY_RATIO_MAX}x and < ${LATENCY_P95_MAX_MS} ms`,
				met: latencyRatio <= LATENCY_RATIO_MAX && p95.postgres < LATENCY_P95_MAX_MS,
			},
			{
				name: `${label}: alert latency p50, PostgreSQL`,
				value: `${p50.postgres.toFixed(0)} ms`,
				baseline: `${p50.sqlite.toFixed(0)} ms SQLite`,
				ratio: `${(p50.postgres / p50.sqlite).toFixed(2)}x`,
			},
			{
				name: `${label}: bot RSS peak (median of the runs), PostgreSQL`,
				value: MiB(rss.postgres),
				baseline: `${MiB(rss.sqlite)} SQLite (bare Node ${MiB(bare)})`,
				ratio: `${rssRatio.toFixed(3)}x`,
				target: `within 10% (0.9x to ${RSS_RATIO_MAX}x)`,
				met: rssRatio <= RSS_RATIO_MAX && rssRatio >= 1 / RSS_RATIO_MAX,
			},
			{
				name: `${label}: RSS peaks of each run`,
				value: `PostgreSQL ${peaks('postgres').map(MiB).join(', ')}`,
				baseline: `SQLite ${peaks('sqlite').map(MiB).join(', ')}`,
			},
			{
				name: `${label}: faults lost / posted more than once`,
				value: `PostgreSQL ${lost('postgres')} / ${twice('postgres')}`,
				baseline: `SQLite ${lost('sqlite')} / ${twice('sqlite')}`,
				target: '0 / 0',
				met: lost('postgres') + twice('postgres') + lost('sqlite') + twice('sqlite') === 0,
			},
			{ name: 'load average (1 / 5 / 15 min) of the shared machine', value: loads.join('; ') },
		];
		return {
			name: 'ha-store',
			description:
				"The bot on PostgreSQL against the same bot on its SQLite file, same run: alert latency and RSS of one replica at 10,000 assets (the scale suite's push set-up), stores alternating.",
			figures,
		};
	},
};

export default suite;
