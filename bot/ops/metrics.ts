/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The bot's Prometheus metrics (prom-client), one registry for the process. The bot's parts call
// the named functions below where things happen (one line each); /metrics serves the registry.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PushReceiverStats } from '../../shared/push';

export const registry = new Registry();

const alertsPosted = new Counter({
	name: 'drive_bot_alerts_posted_total',
	help: 'Messages the bot posted to Slack, by kind (alert, digest, cbm, reply)',
	labelNames: ['kind'] as const,
	registers: [registry],
});
const alertsUpdated = new Counter({
	name: 'drive_bot_alerts_updated_total',
	help: 'Alert messages updated in Slack (the fault was handled)',
	registers: [registry],
});
const alertsFailed = new Counter({
	name: 'drive_bot_alerts_failed_total',
	help: 'Outbox calls given up on after their retries (kept in the outbox as failed)',
	registers: [registry],
});
const slackRateLimited = new Counter({
	name: 'drive_bot_slack_rate_limited_total',
	help: 'Slack Web API calls answered 429 (Retry-After waited per channel)',
	registers: [registry],
});
const pollPassSeconds = new Histogram({
	name: 'drive_bot_poll_pass_duration_seconds',
	help: 'Duration of a complete REST poll pass (events, then CBM when due)',
	labelNames: ['source'] as const,
	buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
	registers: [registry],
});
const lastSuccess = new Gauge({
	name: 'drive_bot_source_last_success_timestamp_seconds',
	help: 'When each alert source last worked: a complete poll pass, or a push delivery handled',
	labelNames: ['source'] as const,
	registers: [registry],
});

/** Gauges and counters read when Prometheus scrapes, from the objects that already count. */
const outboxProviders: Array<() => number> = [];
interface TrackedReceiver {
	stats: PushReceiverStats;
	once?(event: 'end', listener: () => void): unknown;
}
const pushReceivers = new Map<string, TrackedReceiver>();
/** What receivers that ended had counted, so the counters never go down. */
const retired = new Map<string, { delivered: number; duplicates: number }>();
const pushTotal = (source: string, field: 'delivered' | 'duplicates') =>
	(pushReceivers.get(source)?.stats[field] ?? 0) + (retired.get(source)?.[field] ?? 0);
const pushSources = () => new Set([...pushReceivers.keys(), ...retired.keys()]);
new Gauge({
	name: 'drive_bot_outbox_depth',
	help: 'Slack calls waiting in the outbox',
	registers: [registry],
	collect() {
		this.set(outboxProviders.reduce((sum, depth) => sum + depth(), 0));
	},
});
new Counter({
	name: 'drive_bot_push_deliveries_total',
	help: 'Push deliveries handed to the bot, by source (push:<topic>)',
	labelNames: ['source'] as const,
	registers: [registry],
	collect() {
		this.reset();
		for (const source of pushSources()) this.inc({ source }, pushTotal(source, 'delivered'));
	},
});
new Counter({
	name: 'drive_bot_push_redeliveries_total',
	help: 'Push deliveries recognized as redeliveries of a message already handled (not handled twice)',
	labelNames: ['source'] as const,
	registers: [registry],
	collect() {
		this.reset();
		for (const source of pushSources()) this.inc({ source }, pushTotal(source, 'duplicates'));
	},
});

/** Where the last-success times live, for readiness too: source name -> epoch ms. */
export const lastSuccessfulPass = new Map<string, number>();

export function alertPosted(kind: string): void {
	alertsPosted.inc({ kind });
}
export function alertUpdated(): void {
	alertsUpdated.inc();
}
export function alertFailed(): void {
	alertsFailed.inc();
}
export function slackRateLimitedCall(): void {
	slackRateLimited.inc();
}
/** A source worked (a poll pass completed, a pushed message was handled). */
export function sourceSucceeded(source: string, at = Date.now()): void {
	lastSuccessfulPass.set(source, at);
	lastSuccess.set({ source }, at / 1000);
}
/** Starts timing a poll pass; call the result when the pass completed. */
export function pollPassStarted(source = 'poll'): () => void {
	const end = pollPassSeconds.startTimer({ source });
	return () => {
		end();
		sourceSucceeded(source);
	};
}
export function trackOutbox(depth: () => number): () => void {
	outboxProviders.push(depth);
	return () => void outboxProviders.splice(outboxProviders.indexOf(depth), 1);
}
/** Counts a receiver's deliveries under `source` until it ends (then its totals are kept). */
export function trackPushReceiver(source: string, receiver: TrackedReceiver): void {
	pushReceivers.set(source, receiver);
	receiver.once?.('end', () => {
		if (pushReceivers.get(source) !== receiver) return;
		pushReceivers.delete(source);
		const before = retired.get(source) ?? { delivered: 0, duplicates: 0 };
		retired.set(source, {
			delivered: before.delivered + receiver.stats.delivered,
			duplicates: before.duplicates + receiver.stats.duplicates,
		});
	});
}

let defaultsOn = false;
/** Node's process metrics (heap, event loop lag, ...) beside ours; once per process. */
export function collectProcessMetrics(): void {
	if (defaultsOn) return;
	defaultsOn = true;
	collectDefaultMetrics({ register: registry });
}

/** One figure of the alert sources and the request budget (bot/leader/sources/status.ts names them). */
export interface SourceFigure {
	name: string;
	labels: Record<string, string>;
	value: number;
}
const sourceProviders: Array<() => SourceFigure[]> = [];
const figures = (name: string) =>
	sourceProviders.flatMap((provide) => provide()).filter((f) => f.name === name);
const sourceMetrics: Array<{
	name: string;
	help: string;
	labelNames: string[];
	counter?: boolean;
}> = [
	{
		name: 'drive_bot_source_lag_seconds',
		help: 'How late alerts of each source can be: now minus the oldest time read up to (poll) or the oldest unhandled message (push)',
		labelNames: ['source'],
	},
	{
		name: 'drive_bot_source_busy_lag_seconds',
		help: 'The same for assets with an open alert or a recent event (polling)',
		labelNames: ['source'],
	},
	{
		name: 'drive_bot_poll_set_aside_assets',
		help: 'Assets set aside for a function after an answer that cannot change (CBM unsupported, expired, level)',
		labelNames: ['function'],
	},
	{
		name: 'drive_bot_push_users_connected',
		help: 'Data-subscription users whose receiver is connected',
		labelNames: [],
	},
	{
		name: 'drive_bot_platform_budget_per_second',
		help: 'Platform requests per second the budget allows now (lowered after a 429)',
		labelNames: [],
	},
	{ name: 'drive_bot_platform_in_flight', help: 'Platform requests in flight', labelNames: [] },
	{
		name: 'drive_bot_platform_rate_limited_total',
		help: 'Platform answers 429 (too many requests)',
		labelNames: [],
		counter: true,
	},
];
for (const m of sourceMetrics) {
	const collect = function (this: Gauge | Counter) {
		this.reset();
		for (const f of figures(m.name)) (this as Gauge).inc(f.labels, f.value);
	};
	if (m.counter)
		new Counter({
			name: m.name,
			help: m.help,
			labelNames: m.labelNames,
			registers: [registry],
			collect,
		});
	else
		new Gauge({
			name: m.name,
			help: m.help,
			labelNames: m.labelNames,
			registers: [registry],
			collect,
		});
}
/** Reads the sources' figures on every scrape until the returned function is called. */
export function trackSources(provide: () => SourceFigure[]): () => void {
	sourceProviders.push(provide);
	return () => void sourceProviders.splice(sourceProviders.indexOf(provide), 1);
}

/** What leadership reports (bot/cluster/leadership.ts); a test may count into its own. */
export interface LeadershipMetrics {
	/** This process leads (1) or not (0). */
	setLeader(leading: boolean): void;
	/** This process saw a new leader take over (a new epoch, its own included). */
	leaderChanged(): void;
}
const leaderGauge = new Gauge({
	name: 'drive_bot_leader',
	help: 'This replica leads (1: it reads the platform, posts and runs the schedules) or stands by (0); this process only',
	registers: [registry],
});
const leaderChanges = new Counter({
	name: 'drive_bot_leader_changes_total',
	help: 'Leader changes this replica has seen (a new lease epoch, its own included), since it started',
	registers: [registry],
});
leaderGauge.set(0);
export const leadershipMetrics: LeadershipMetrics = {
	setLeader: (leading) => leaderGauge.set(leading ? 1 : 0),
	leaderChanged: () => leaderChanges.inc(),
};
