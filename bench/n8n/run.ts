/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- a benchmark program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// `npm run bench:n8n`: the Drive Monitoring nodes against what a user would build instead, inside
// the real n8n 2.41 that `npm run test:n8n` installs, against the simulator (in this process).
// Every figure is a ratio of two runs in the same n8n process (memory: the same installation,
// with and without the pack), timed from the run data n8n saved (each node's startTime and
// executionTime; each execution's startedAt and stoppedAt), the median of BENCH_N8N_RUNS runs.
// Results: bench/results/n8n.md and n8n.json. Parameters (environment):
//   BENCH_N8N_RUNS (5)          runs per figure, alternating ours and theirs
//   BENCH_N8N_ITEMS (1000)      items of Asset > Get
//   BENCH_N8N_LATENCY_MS (50)   platform latency added by the simulator in the second events figure
//   BENCH_N8N_PUSH_EVENTS (10000), BENCH_N8N_PUSH_RUNS (5), BENCH_N8N_PARALLEL_MESSAGES (10)
//   BENCH_N8N_PUSH_LONG_EVENTS (0)   one more burst of this size per variant, its own rows
//   BENCH_N8N_PUSH_BATCH (100)      Events per Execution of our batched variants
//   BENCH_N8N_PUSH_QUEUE_WORKERS (2), BENCH_N8N_PUSH_QUEUE_VARIANTS (as below): figure push-queue
//   BENCH_N8N_PUSH_VARIANTS (ours-amqp-batch,ours-amqp,n8n-amqp,ours-mqtt-batch,ours-mqtt,n8n-mqtt)
//   BENCH_N8N_PUSH_RSS_LIMIT_MB (10240), BENCH_N8N_MEMORY_EXECUTIONS (1000)
//   N8N_CPU_PROF_DIR            write a V8 CPU profile of the n8n main process there (where the time goes)
// Arguments pick figures: get, events, push, push-queue, memory, tool-answers (default: all).
// A Node program: the core's timers and HTTP transport (shared/runtime).
import '../../shared/runtime/node';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
	ExecutionStore,
	ownerSession,
	residentBytes,
	startN8nServerWith,
	type OwnerSession,
	type SavedExecution,
} from '../../scripts/n8n/bench';
import { REPO_ROOT } from '../../scripts/n8n/install-pack';
import {
	n8nCommand,
	queueModeEnv,
	startN8nWorker,
	type N8nInstance,
	type N8nServer,
	type N8nWorker,
} from '../../scripts/n8n/instance';
import { startRedis } from '../../scripts/n8n/redis';
import { ensureN8nRuntime, N8N_VERSION } from '../../scripts/n8n/runtime';
import { createClient, fetchAccessToken } from '../../shared';
import { triggerClientId } from '../../shared/push';
import { API_PREFIX } from '../../shared/spec/limits';
import { startSimulator, type Simulator } from '../../simulator';
import { parsePrintedJson, type WorkflowJson } from '../../test/n8n/harness';
import { startScriptedModel } from '../../test/n8n/helpers/scripted-model';
import type { Figure } from '../suite';
import { CREDENTIALS, installPackagesUnderTest, PACKAGES_UNDER_TEST } from './packages';
import { drainAmqp, drainMqtt, type PushUser } from './push';
import {
	measureToolAnswers,
	OPENAI_CREDENTIAL,
	rowMeets,
	TOKEN_ESTIMATOR,
	TOOL_ANSWER_GOALS,
	toolAnswerQuestions,
	toolAnswersScript,
	toolAnswersWorkflow,
	type ToolAnswerRow,
} from './tool-answers';
import {
	ASSET_GET_NODE,
	assetGetWorkflows,
	CREDENTIAL_IDS,
	EVENTS_NODES,
	eventsWorkflows,
	PUSH_DOWNSTREAM,
	PUSH_VARIANTS,
	pushWorkflows,
	type BenchWorkflow,
	type PushVariant,
} from './workflows';

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SETTINGS = {
	runs: setting('BENCH_N8N_RUNS', 5),
	items: setting('BENCH_N8N_ITEMS', 1000),
	latencyMs: setting('BENCH_N8N_LATENCY_MS', 50),
	pushEvents: setting('BENCH_N8N_PUSH_EVENTS', 10_000),
	pushRuns: setting('BENCH_N8N_PUSH_RUNS', 5),
	// After the runs above, one more burst of this size per variant (0: none), reported apart.
	pushLongEvents: setting('BENCH_N8N_PUSH_LONG_EVENTS', 0),
	// n8n's main process is stopped when a burst grows it past this (n8n's AMQP Trigger reached
	// 22 GB on 10,000 events at once here); what had no execution then counts as lost.
	pushRssLimitMb: setting('BENCH_N8N_PUSH_RSS_LIMIT_MB', 10_240),
	// The push trigger's default (assumption Q2).
	parallelMessages: setting('BENCH_N8N_PARALLEL_MESSAGES', 10),
	// Events per Execution of our batched variants.
	pushBatch: setting('BENCH_N8N_PUSH_BATCH', 100),
	pushQueueWorkers: setting('BENCH_N8N_PUSH_QUEUE_WORKERS', 2),
	memoryExecutions: setting('BENCH_N8N_MEMORY_EXECUTIONS', 1000),
};
const FIGURES = ['get', 'events', 'push', 'push-queue', 'memory', 'tool-answers'] as const;
type FigureName = (typeof FIGURES)[number];

/**
 * n8n as users run it, except that every execution is kept for the bench to read and workflow
 * publications are applied within a second instead of n8n's 15-second outbox poll.
 */
const N8N_SETTINGS = {
	EXECUTIONS_DATA_PRUNE: 'false',
	N8N_LOG_LEVEL: process.env.BENCH_N8N_LOG_LEVEL ?? 'warn',
	N8N_WORKFLOW_PUBLICATION_OUTBOX_POLL_INTERVAL_MS: '1000',
};
const ARTIFACTS = path.join(REPO_ROOT, 'artifacts', 'n8n-bench');

const log = (line: string) =>
	console.error(`bench:n8n ${new Date().toISOString().slice(11, 19)} ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function waitFor(
	what: string,
	check: () => Promise<boolean>,
	timeoutMs: number,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
		await sleep(100);
	}
}

/** Imports credentials (in clear; n8n encrypts them with the instance's key) and workflows. */
async function importInto(
	instance: N8nInstance,
	credentials: Array<Record<string, unknown>>,
	workflows: Array<BenchWorkflow | WorkflowJson>,
): Promise<void> {
	const dir = fs.mkdtempSync(path.join(instance.userFolder, 'import-'));
	fs.writeFileSync(path.join(dir, 'credentials.json'), JSON.stringify(credentials));
	await n8nCommand(instance, [
		'import:credentials',
		`--input=${path.join(dir, 'credentials.json')}`,
	]);
	fs.mkdirSync(path.join(dir, 'workflows'));
	workflows.forEach((workflow, index) =>
		fs.writeFileSync(path.join(dir, 'workflows', `${index}.json`), JSON.stringify(workflow)),
	);
	await n8nCommand(instance, [
		'import:workflow',
		'--separate',
		`--input=${path.join(dir, 'workflows')}`,
	]);
}

/** One n8n server of the bench: its REST session, its saved executions, its main process. */
class BenchN8n {
	private constructor(
		readonly instance: N8nInstance,
		readonly server: N8nServer,
		readonly session: OwnerSession,
		readonly store: ExecutionStore,
	) {}

	static async start(
		instance: N8nInstance,
		label: string,
		activeWorkflows: string[],
		extraEnv: Record<string, string> = {},
	): Promise<BenchN8n> {
		log(`${label}: starting n8n ${N8N_VERSION}`);
		const server = await startN8nServerWith(
			instance,
			path.join(ARTIFACTS, `${label}-${Date.now()}.log`),
			{ ...N8N_SETTINGS, ...extraEnv },
		);
		let ready = false;
		try {
			const session = await ownerSession(server);
			for (const id of activeWorkflows) await session.activate(id);
			ready = true;
			return new BenchN8n(instance, server, session, ExecutionStore.open(instance));
		} finally {
			if (!ready) await server.stop();
		}
	}

	get pid(): number {
		return this.server.process.pid!;
	}

	/** Calls a webhook workflow and returns the execution n8n saved for it. */
	async runWebhook(workflow: BenchWorkflow, body: unknown): Promise<SavedExecution> {
		const path = workflow.nodes[0].parameters.path as string;
		const before = await this.store.lastId();
		const response = await fetch(`${this.server.url}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(
				`${workflow.name}: the webhook answered ${response.status}: ${(await response.text()).slice(0, 500)}`,
			);
		await waitFor(
			`${workflow.name}: the saved execution`,
			async () => (await this.store.countFinished(workflow.id, before)) >= 1,
			60_000,
		);
		const [execution] = await this.store.finished(workflow.id, before);
		const failed = Object.entries(execution.nodes).find(([, node]) => node.error);
		if (execution.status !== 'success' || failed)
			throw new Error(
				`${workflow.name}: execution ${execution.id} ${execution.status}: ${failed?.[0]} ${failed?.[1].error?.message}`,
			);
		return execution;
	}

	async stop(): Promise<void> {
		await this.store.close();
		await this.server.stop();
	}
}

interface Context {
	sim: Simulator;
	apiBase: string;
	assetIds: number[];
	yearDriveId: number;
	pushUser: PushUser;
}

const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
const ratio = (value: number) => `${value.toFixed(2)}x`;

async function figureGet(
	n8n: BenchN8n,
	ctx: Context,
	workflows: ReturnType<typeof assetGetWorkflows>,
): Promise<{ figures: Figure[]; raw: unknown }> {
	const assetIds = Array.from(
		{ length: SETTINGS.items },
		(_, i) => ctx.assetIds[i % ctx.assetIds.length],
	);
	const timed = async (side: 'ours' | 'theirs') => {
		const execution = await n8n.runWebhook(workflows[side], { assetIds });
		const node = execution.nodes[ASSET_GET_NODE[side]];
		if (node.items.length !== SETTINGS.items)
			throw new Error(
				`${ASSET_GET_NODE[side]} returned ${node.items.length} items, not ${SETTINGS.items}`,
			);
		return node.executionTime;
	};
	log(`get: warming up, then ${SETTINGS.runs} runs of ${SETTINGS.items} items each side`);
	await timed('ours');
	await timed('theirs');
	const ours: number[] = [];
	const theirs: number[] = [];
	for (let run = 0; run < SETTINGS.runs; run++) {
		ours.push(await timed('ours'));
		theirs.push(await timed('theirs'));
	}
	const r = median(ours) / median(theirs);
	return {
		figures: [
			{
				name: `${SETTINGS.items} items of Asset > Get: node executionTime (median of ${SETTINGS.runs})`,
				value: `${fmt(median(ours))} Drive Monitoring node (${(median(ours) / SETTINGS.items).toFixed(2)} ms/item)`,
				baseline: `${fmt(median(theirs))} HTTP Request node, Header Auth bearer token (${(median(theirs) / SETTINGS.items).toFixed(2)} ms/item)`,
				ratio: ratio(r),
				target: '<= 1.0x',
				met: r <= 1,
			},
		],
		raw: { oursMs: ours, theirsMs: theirs },
	};
}

async function figureEvents(
	n8n: BenchN8n,
	ctx: Context,
	workflows: ReturnType<typeof eventsWorkflows>,
): Promise<{ figures: Figure[]; raw: unknown }> {
	const end = new Date(Math.floor(Date.now() / 1000) * 1000);
	// A minute inside the 365-day history, so the first window is not refused as too old.
	const start = new Date(end.getTime() - 365 * 86_400_000 + 60_000);
	const body = { assetId: ctx.yearDriveId, start: start.toISOString(), end: end.toISOString() };
	const figures: Figure[] = [];
	const raw: Record<string, unknown> = {};
	for (const latencyMs of [0, SETTINGS.latencyMs]) {
		ctx.sim.faults.clear();
		if (latencyMs > 0) ctx.sim.faults.set({ paths: [API_PREFIX], latencyMs });
		const runSide = async (side: 'ours' | 'theirs') => {
			const execution = await n8n.runWebhook(workflows[side], body);
			if (side === 'ours') {
				const node = execution.nodes[EVENTS_NODES.ours];
				return { ms: node.executionTime, ids: node.items.map((i) => String(i.json.id)) };
			}
			const names = EVENTS_NODES.theirs;
			const first = execution.nodes[names.windows];
			const last = execution.nodes[names.merge];
			return {
				ms: last.startTime + last.executionTime - first.startTime,
				httpMs: execution.nodes[names.http].executionTime,
				windows: first.items.length,
				ids: last.items.map((i) => String(i.json.id ?? i.json.Id)),
			};
		};
		log(
			`events (platform latency ${latencyMs} ms): warming up, then ${SETTINGS.runs} runs each side`,
		);
		await runSide('ours');
		await runSide('theirs');
		const ours: Array<Awaited<ReturnType<typeof runSide>>> = [];
		const theirs: Array<Awaited<ReturnType<typeof runSide>>> = [];
		for (let run = 0; run < SETTINGS.runs; run++) {
			ours.push(await runSide('ours'));
			theirs.push(await runSide('theirs'));
		}
		const same =
			ours.every(
				(o) => JSON.stringify([...o.ids].sort()) === JSON.stringify([...theirs[0].ids].sort()),
			) &&
			theirs.every(
				(t) => JSON.stringify([...t.ids].sort()) === JSON.stringify([...theirs[0].ids].sort()),
			);
		const speedup = median(theirs.map((t) => t.ms)) / median(ours.map((o) => o.ms));
		figures.push({
			name: `365 days of events of one asset, platform latency ${latencyMs} ms (median of ${SETTINGS.runs}; ${theirs[0].windows} windows)`,
			value: `${fmt(median(ours.map((o) => o.ms)))} one Event > Get Many node, ${ours[0].ids.length} events`,
			baseline: `${fmt(median(theirs.map((t) => t.ms)))} Code (windows) + HTTP Request (${fmt(median(theirs.map((t) => t.httpMs ?? 0)))}) + Code (merge), ${theirs[0].ids.length} events`,
			ratio: `${speedup.toFixed(2)}x faster`,
			target: '>= 2x faster, same events',
			met: speedup >= 2 && same,
		});
		raw[`latency${latencyMs}`] = {
			oursMs: ours.map((o) => o.ms),
			theirsMs: theirs.map((t) => t.ms),
			theirsHttpMs: theirs.map((t) => t.httpMs),
			sameEvents: same,
		};
	}
	ctx.sim.faults.clear();
	return { figures, raw };
}

interface PushRun {
	/** Most executions of the burst running at once, and their median duration (startedAt to stoppedAt). */
	maxConcurrent: number;
	medianExecutionMs: number;
	/** Median events per execution. */
	medianBatch: number;
	perSecond: number;
	received: number;
	lost: number;
	duplicated: number;
	seconds: number;
	/** Highest RSS of n8n's main process seen during the burst (read every 500 ms). */
	peakRssMb: number;
	/** Set when n8n's RSS passed BENCH_N8N_PUSH_RSS_LIMIT_MB and the bench stopped it mid-burst. */
	stoppedAtRssMb?: number;
}

/** The event ids an execution's Set node handed on: one, or a batch. */
function eventIdsOf(execution: SavedExecution): string[] {
	return (execution.nodes[PUSH_DOWNSTREAM]?.items ?? []).map((item) => String(item.json.eventId));
}

function distinctEventIds(executions: SavedExecution[], burst: Set<string>): Set<string> {
	return new Set(executions.flatMap(eventIdsOf).filter((id) => burst.has(id)));
}

/** Events per execution a variant's trigger takes (1 for all but our batched ones). */
function batchOf(workflow: BenchWorkflow): number {
	return Number(
		(workflow.nodes[0].parameters.options as { eventsPerExecution?: number } | undefined)
			?.eventsPerExecution ?? 1,
	);
}

/** Our MQTT trigger's client id in this workflow (one per workflow and node). */
function mqttClientIdOf(workflow: BenchWorkflow, user: PushUser): string {
	return triggerClientId({
		userName: user.userName,
		workflowId: workflow.id,
		nodeId: workflow.nodes[0].id,
		purpose: 'active',
	});
}

/** Empties what earlier variants left in the user's queues, then publishes the trigger workflow. */
async function activatePush(
	n8n: BenchN8n,
	ctx: Context,
	variant: PushVariant,
	workflow: BenchWorkflow,
): Promise<void> {
	const urls = ctx.sim.info.pushUrls as { amqp: string; mqtt: string };
	if (variant.includes('amqp')) await drainAmqp(urls.amqp, ctx.pushUser);
	if (variant.startsWith('ours-mqtt'))
		await drainMqtt(urls.mqtt, ctx.pushUser, mqttClientIdOf(workflow, ctx.pushUser));
	await n8n.session.activate(workflow.id);
}

/** One burst through the active trigger workflow; counted and timed from the saved executions. */
async function pushBurst(
	n8n: BenchN8n,
	ctx: Context,
	workflow: BenchWorkflow,
	size: number,
): Promise<PushRun> {
	// A first event proves the trigger is listening (and warms it) before the burst.
	const probeFrom = await n8n.store.lastId();
	ctx.sim.control.raiseEvent(ctx.yearDriveId, { eventType: 'Fault' });
	await waitFor(
		`${workflow.name}: the first event`,
		async () => (await n8n.store.countFinished(workflow.id, probeFrom)) >= 1,
		60_000,
	);
	await sleep(1000);
	const from = await n8n.store.lastId();
	const ids = new Set<string>();
	for (let i = 0; i < size; i++)
		ids.add(String(ctx.sim.control.raiseEvent(ctx.yearDriveId, { eventType: 'Fault' }).id));
	// Until every burst event has had its execution, or nothing moved for a minute.
	let count = 0;
	let progressAt = Date.now();
	let stoppedAtRssMb: number | undefined;
	let peakRssMb = 0;
	for (;;) {
		await sleep(500);
		const rssMb = residentBytes(n8n.pid) / 2 ** 20;
		peakRssMb = Math.max(peakRssMb, rssMb);
		if (rssMb > SETTINGS.pushRssLimitMb) {
			log(
				`push: ${workflow.name}: n8n's RSS ${rssMb.toFixed(0)} MB passed ${SETTINGS.pushRssLimitMb} MB; stopping it`,
			);
			n8n.server.process.kill('SIGKILL');
			stoppedAtRssMb = Math.round(rssMb);
			break;
		}
		const now = await n8n.store.countFinished(workflow.id, from);
		if (now > count) progressAt = Date.now();
		count = now;
		if (Date.now() - progressAt > 60_000) break;
		if (
			count * batchOf(workflow) >= size &&
			distinctEventIds(await n8n.store.finished(workflow.id, from), ids).size >= size
		)
			break;
	}
	await sleep(2000); // late duplicates would show here
	const executions = await n8n.store.finished(workflow.id, from);
	const seen = new Map<string, number>();
	let first = Infinity;
	let last = 0;
	const burst: SavedExecution[] = [];
	for (const execution of executions) {
		const inBurst = eventIdsOf(execution).filter((id) => ids.has(id));
		if (inBurst.length === 0) continue;
		burst.push(execution);
		for (const id of inBurst) seen.set(id, (seen.get(id) ?? 0) + 1);
		first = Math.min(first, execution.startedAt);
		last = Math.max(last, execution.stoppedAt);
	}
	const duplicated = [...seen.values()].reduce((sum, n) => sum + n - 1, 0);
	const seconds = (last - first) / 1000;
	const edges = burst
		.flatMap((e) => [
			[e.startedAt, 1],
			[e.stoppedAt, -1],
		])
		.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	let running = 0;
	let maxConcurrent = 0;
	for (const [, step] of edges) maxConcurrent = Math.max(maxConcurrent, (running += step));
	return {
		maxConcurrent,
		medianExecutionMs: median(burst.map((e) => e.stoppedAt - e.startedAt)),
		medianBatch: median(burst.map((e) => eventIdsOf(e).length)),
		perSecond: seen.size / seconds,
		received: seen.size + duplicated,
		lost: size - seen.size,
		duplicated,
		seconds,
		peakRssMb: Math.round(peakRssMb),
		stoppedAtRssMb,
	};
}

/**
 * Each variant in its own start of n8n (same installation): n8n 2.41 leaves a trigger of a
 * node that has both a trigger and a poll function running after the workflow is unpublished
 * (see the README), which would take the next variant's messages.
 */
async function figurePush(
	instance: N8nInstance,
	ctx: Context,
	workflows: Record<PushVariant, BenchWorkflow>,
	queue?: { redisPort: number; workers: number },
): Promise<{ figures: Figure[]; raw: unknown }> {
	const runs = Object.fromEntries(PUSH_VARIANTS.map((v) => [v, [] as PushRun[]])) as Record<
		PushVariant,
		PushRun[]
	>;
	const long: Partial<Record<PushVariant, PushRun>> = {};
	const variants = ((queue
		? process.env.BENCH_N8N_PUSH_QUEUE_VARIANTS
		: process.env.BENCH_N8N_PUSH_VARIANTS
	)?.split(',') ?? PUSH_VARIANTS) as PushVariant[];
	const mqttUrl = (ctx.sim.info.pushUrls as { mqtt: string }).mqtt;
	const queueEnv = queue ? (queueModeEnv(queue.redisPort) as Record<string, string>) : {};
	const where = queue ? ` in queue mode (${queue.workers} workers)` : '';
	for (const variant of variants) {
		const label = `push${queue ? '-queue' : ''}-${variant}`;
		const workers: N8nWorker[] = [];
		for (let i = 0; queue && i < queue.workers; i++)
			workers.push(
				await startN8nWorker(
					instance,
					path.join(ARTIFACTS, `${label}-worker${i + 1}-${Date.now()}.log`),
					{ ...N8N_SETTINGS, ...queueEnv, ...WORKER_LOG },
				),
			);
		const n8n = await BenchN8n.start(instance, label, [], queueEnv).catch(
			async (error: unknown) => {
				for (const worker of workers) await worker.stop();
				throw error;
			},
		);
		try {
			await activatePush(n8n, ctx, variant, workflows[variant]);
			for (let run = 0; run < SETTINGS.pushRuns; run++) {
				log(`push: ${variant}, run ${run + 1}/${SETTINGS.pushRuns}, ${SETTINGS.pushEvents} events`);
				const result = await pushBurst(n8n, ctx, workflows[variant], SETTINGS.pushEvents);
				log(
					`push: ${variant}: ${result.perSecond.toFixed(0)}/s, lost ${result.lost}, duplicated ${result.duplicated}, peak RSS ${result.peakRssMb} MB`,
				);
				runs[variant].push(result);
				if (result.stoppedAtRssMb) break;
			}
			if (SETTINGS.pushLongEvents > 0 && !runs[variant].some((r) => r.stoppedAtRssMb)) {
				const startedAt = Date.now();
				log(`push: ${variant}, one run of ${SETTINGS.pushLongEvents} events`);
				const result = await pushBurst(n8n, ctx, workflows[variant], SETTINGS.pushLongEvents);
				log(
					`push: ${variant}: ${result.perSecond.toFixed(0)}/s, lost ${result.lost}, duplicated ${result.duplicated} (${((Date.now() - startedAt) / 60_000).toFixed(1)} min)`,
				);
				long[variant] = result;
			}
			// Unpublished, or the next start of n8n would start it again beside the next variant (once
			// the RSS limit stopped n8n, by n8n's command line below).
			if (n8n.server.process.exitCode === null && n8n.server.process.signalCode === null)
				await n8n.session.deactivate(workflows[variant].id);
		} finally {
			await n8n.stop();
			for (const worker of workers) await worker.stop();
		}
		// Stopped at the RSS limit it is still published: the next start of n8n would run it beside
		// the next variant, on the messages it had not acknowledged yet.
		if (runs[variant].some((r) => r.stoppedAtRssMb))
			await n8nCommand(instance, ['unpublish:workflow', `--id=${workflows[variant].id}`]);
		// Our MQTT trigger's session is persistent: left, it would keep the next variants' bursts.
		if (variant.startsWith('ours-mqtt'))
			await drainMqtt(mqttUrl, ctx.pushUser, mqttClientIdOf(workflows[variant], ctx.pushUser));
	}
	const figures: Figure[] = [];
	for (const protocol of ['amqp', 'mqtt'] as const) {
		const batched = runs[`ours-${protocol}-batch`];
		const baselines = [runs[`ours-${protocol}`], runs[`n8n-${protocol}`]];
		for (const baseline of baselines) {
			if (batched.length > 0 && baseline.length > 0)
				figures.push(
					pushFigure(
						`${protocol.toUpperCase()}${where}`,
						protocol,
						batched,
						baseline,
						baseline === baselines[0] ? 'ours' : 'n8n',
						SETTINGS.pushEvents,
						`median of ${SETTINGS.pushRuns}`,
					),
				);
		}
		const batchedLong = long[`ours-${protocol}-batch`];
		for (const [kind, baseline] of [
			['ours', long[`ours-${protocol}`]],
			['n8n', long[`n8n-${protocol}`]],
		] as const) {
			if (batchedLong && baseline)
				figures.push(
					pushFigure(
						`${protocol.toUpperCase()}${where}`,
						protocol,
						[batchedLong],
						[baseline],
						kind,
						SETTINGS.pushLongEvents,
						'one run',
					),
				);
		}
	}
	return { figures, raw: SETTINGS.pushLongEvents > 0 ? { ...runs, long } : runs };
}

/** A worker tells it is ready at info level, which the bench's n8n level (warn) would hide. */
const WORKER_LOG = { N8N_LOG_LEVEL: 'info' };

const PUSH_DESCRIPTION =
	"Our Drive Monitoring Push Trigger with Events per Execution (batches) against the same trigger one event per execution and against n8n's own AMQP and MQTT triggers; n8n main RSS is the highest reading (every 500 ms) during the burst.";

/** The target: batches of 100 at least 10x the events per second of one event per execution. */
const PUSH_BATCH_TARGET = 10;

/** One protocol's row: our batched trigger against our trigger one by one, or n8n's, on the same bursts. */
function pushFigure(
	title: string,
	protocol: 'amqp' | 'mqtt',
	ours: PushRun[],
	theirs: PushRun[],
	against: 'ours' | 'n8n',
	events: number,
	runs: string,
): Figure {
	const oursRate = median(ours.map((r) => r.perSecond));
	const theirRate = median(theirs.map((r) => r.perSecond));
	const sum = (list: PushRun[], key: 'lost' | 'duplicated') =>
		list.reduce((total, r) => total + r[key], 0);
	const n8nNode = protocol === 'amqp' ? 'AMQP Trigger' : 'MQTT Trigger (QoS 1)';
	const stopped = (list: PushRun[]) =>
		list
			.filter((r) => r.stoppedAtRssMb)
			.map((r) => `; n8n stopped by the bench at ${r.stoppedAtRssMb} MB RSS`)
			.join('');
	const shape = (list: PushRun[]) =>
		`${median(list.map((r) => r.medianBatch))} events per execution, up to ${median(list.map((r) => r.maxConcurrent))} executions at once, ${fmt(median(list.map((r) => r.medianExecutionMs)))} each; n8n main RSS peak ${median(list.map((r) => r.peakRssMb))} MB${stopped(list)}`;
	const lossless = (list: PushRun[]) =>
		`lost ${sum(list, 'lost')}, duplicated ${sum(list, 'duplicated')}`;
	const baseline =
		against === 'ours'
			? `${theirRate.toFixed(0)} events/s Drive Monitoring Push Trigger, 1 event per execution (${shape(theirs)}); ${lossless(theirs)}`
			: `${theirRate.toFixed(0)} events/s n8n ${n8nNode} (acknowledges on receipt; ${shape(theirs)}); ${lossless(theirs)}`;
	return {
		name: `${title}: burst of ${events} AssetEvents, trigger + Set node, batches of ${SETTINGS.pushBatch} against ${against === 'ours' ? 'our trigger one by one' : `n8n's ${n8nNode}`} (${runs})`,
		value: `${oursRate.toFixed(0)} events/s Drive Monitoring Push Trigger, Events per Execution ${SETTINGS.pushBatch} (acknowledge after execution, ${SETTINGS.parallelMessages} parallel messages; ${shape(ours)}); ${lossless(ours)}`,
		baseline,
		ratio: ratio(oursRate / theirRate),
		target: `>= ${PUSH_BATCH_TARGET}x, 0 lost, 0 duplicated`,
		met:
			oursRate >= PUSH_BATCH_TARGET * theirRate &&
			sum(ours, 'lost') === 0 &&
			sum(ours, 'duplicated') === 0,
	};
}

/** Resident memory after a quiet moment (timers and GC settle): the median of 5 readings 2 s apart. */
async function settledRss(n8n: BenchN8n): Promise<number> {
	await sleep(10_000);
	const readings: number[] = [];
	for (let i = 0; i < 5; i++) {
		readings.push(residentBytes(n8n.pid));
		await sleep(2000);
	}
	return median(readings);
}

/** Runs each workflow `count` times, a few webhook calls in flight at once. */
async function manyWebhooks(
	n8n: BenchN8n,
	workflow: BenchWorkflow,
	body: unknown,
	count: number,
): Promise<void> {
	let next = 0;
	const url = `${n8n.server.url}/webhook/${workflow.nodes[0].parameters.path as string}`;
	await Promise.all(
		Array.from({ length: 4 }, async () => {
			while (next++ < count) {
				const response = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(body),
				});
				if (!response.ok)
					throw new Error(`${workflow.name}: the webhook answered ${response.status}`);
				await response.arrayBuffer();
			}
		}),
	);
}

const TOOL_ANSWERS_DESCRIPTION = `Per read operation, the answer a model receives from our node as an AI tool (its default compact answer) against the answer of n8n's HTTP Request tool (its defaults; its Optimize Response option, off by default, keeps chosen fields or cuts the text at a number of characters: it drops facts rather than summarizing them) calling the same endpoint for the same question, both tools of one AI Agent in the same n8n, against the simulator. The model is the scripted OpenAI-compatible server of the real-n8n tests (test/n8n/helpers/scripted-model.ts): in one turn it calls every tool (the HTTP Request tool once per window where the API answers at most 7 or 30 days), and the tool results it receives in the next request are what is measured (n8n sends JSON.stringify of the tool's output items). Tokens: ${TOKEN_ESTIMATOR}. Goal: every answer under ${TOOL_ANSWER_GOALS.maxTokens.toLocaleString('en')} tokens, at least ${TOOL_ANSWER_GOALS.minRatio}x smaller than the raw answer where that is large (over ${TOOL_ANSWER_GOALS.largeRawBytes / 1000} kB, the bound set for a tool answer), and the same facts in it (checked per operation against the raw answer of the same run).`;

/** The tool-answers figure: our tool's answers against the HTTP Request tool's, as the model receives them. */
async function figureToolAnswers(
	instance: N8nInstance,
	model: Awaited<ReturnType<typeof startScriptedModel>>,
	questions: Awaited<ReturnType<typeof toolAnswerQuestions>>,
	workflow: WorkflowJson,
): Promise<{ section: Section; rows: ToolAnswerRow[] }> {
	const calls = toolAnswersScript(questions);
	log(`tool-answers: ${questions.length} questions, ${calls.length} tool calls in one agent turn`);
	model.play([{ toolCalls: calls }], 'Done.');
	const result = await n8nCommand(instance, ['execute', `--id=${workflow.id}`, '--rawOutput'], {
		allowFailure: true,
	});
	fs.writeFileSync(
		path.join(ARTIFACTS, `tool-answers-${Date.now()}.log`),
		`${result.stdout}\n${result.stderr}`,
	);
	if (result.code !== 0)
		throw new Error(
			`tool-answers: n8n execute exited with ${result.code}:\n${`${result.stdout}\n${result.stderr}`.slice(-4000)}`,
		);
	const runData = (
		parsePrintedJson(result.stdout) as {
			data: { resultData: { runData: Record<string, Array<{ error?: { message: string } }>> } };
		}
	).data.resultData.runData;
	const agentError = runData['AI Agent']?.[0]?.error;
	if (agentError) throw new Error(`tool-answers: the agent failed: ${agentError.message}`);
	if (model.requests.length !== 2)
		throw new Error(
			`tool-answers: the model was asked ${model.requests.length} times, expected 2 (the tool calls, then the answer)`,
		);
	const rows = await measureToolAnswers(questions, model.requests[1].toolResults);
	const kb = (bytes: number) =>
		`${(bytes / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} kB`;
	const figures: Figure[] = rows.map((row) => ({
		name: `${row.operation}: "${row.question}"`,
		value: `${row.oursTokens.toLocaleString('en')} tokens, ${kb(row.oursBytes)} (Drive Monitoring tool, 1 call)${row.factProblems.length ? `; facts differ: ${row.factProblems.join('; ')}` : '; same facts'}`,
		baseline: `${row.rawTokens.toLocaleString('en')} tokens, ${kb(row.rawBytes)} (HTTP Request tool, ${row.rawCalls} call${row.rawCalls > 1 ? 's' : ''})`,
		ratio: `${(row.rawTokens / row.oursTokens).toFixed(1)}x smaller`,
		target: `< ${TOOL_ANSWER_GOALS.maxTokens.toLocaleString('en')} tokens; >= ${TOOL_ANSWER_GOALS.minRatio}x smaller where raw > ${TOOL_ANSWER_GOALS.largeRawBytes / 1000} kB; same facts`,
		met: rowMeets(row),
	}));
	for (const row of rows)
		log(
			`tool-answers: ${row.key}: ours ${row.oursTokens} tokens, raw ${row.rawTokens} tokens (${row.rawCalls} calls)${row.factProblems.length ? `; FACTS: ${row.factProblems.join('; ')}` : ''}`,
		);
	return {
		section: { name: 'Tool answers', description: TOOL_ANSWERS_DESCRIPTION, figures, raw: rows },
		rows,
	};
}

/** The tool-answers figure in a file of its own, named by the day of the run: the table with the facts compared. */
function writeToolAnswers(started: Date, packages: string[], rows: ToolAnswerRow[]): void {
	const file = path.join(
		REPO_ROOT,
		'bench',
		'results',
		`n8n-tool-answers-${started.toISOString().slice(0, 10)}.md`,
	);
	const n = (value: number) => value.toLocaleString('en');
	const lines = [
		'# Tool answers: the Drive Monitoring tool against the HTTP Request tool',
		'',
		`n8n ${N8N_VERSION}, Node ${process.version}, ${process.platform}/${process.arch}; packages ${packages.join(', ')}; measured ${started.toISOString()}, load average ${os
			.loadavg()
			.map((l) => l.toFixed(1))
			.join(
				' ',
			)} at the end (${os.cpus().length} cores). Reproduce: \`npm run bench:n8n -- tool-answers\`.`,
		'',
		TOOL_ANSWERS_DESCRIPTION,
		'',
		'| operation | question | ours: tokens (bytes) | HTTP Request tool: calls, tokens (bytes) | smaller by | facts compared | same facts | met |',
		'|---|---|---|---|---|---|---|---|',
		...rows.map(
			(r) =>
				`| ${r.operation} | ${r.question} | ${n(r.oursTokens)} (${n(r.oursBytes)}) | ${r.rawCalls}, ${n(r.rawTokens)} (${n(r.rawBytes)}) | ${(r.rawTokens / r.oursTokens).toFixed(1)}x | ${r.facts} | ${r.factProblems.length ? `NO: ${r.factProblems.join('; ').replace(/\|/g, '\\|')}` : 'yes'} | ${rowMeets(r) ? 'yes' : 'NO'} |`,
		),
		'',
	];
	fs.writeFileSync(file, lines.join('\n'));
	log(`tool-answers: written to ${file}`);
}

async function main(): Promise<void> {
	const picked = process.argv.slice(2) as FigureName[];
	const unknown = picked.filter((p) => !FIGURES.includes(p));
	if (unknown.length)
		throw new Error(`unknown figure(s) ${unknown.join(', ')}; pick from ${FIGURES.join(', ')}`);
	const wanted = (name: FigureName) => picked.length === 0 || picked.includes(name);
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	const keep = process.env.BENCH_N8N_KEEP === '1';

	const runtime = await ensureN8nRuntime(log);
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-'));
	const withPack: N8nInstance = {
		runtime,
		userFolder: path.join(work, 'with-pack'),
		encryptionKey: crypto.randomBytes(24).toString('hex'),
	};
	const stock: N8nInstance = {
		runtime,
		userFolder: path.join(work, 'stock'),
		encryptionKey: crypto.randomBytes(24).toString('hex'),
	};
	fs.mkdirSync(withPack.userFolder);
	fs.mkdirSync(stock.userFolder);

	const sim = await startSimulator({ push: true, tokenLifetimeSec: 6 * 3600 });
	const started = new Date();
	const sections: Section[] = [];
	try {
		log(`installing ${PACKAGES_UNDER_TEST.join(', ')} into ${withPack.userFolder}`);
		const installed = await installPackagesUnderTest(withPack.userFolder);

		const eu = sim.info.credentials.find((c) => c.orgType === 'EU')!;
		const apiCredentials = {
			baseUrl: sim.info.baseUrl,
			authUrl: sim.info.authUrl,
			tenantId: sim.info.tenantId,
			apiScopeId: sim.info.apiScopeId,
			apiKey: eu.apiKey,
			apiSecret: eu.apiSecret,
		};
		const token = await fetchAccessToken(apiCredentials);
		const assets = sim.fleet
			.assets()
			.filter((a) => a.orgId === eu.orgId && a.assetType !== 'PowerTrain' && a.level !== 'expired');
		const yearDrive = assets.find((a) => a.assetType === 'Drive' && a.level === 'Premium');
		if (!yearDrive)
			throw new Error('the simulator has no Premium drive in its first EU organization');

		const client = createClient(apiCredentials);
		const user = await client.dataSubscription.createUser();
		const topic = `bench${crypto.randomBytes(3).toString('hex')}`;
		await client.dataSubscription.setDataTypes({
			subCustomerId: user.id,
			topicName: topic,
			subDataTypes: ['AssetEvent'],
		});
		const toolAnswers = wanted('tool-answers')
			? await toolAnswerQuestions({
					sim,
					client,
					apiBase: `${sim.info.baseUrl}${API_PREFIX}`,
					orgId: eu.orgId,
				})
			: [];
		await client.close();
		const pushUser: PushUser = {
			userName: String(user.userName),
			password: String(user.password),
			topic,
		};
		const ctx: Context = {
			sim,
			apiBase: `${sim.info.baseUrl}${API_PREFIX}`,
			assetIds: assets.map((a) => a.id),
			yearDriveId: yearDrive.id,
			pushUser,
		};

		const urls = sim.info.pushUrls as { amqp: string; mqtt: string };
		const amqpUrl = new URL(urls.amqp);
		const mqttUrl = new URL(urls.mqtt);
		const credentials = [
			{ ...CREDENTIAL_IDS.api, type: CREDENTIALS.api, data: apiCredentials },
			{
				...CREDENTIAL_IDS.push,
				type: CREDENTIALS.push,
				data: { brokerUrl: urls.amqp, ...pushUser, addressTemplate: '' },
			},
			{
				id: `${CREDENTIAL_IDS.push.id}m`,
				name: `${CREDENTIAL_IDS.push.name} MQTT`,
				type: CREDENTIALS.push,
				data: { brokerUrl: urls.mqtt, ...pushUser, addressTemplate: '' },
			},
		];
		const stockCredentials = [
			{
				...CREDENTIAL_IDS.header,
				type: 'httpHeaderAuth',
				data: { name: 'Authorization', value: `Bearer ${token.accessToken}` },
			},
			{
				...CREDENTIAL_IDS.amqp,
				type: 'amqp',
				data: {
					hostname: amqpUrl.hostname,
					port: Number(amqpUrl.port),
					username: pushUser.userName,
					password: pushUser.password,
					transportType: 'tcp',
				},
			},
			{
				...CREDENTIAL_IDS.mqtt,
				type: 'mqtt',
				data: {
					protocol: 'mqtt',
					host: mqttUrl.hostname,
					port: Number(mqttUrl.port),
					username: pushUser.userName,
					password: pushUser.password,
					clean: true,
					clientId: '',
					ssl: false,
				},
			},
		];
		const get = assetGetWorkflows(ctx.apiBase);
		const events = eventsWorkflows(ctx.apiBase);
		const push = pushWorkflows(topic, SETTINGS.parallelMessages, SETTINGS.pushBatch);
		log('importing credentials and workflows');
		const toolAnswersFlow = toolAnswersWorkflow(toolAnswers);
		const model = wanted('tool-answers') ? await startScriptedModel() : undefined;
		const modelCredentials = model
			? [
					{
						...OPENAI_CREDENTIAL,
						type: 'openAiApi',
						data: { apiKey: 'sk-scripted', url: model.url },
					},
				]
			: [];
		await importInto(
			withPack,
			[...credentials, ...stockCredentials, ...modelCredentials],
			[
				get.ours,
				get.theirs,
				events.ours,
				events.theirs,
				...Object.values(push),
				...(model ? [toolAnswersFlow] : []),
			],
		);
		if (wanted('memory'))
			await importInto(stock, stockCredentials, [get.theirs, events.theirs, push['n8n-amqp']]);
		const webhookWorkflows = [get.ours.id, get.theirs.id, events.ours.id, events.theirs.id];

		if (wanted('get') || wanted('events')) {
			const n8n = await BenchN8n.start(withPack, 'figures', webhookWorkflows);
			try {
				if (wanted('get')) {
					const result = await figureGet(n8n, ctx, get);
					sections.push({
						name: 'Asset > Get',
						description: `${SETTINGS.items} items in one execution: the Drive Monitoring node (its credential fetches and caches the token) against the HTTP Request node calling E8 with a Generic Credential > Header Auth holding the same organization's bearer token. Time: the node's executionTime in n8n's run data.`,
						...result,
					});
				}
				if (wanted('events')) {
					const result = await figureEvents(n8n, ctx, events);
					sections.push({
						name: 'A year of events',
						description:
							"Events of one Premium drive over 365 days (53 seven-day windows of E14): one Event > Get Many node with its default settings (splits, fetches the windows at once up to its Parallel Requests, 64, merges) against a Code node making the windows, the HTTP Request node with its default settings (no batching: every item's request is sent at once) and a Code node merging them, each event once in time order. Time: ours, the node's executionTime; theirs, from the start of the windows node to the end of the merge node.",
						...result,
					});
				}
			} finally {
				await n8n.stop();
			}
		}
		if (wanted('push')) {
			const result = await figurePush(withPack, ctx, push);
			sections.push({
				name: 'Push burst',
				description: `${PUSH_DESCRIPTION} All events raised at once on the simulator, published to the same data-subscription user and topic; each variant's workflow alone active, in its own start of the same n8n installation, its runs back to back; each a trigger followed by the same Set node taking the event id. Throughput: distinct burst events over the span from the first execution's startedAt to the last one's stoppedAt (n8n's saved executions); lost and duplicated counted from the Set node's output of every saved execution.`,
				...result,
			});
		}

		if (wanted('push-queue')) {
			const redis = await startRedis();
			try {
				const workers = SETTINGS.pushQueueWorkers;
				const result = await figurePush(withPack, ctx, push, { redisPort: redis.port, workers });
				sections.push({
					name: 'Push burst, queue mode',
					description: `${PUSH_DESCRIPTION} As the Push burst above, with n8n in queue mode: Debian's redis-server, \`n8n start\` (the trigger) and ${workers} \`n8n worker\` (concurrency 10 each, the executions) on one SQLite database, started for each variant.`,
					...result,
				});
			} finally {
				await redis.stop();
			}
		}

		if (wanted('memory')) {
			const count = SETTINGS.memoryExecutions;
			const runMemory = async (instance: N8nInstance, label: string, side: 'ours' | 'theirs') => {
				const workflowsOfSide =
					side === 'ours' ? [get.ours, events.ours] : [get.theirs, events.theirs];
				const n8n = await BenchN8n.start(
					instance,
					`memory-${label}`,
					workflowsOfSide.map((w) => w.id),
				);
				try {
					const idle = await settledRss(n8n);
					log(
						`memory ${label}: idle ${(idle / 2 ** 20).toFixed(1)} MB; ${count} executions of each workflow`,
					);
					// Each step's RSS (one reading) shows which workflow the memory goes with.
					const steps: Record<string, number> = {};
					await manyWebhooks(n8n, workflowsOfSide[0], { assetIds: [ctx.assetIds[0]] }, count);
					steps[workflowsOfSide[0].name] = residentBytes(n8n.pid);
					await manyWebhooks(
						n8n,
						workflowsOfSide[1],
						{
							assetId: ctx.yearDriveId,
							start: new Date(Date.now() - 30 * 86_400_000).toISOString(),
							end: new Date().toISOString(),
						},
						count,
					);
					steps[workflowsOfSide[1].name] = residentBytes(n8n.pid);
					const variant: PushVariant = side === 'ours' ? 'ours-amqp' : 'n8n-amqp';
					await activatePush(n8n, ctx, variant, push[variant]);
					await pushBurst(n8n, ctx, push[variant], count);
					steps[push[variant].name] = residentBytes(n8n.pid);
					log(
						`memory ${label}: after each step ${JSON.stringify(Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, Math.round(v / 2 ** 20)])))} MB`,
					);
					const after = await settledRss(n8n);
					log(`memory ${label}: after ${(after / 2 ** 20).toFixed(1)} MB`);
					return { idle, after, steps };
				} finally {
					await n8n.stop();
				}
			};
			const ours = await runMemory(withPack, 'with-pack', 'ours');
			const theirs = await runMemory(stock, 'stock', 'theirs');
			const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
			const signed = (bytes: number) => `${bytes >= 0 ? '+' : ''}${mb(bytes)}`;
			const added = ours.after - theirs.after;
			sections.push({
				name: 'Memory',
				description: `RSS of the n8n main process (/proc/<pid>/status VmRSS, the median of 5 readings from 10 s after the last execution): n8n with the pack after ${count} executions of each of its workflows (Asset > Get of one item, Event > Get Many over 30 days, the push trigger over AMQP), against a fresh n8n of the same installation with no community package after ${count} executions of the stock equivalents (HTTP Request, the same with Code windows, the AMQP Trigger).`,
				figures: [
					{
						name: 'n8n main process RSS, idle after start',
						value: `${mb(ours.idle)} with the pack`,
						baseline: `${mb(theirs.idle)} no community package`,
						ratio: signed(ours.idle - theirs.idle),
					},
					{
						name: `n8n main process RSS after ${count} executions of each workflow`,
						value: `${mb(ours.after)} with the pack`,
						baseline: `${mb(theirs.after)} no community package, stock workflows`,
						ratio: signed(added),
						target: '< +30 MB',
						met: added < 30 * 2 ** 20,
					},
				],
				raw: { ours, theirs },
			});
		}

		if (model) {
			try {
				const result = await figureToolAnswers(withPack, model, toolAnswers, toolAnswersFlow);
				sections.push(result.section);
				writeToolAnswers(
					started,
					installed.map((p) => `${p.name}@${p.version}`),
					result.rows,
				);
			} finally {
				await model.close();
			}
		}

		writeResults(
			started,
			installed.map((p) => `${p.name}@${p.version}`),
			sections,
		);
	} finally {
		await sim.close();
		if (keep) log(`kept ${work}`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

interface Section {
	name: string;
	description: string;
	figures: Figure[];
	raw: unknown;
	/** When and how this section was measured: a run of some figures keeps the others' sections. */
	run?: { started: string; settings: typeof SETTINGS; packages: string[]; load: string };
}

const SECTION_ORDER = [
	'Asset > Get',
	'A year of events',
	'Push burst',
	'Push burst, queue mode',
	'Memory',
	'Tool answers',
];

/** Writes this run's sections, keeping the sections of figures this run did not measure. */
function writeResults(started: Date, packages: string[], measured: Section[]): void {
	const outDir = path.join(REPO_ROOT, 'bench', 'results');
	fs.mkdirSync(outDir, { recursive: true });
	const jsonPath = path.join(outDir, 'n8n.json');
	const load = `load average ${os
		.loadavg()
		.map((l) => l.toFixed(1))
		.join(' ')} at the end (${os.cpus().length} cores)`;
	const run = { started: started.toISOString(), settings: SETTINGS, packages, load };
	const earlier = fs.existsSync(jsonPath)
		? (JSON.parse(fs.readFileSync(jsonPath, 'utf8')) as {
				started?: string;
				settings?: typeof SETTINGS;
				packages?: string[];
				sections?: Section[];
			})
		: {};
	const kept = (earlier.sections ?? [])
		.filter((section) => !measured.some((m) => m.name === section.name))
		.map((section) => ({
			...section,
			run: section.run ?? {
				started: earlier.started ?? '',
				settings: earlier.settings ?? SETTINGS,
				packages: earlier.packages ?? [],
				load: '',
			},
		}));
	const sections = [...kept, ...measured.map((section) => ({ ...section, run }))].sort(
		(a, b) => SECTION_ORDER.indexOf(a.name) - SECTION_ORDER.indexOf(b.name),
	);
	const header = [
		'# Real-n8n benchmark results',
		'',
		`n8n ${N8N_VERSION}, Node ${process.version}, ${process.platform}/${process.arch}. Reproduce: \`npm run bench:n8n\` (or one figure: \`-- get\`, \`events\`, \`push\`, \`push-queue\`, \`memory\`, \`tool-answers\`).`,
		'',
	];
	const body = sections.flatMap((s) => [
		`## ${s.name}`,
		'',
		s.description,
		'',
		`Measured ${s.run.started}${s.run.load ? `, ${s.run.load}` : ''}; packages ${s.run.packages.join(', ')}; settings ${JSON.stringify(s.run.settings)}.`,
		'',
		'| figure | ours | theirs (same n8n) | ratio | target | met |',
		'|---|---|---|---|---|---|',
		...s.figures.map(
			(f) =>
				`| ${f.name} | ${f.value} | ${f.baseline ?? ''} | ${f.ratio ?? ''} | ${f.target ?? ''} | ${f.met === undefined ? '' : f.met ? 'yes' : 'NO'} |`,
		),
		'',
	]);
	fs.writeFileSync(path.join(outDir, 'n8n.md'), [...header, ...body].join('\n'));
	fs.writeFileSync(
		jsonPath,
		JSON.stringify({ n8n: N8N_VERSION, node: process.version, sections }, null, 2),
	);
	console.log([...header, ...body].join('\n'));
	log(`written to ${path.join(outDir, 'n8n.md')}`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
