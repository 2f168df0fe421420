/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a benchmark program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The Slack bot, each figure against a baseline of the same run: slash-command ack and answer
// times with 50 ms platform latency (baselines: a bare signed HTTP round trip, one core call),
// alert latency from event creation to the Slack post (baseline: a bare push receiver on the same
// broker), the 1,000-fault storm (baseline: the same dispatcher posting one message per alert),
// reminder latency from due to posted (baseline: alert latency of the same faults), the SIGKILL
// crash run's duplicate and loss counts (must be 0 and 0), and memory with a 10,000-asset fleet
// (baseline: the raw asset lists alone).
// Reproduce: `npm run bench -- bot` (results in bench/results/latest.md).
import { drain, pollOnce } from '../../test/bot/leader';
import type { App } from '@slack/bolt';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AlertRecord } from '../../bot/kernel/alert';
import { Dispatcher } from '../../bot/leader/outbox/dispatcher';
import { parseConfig } from '../../bot/config/load';
import { createLogger } from '../../bot/log';
import { createPlatformClient } from '../../bot/platform/client';
import { ensurePushUser } from '../../bot/platform/push-user';
import { type Bot, startBot } from '../../bot/app/start';
import { createSlackApp } from '../../bot/slack/app';
import { createNotifierClient, SlackNotifier } from '../../bot/slack/notifier';
import { openDatabase } from '../../bot/state/open';
import { BOT_SCHEMA } from '../../bot/app/schema';
import { alertState } from '../../bot/features/alerts/state';
import { SqlScope } from '../../bot/state/scope';
import { createPushReceiver } from '../../shared/push';
import { startSimulator, type Simulator } from '../../simulator';
import { runCrashScenario } from '../../test/bot/crash-run';
import { fakeSlackToken, postToSlackApp, slashCommandBody } from '../../test/bot/helpers';
import { SlackApiServer } from '../../test/bot/slack-server';
import type { BenchSuite, Figure } from '../suite';

const LATENCY_MS = 50;
const COMMANDS = 60;
const ALERT_SAMPLES = 20;
const STORM = 1000;
const NAIVE_SAMPLE = 15;
const FLEET = 10_000;

const logger = createLogger({ level: 'error' });
const ms = (v: number) => `${v.toFixed(1)} ms`;
const pct = (values: number[], p: number) =>
	[...values].sort((a, b) => a - b)[
		Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)
	];
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

function credentials(sim: Simulator, orgId?: number) {
	const { info } = sim;
	const c = info.credentials.find((x) =>
		orgId === undefined ? x.orgType === 'VENDOR' : x.orgId === orgId,
	)!;
	return {
		baseUrl: info.baseUrl,
		authUrl: info.authUrl,
		tenantId: info.tenantId,
		apiScopeId: info.apiScopeId,
		apiKey: c.apiKey,
		apiSecret: c.apiSecret,
	};
}

async function until(probe: () => boolean, timeoutMs: number): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	while (!probe()) {
		if (Date.now() > deadline) return false;
		await sleep(2);
	}
	return true;
}

async function commands(): Promise<Figure[]> {
	const sim = await startSimulator({ push: false });
	const token = fakeSlackToken('b');
	const secret = 'bench-signing-secret';
	const slack = await new SlackApiServer({ token }).start();
	const config = parseConfig({
		source: { kind: 'poll', pollIntervalSeconds: 3600 },
		stateFile: ':memory:',
	});
	const platform = createPlatformClient(credentials(sim), logger);
	const bot = await startBot({
		config,
		platform,
		notifier: new SlackNotifier(createNotifierClient(token, slack.apiUrl), config.timeZone),
		logger,
	});
	await pollOnce(bot);
	sim.faults.set({ latencyMs: LATENCY_MS });
	const app: App = createSlackApp({
		botToken: token,
		mode: { kind: 'http', signingSecret: secret },
		slackApiUrl: slack.apiUrl,
		commands: bot.commands,
		config,
		logger,
	});
	const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
	const bare = createServer((_req, res) => res.end('')).listen(0, '127.0.0.1');
	await new Promise((r) => bare.once('listening', r));
	const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
	const drives = sim.fleet.assets().filter((a) => a.assetType === 'Drive' && a.level !== 'expired');
	const acks: number[] = [];
	const answers: number[] = [];
	const bareAcks: number[] = [];
	const coreCalls: number[] = [];
	for (let i = 0; i < COMMANDS; i++) {
		const drive = drives[i % drives.length];
		const body = slashCommandBody({
			command: '/drive',
			text: `status ${drive.serialNumber}`,
			responseUrl: slack.responseUrl(`c${i}`),
		});
		bareAcks.push((await postToSlackApp(bareUrl, secret, body)).ms);
		const started = performance.now();
		acks.push((await postToSlackApp(url, secret, body)).ms);
		await until(() => slack.responses.some((r) => r.id === `c${i}`), 30_000);
		answers.push(performance.now() - started);
		const t = performance.now();
		await platform.assets.get({ id: drive.id });
		coreCalls.push(performance.now() - t);
	}
	await app.stop();
	bare.close();
	await bot.stop();
	await platform.close();
	await slack.close();
	await sim.close();
	const ack99 = pct(acks, 99);
	const answer95 = pct(answers, 95);
	return [
		{
			name: `slash command ack p99 (${COMMANDS} signed /drive status, ${LATENCY_MS} ms platform latency)`,
			value: ms(ack99),
			baseline: `${ms(pct(bareAcks, 99))} bare signed POST round trip`,
			ratio: ratio(ack99, pct(bareAcks, 99)),
			target: '< 3000 ms (Slack)',
			met: ack99 < 3000,
		},
		{
			name: `slash command full answer p95 (status: detail, conditions, events, CBM, level in parallel)`,
			value: ms(answer95),
			baseline: `${ms(pct(coreCalls, 95))} one core call (E8)`,
			ratio: ratio(answer95, pct(coreCalls, 95)),
			target: '< 3000 ms',
			met: answer95 < 3000,
		},
	];
}

async function alertsAndStorm(): Promise<Figure[]> {
	const sim = await startSimulator();
	const token = fakeSlackToken('b');
	const slack = await new SlackApiServer({ token }).start();
	const orgs = [
		...new Set(
			sim.fleet
				.assets()
				.filter((a) => a.assetType !== 'PowerTrain' && a.level !== 'expired')
				.map((a) => a.orgId),
		),
	];
	const [botOrg, bareOrg] = orgs;
	const url = sim.info.pushUrls.amqp;
	const botPush = await ensurePushUser(
		createPlatformClient(credentials(sim, botOrg), logger),
		url,
		'bench-bot',
		false,
	);
	const barePush = await ensurePushUser(
		createPlatformClient(credentials(sim, bareOrg), logger),
		url,
		'bench-bare',
		false,
	);
	const config = parseConfig({
		source: { kind: 'push' },
		stateFile: ':memory:',
		cbm: { enabled: false },
	});
	const bot: Bot = await startBot({
		config,
		platform: createPlatformClient(credentials(sim, botOrg), logger),
		notifier: new SlackNotifier(createNotifierClient(token, slack.apiUrl), config.timeZone),
		logger,
		push: [botPush],
	});
	const seen = new Map<string, number>();
	const bare = createPushReceiver({ ...barePush, dataTypes: ['AssetEvent'] });
	await bare.start((m) => {
		if (m.dataType === 'AssetEvent') seen.set(String(m.record.id), performance.now());
	});
	const botAssets = sim.fleet
		.assets()
		.filter((a) => a.orgId === botOrg && a.assetType !== 'PowerTrain' && a.level !== 'expired');
	const bareAsset = sim.fleet
		.assets()
		.find((a) => a.orgId === bareOrg && a.assetType !== 'PowerTrain' && a.level !== 'expired')!;
	const posted = (id: unknown) =>
		slack.posts().some((m) => JSON.stringify(m.blocks).includes(`event ${String(id)}`));

	const latencies: number[] = [];
	const bareLatencies: number[] = [];
	for (let i = 0; i < ALERT_SAMPLES; i++) {
		const started = performance.now();
		const ours = sim.control.raiseEvent(botAssets[i % botAssets.length].id, { eventType: 'Fault' });
		const theirs = sim.control.raiseEvent(bareAsset.id, { eventType: 'Fault' });
		await until(() => posted(ours.id) && seen.has(String(theirs.id)), 10_000);
		latencies.push(performance.now() - started);
		bareLatencies.push((seen.get(String(theirs.id)) ?? performance.now()) - started);
		await sleep(1100); // one alert a second: below the storm threshold, as real faults come
	}
	await bare.close();

	// The storm: 1,000 faults within a minute (here as fast as the platform raises them).
	await drain(bot, 30_000);
	const postsBefore = slack.posts().length;
	const limitedBefore = slack.rateLimited;
	const stormStart = performance.now();
	const raised: string[] = [];
	for (let i = 0; i < STORM; i++) {
		raised.push(
			String(sim.control.raiseEvent(botAssets[i % botAssets.length].id, { eventType: 'Fault' }).id),
		);
		if (i % 100 === 99) await sleep(50);
	}
	const text = () =>
		slack
			.posts()
			.map((m) => JSON.stringify(m.blocks))
			.join('\n');
	await until(() => {
		const all = text();
		return raised.every((id) => all.includes(`event ${id}`));
	}, 180_000);
	const stormMs = performance.now() - stormStart;
	const all = text();
	const covered = raised.filter((id) => all.includes(`event ${id}`)).length;
	const stormPosts = slack.posts().length - postsBefore;
	const limited = slack.rateLimited - limitedBefore;
	await bot.stop();

	// Baseline: the same dispatcher and Slack server, storm control off: one message per alert.
	const store = alertState(SqlScope.of(await openDatabase({ stateFile: ':memory:' }, BOT_SCHEMA)));
	const naive = new Dispatcher(
		store,
		{ notifier: new SlackNotifier(createNotifierClient(token, slack.apiUrl), '+08:00') },
		{ postsPerSecond: 1, stormPerMinute: 1e9, digestBacklog: 1e9, logger },
	);
	const sample = slack.posts().find((m) => !m.threadTs && m.text.startsWith('Fault'));
	const alert: AlertRecord = {
		key: 'x',
		eventId: '1',
		severity: 'Fault',
		asset: { id: 1, name: 'Pump', serialNumber: 'D1', organization: 'o', group: 'g', plant: 'p' },
		code: '2310',
		content: sample?.text ?? 'fault',
		eventTime: new Date().toISOString(),
		status: 'Open',
		hasLogger: false,
	};
	const naiveStart = performance.now();
	await store.scope.transaction(async (scope) => {
		for (let i = 0; i < NAIVE_SAMPLE; i++)
			await alertState(scope).outbox.enqueue('#naive', {
				kind: 'alert',
				alert: { ...alert, key: `n${i}`, eventId: `n${i}` },
			});
	});
	naive.kick();
	await drain({ dispatcher: naive, state: store }, 60_000);
	const naivePerAlert = (performance.now() - naiveStart) / NAIVE_SAMPLE;
	await naive.stop();
	await store.scope.database.close();
	await slack.close();
	await sim.close();

	const p95 = pct(latencies, 95);
	const naiveStorm = naivePerAlert * STORM;
	return [
		{
			name: `alert latency p95, event created -> Slack post (${ALERT_SAMPLES} faults via AMQP push)`,
			value: ms(p95),
			baseline: `${ms(pct(bareLatencies, 95))} bare push receiver, same broker`,
			ratio: ratio(p95, pct(bareLatencies, 95)),
			target: '< 2000 ms',
			met: p95 < 2000,
		},
		{
			name: `storm: ${STORM} faults, every one in a message or digest`,
			value: `${covered}/${STORM} covered`,
			target: `${STORM}/${STORM}`,
			met: covered === STORM,
		},
		{
			name: 'storm: Slack posts made',
			value: String(stormPosts),
			baseline: `${STORM} posts, one per alert`,
			ratio: ratio(stormPosts, STORM),
			target: '<= 60',
			met: stormPosts <= 60,
		},
		{ name: 'storm: 429 answers received (waited out per channel)', value: String(limited) },
		{
			name: 'storm: wall time until every fault is in Slack',
			value: `${(stormMs / 1000).toFixed(1)} s`,
			baseline: `${(naiveStorm / 1000).toFixed(0)} s one post per alert at 1 msg/s (measured on ${NAIVE_SAMPLE}, extrapolated to ${STORM})`,
			ratio: ratio(stormMs, naiveStorm),
			target: '< 60 s',
			met: stormMs < 60_000,
		},
	];
}

const REMINDERS = 6;
const REMIND_AFTER_MS = 3000;
const CRASH_KILLS = 10;

/**
 * Reminder latency: from the moment a fault's reminder is due (event time + remindAfter) to the
 * reminder in its thread. Baseline: the same faults' alert latency (event created -> message).
 */
async function reminders(): Promise<Figure[]> {
	const sim = await startSimulator({ push: false });
	const token = fakeSlackToken('b');
	const slack = await new SlackApiServer({ token }).start();
	const config = parseConfig({
		source: { kind: 'poll', pollIntervalSeconds: 3600 },
		stateFile: ':memory:',
		cbm: { enabled: false },
		oncall: { checkIntervalSeconds: 0.5 },
		alerts: {
			defaultChannel: '#bench',
			routes: [
				{ channel: '#bench', mention: ['S0ONCALL'], remindAfter: `${REMIND_AFTER_MS / 1000}s` },
			],
		},
	});
	const bot = await startBot({
		config,
		platform: createPlatformClient(credentials(sim), logger),
		notifier: new SlackNotifier(createNotifierClient(token, slack.apiUrl), config.timeZone),
		logger,
	});
	const drives = sim.fleet.assets().filter((a) => a.assetType === 'Drive' && a.level !== 'expired');
	const latencies: number[] = [];
	const postLatencies: number[] = [];
	for (let i = 0; i < REMINDERS; i++) {
		const raisedAt = Date.now();
		const event = sim.control.raiseEvent(drives[i % drives.length].id, { eventType: 'Fault' });
		await pollOnce(bot);
		const message = () =>
			slack
				.posts()
				.find((m) => !m.threadTs && JSON.stringify(m.blocks).includes(`event ${String(event.id)}`));
		await until(() => message() !== undefined, 10_000);
		postLatencies.push(Date.now() - raisedAt);
		const ts = message()?.ts;
		await until(
			() => slack.posts().some((m) => m.threadTs === ts && m.text.includes('Reminder')),
			20_000,
		);
		latencies.push(Date.now() - (Date.parse(String(event.eventDateTime)) + REMIND_AFTER_MS));
	}
	await bot.stop();
	await slack.close();
	await sim.close();
	const p95 = pct(latencies, 95);
	return [
		{
			name: `reminder latency p95, due -> reminder posted (${REMINDERS} faults, check every 0.5 s, remindAfter ${REMIND_AFTER_MS / 1000} s)`,
			value: ms(p95),
			baseline: `${ms(pct(postLatencies, 95))} alert latency p95 of the same faults (created -> posted)`,
			ratio: ratio(p95, pct(postLatencies, 95)),
			// One check interval, one post slot (1 s per channel) and a margin.
			target: '< 2500 ms',
			met: p95 < 2500,
		},
	];
}

/** The crash test's run: SIGKILLs at random instants, slow Slack; duplicates and losses must be 0. */
async function crash(): Promise<Figure[]> {
	const outcome = await runCrashScenario({ kills: CRASH_KILLS, slackLatencyMs: 400, logger });
	return [
		{
			name: `crash run: ${outcome.kills} SIGKILLs, ${outcome.faults} faults (${outcome.closed} closed), Slack 400 ms per answer: duplicates`,
			value: String(outcome.duplicates.length),
			target: '0',
			met: outcome.duplicates.length === 0,
		},
		{
			name: 'crash run: faults lost (in no message)',
			value: String(outcome.lost.length),
			target: '0',
			met: outcome.lost.length === 0,
		},
		{
			name: 'crash run: messages not showing their final state',
			value: String(outcome.stale.length),
			target: '0',
			met: outcome.stale.length === 0,
		},
		{
			name: 'crash run: posts found already in Slack after a kill (not made again)',
			value: String(outcome.reconciled),
		},
	];
}

function heapAfterGc(): number {
	setFlagsFromString('--expose-gc');
	const gc = runInNewContext('gc') as () => void;
	gc();
	gc();
	return process.memoryUsage().heapUsed;
}

async function memory(): Promise<Figure[]> {
	const sim = await startSimulator({ assets: FLEET });
	const vendor = createPlatformClient(credentials(sim), logger);
	const token = fakeSlackToken('b');
	const slack = await new SlackApiServer({ token }).start();
	const eus = sim.info.credentials.filter((c) => c.orgType === 'EU');
	// Warm the simulator's lazy caches (asset lists) outside the measurement.
	await Promise.all(eus.map((c) => vendor.organization.listAssets({ orgId: c.orgId })));
	const before = heapAfterGc();
	const eu = eus[0];
	const push = await ensurePushUser(
		createPlatformClient(credentials(sim, eu.orgId), logger),
		sim.info.pushUrls.amqp,
		'bench-mem',
		true,
	);
	const config = parseConfig({ source: { kind: 'push' }, stateFile: ':memory:' });
	const bot = await startBot({
		config,
		platform: vendor,
		notifier: new SlackNotifier(createNotifierClient(token, slack.apiUrl), config.timeZone),
		logger,
		push: [push],
	});
	await sleep(500);
	const after = heapAfterGc();
	const botHeap = after - before;
	const assets = bot.directory.all().length;
	await bot.stop();
	await vendor.close();
	await slack.close();
	await sim.close();
	const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
	return [
		{
			name: `bot heap with a ${FLEET.toLocaleString('en-US')}-asset fleet (${assets} assets in its directory, push receiver, state)`,
			value: mb(botHeap),
			baseline: `${mb(before)} whole heap before the bot started (the 10,000-asset simulator in the same process)`,
			ratio: ratio(botHeap, before),
			target: '< 100 MB',
			met: botHeap < 100 * 1048576,
		},
	];
}

const suite: BenchSuite = {
	name: 'bot',
	async run() {
		const figures = [
			...(await commands()),
			...(await alertsAndStorm()),
			...(await reminders()),
			...(await crash()),
			...(await memory()),
		];
		return {
			name: 'bot',
			description:
				'Slack bot: commands, alert latency, storm control, reminder latency, the SIGKILL crash run and memory against the in-process simulator and a local Slack-compatible Web API.',
			figures,
		};
	},
};

export default suite;
