/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { BotConfig } from '../../config/schema';
import { type BotLogger, errorText } from '../../log';
import * as metrics from '../../ops/metrics';
import type { RequestBudget } from '../../platform/budget';
import type { AssetDirectory } from '../../platform/directory';
import type { AssetListItem, DrivePlatform, PlatformEvent } from '../../platform/types';
import type { AlertState } from '../../features/alerts/state';
import type { AlertEngine } from '../../features/alerts/engine';
import type { AlertRecord } from '../../kernel/alert';
import { meetsSeverity } from '../../features/alerts/routing';
import { CATCH_UP_LISTED } from '../../blocks/catch-up';
import { describePlan, type PassPlan, planPass } from './poll-plan';
import { SetAside } from './set-aside';
import type { SourceStatus } from '../../kernel/source-status';

const EVENTS_WATERMARK = 'poll.events';
const CBM_WATERMARK = 'poll.cbm';
/** Events can reach the platform a little after their time: each read overlaps the last. */
const OVERLAP_MS = 5 * 60_000;
const MAX_BACK_MS = 7 * 86_400_000;
/** An asset with an alerting event this recent is busy: read every pass. */
const BUSY_FOR_MS = 86_400_000;
/** Part of the budget a pass plans on; the rest is room for commands, served first. */
const POLL_SHARE = 0.8;
/** Reads in flight are bounded by the budget; this only bounds the waiting workers. */
const WORKERS = 32;

export interface PollSource {
	/**
	 * A full pass (every asset, not the planned share) that starts now or right after the running
	 * one; resolves when it is done. `withCbm` reads CBM of every drive too.
	 */
	pollOnce(withCbm?: boolean): Promise<void>;
	/** One pass as the timer runs it: the plan's share of the fleet. */
	planned(): Promise<void>;
	status(): SourceStatus;
	lagSeconds(): number;
	close(): Promise<void>;
}

export interface PollDeps {
	engine: AlertEngine;
	platform: DrivePlatform;
	directory: AssetDirectory;
	state: AlertState;
	config: BotConfig;
	logger: BotLogger;
	/** The shared request budget, when the platform client spends from one. */
	budget?: RequestBudget;
	/** Posts a notice to the default channel (the lag warning). */
	notify?: (text: string) => void;
	/** Other background reads from the same budget (connectivity, B70): their rate, planned around, and their pace in words. */
	alongside?: () => { perSecond: number; text: string };
}

/** Drives and motors: the API refuses PowerTrains, whose drive and motor are listed too. */
const readable = (a: AssetListItem) => a.assetType !== 'PowerTrain';

/**
 * Alerts by REST polling (E14 per asset, E19 for CBM), within the request budget (B46). Each
 * asset keeps the time up to which its events were read; a failed read keeps it, so the asset is
 * read again from there. The persisted watermark is the oldest of these, so a restart resumes
 * from what every asset had been read up to. The first pass after a start reads every asset and
 * posts what happened before the start as one catch-up message per channel (B47).
 */
export async function startPollSource(deps: PollDeps): Promise<PollSource> {
	const { engine, platform, directory, state, config, logger, budget } = deps;
	const intervalMs = config.source.pollIntervalSeconds * 1000;
	const aside = new SetAside(logger);
	const readThrough = new Map<number, number>();
	const busyUntil = new Map<number, number>();
	const cbmReadAt = new Map<number, number>();
	const startedAt = Date.now();
	// Event times are whole seconds: one in the start's own second may be after the start.
	const startSecond = Math.floor(startedAt / 1000) * 1000;
	const mark = await state.watermarks.get(EVENTS_WATERMARK);
	const catchUpBack = config.source.catchUpLookbackMinutes;
	// Where an asset never read in this run starts: the last run's watermark, else the lookback.
	const base = Math.max(
		startedAt - MAX_BACK_MS,
		mark ? Date.parse(mark) : startedAt - config.source.initialLookbackMinutes * 60_000,
		catchUpBack === undefined ? -Infinity : startedAt - catchUpBack * 60_000,
	);
	let firstPassDone = false;
	/** Whether this run's first round over the drives' CBM is under way (B47). */
	let firstCbmRound = config.cbm.enabled;
	let plan: PassPlan | undefined;
	let lagWarned = false;
	/** Requests per second the last large pass achieved (0: not measured yet). */
	let achieved = 0;
	let running: Promise<void> | undefined;
	let closed = false;

	const readThroughOf = (id: number) => readThrough.get(id) ?? base;

	/** Ids of assets with an open alert, and from when each must be read so its close is seen. */
	async function openSince(): Promise<Map<number, number>> {
		const since = new Map<number, number>();
		for (const alert of await state.alerts.openAlerts()) {
			const t = Date.parse(alert.eventTime);
			since.set(alert.asset.id, Math.min(since.get(alert.asset.id) ?? t, t));
		}
		return since;
	}

	function noteBusy(assetId: number, event: PlatformEvent, now: number): void {
		const t = Date.parse(event.eventDateTime ?? '');
		if (meetsSeverity(event.eventType, config.alerts.minSeverity) && t > now - BUSY_FOR_MS) {
			busyUntil.set(assetId, Math.max(busyUntil.get(assetId) ?? 0, t + BUSY_FOR_MS));
		}
	}

	/** Runs `work` over the ids with a bounded number of waiting workers (the budget paces them). */
	async function each(ids: readonly number[], work: (id: number) => Promise<void>): Promise<void> {
		let next = 0;
		const workers = Math.min(ids.length, budget ? WORKERS : config.source.concurrency);
		await Promise.all(
			Array.from({ length: workers }, async () => {
				while (next < ids.length && !closed) await work(ids[next++]);
			}),
		);
	}

	async function readEvents(
		ids: readonly number[],
		open: Map<number, number>,
		collect?: Map<string, { alert: AlertRecord; channels: string[] }>,
	): Promise<number> {
		const now = Date.now();
		let failures = 0;
		await each(ids, async (id) => {
			const start = Math.max(
				now - MAX_BACK_MS,
				Math.min(readThroughOf(id) - OVERLAP_MS, open.get(id) ?? Infinity),
			);
			try {
				const events = await platform.ranges.events({
					assetId: id,
					startTime: new Date(start),
					endTime: new Date(now),
				});
				aside.answered('events', id);
				events.sort((a, b) => String(a.eventDateTime).localeCompare(String(b.eventDateTime)));
				for (const event of events) {
					noteBusy(id, event, now);
					// Before the start, and new: part of the catch-up, not a message of its own.
					if (collect && Date.parse(event.eventDateTime ?? '') < startSecond) {
						const fresh = await engine.newAlert(id, event);
						if (fresh) {
							collect.set(fresh.alert.key, fresh);
							continue;
						}
					}
					await engine.observeEvent(id, event);
				}
				readThrough.set(id, now);
			} catch (error) {
				if (aside.consider('events', id, now, error)) return;
				failures++;
				logger.warn(
					`poll: events of asset ${id} not read (${errorText(error)}); read again next pass`,
				);
			}
		});
		return failures;
	}

	async function readCbm(ids: readonly number[]): Promise<void> {
		const now = Date.now();
		await each(ids, async (id) => {
			try {
				let units = await platform.assetData.getCbm({ assetId: id });
				aside.answered('cbm', id);
				cbmReadAt.set(id, now);
				if (firstCbmRound) {
					// Until every drive was read once, units first seen Yellow or Red wait for one digest.
					const staged = await engine.recordCbmFirstSightings(id, units);
					units = units.filter((u) => !staged.includes(u.deviceUnitType));
				}
				if (units.length > 0) await engine.observeCbm(id, units);
			} catch (error) {
				if (aside.consider('cbm', id, now, error)) cbmReadAt.set(id, now);
				else logger.warn(`poll: CBM of asset ${id} not read (${errorText(error)})`);
			}
		});
	}

	/**
	 * The time since which every drive's CBM was read in this run (set-aside drives aside), or
	 * undefined while some drive was not read yet. That is the persisted CBM watermark: after a
	 * restart a drive not yet read is due a CBM interval after it. Written after each pass, it
	 * made every drive not yet read wait a whole interval after the latest pass, so the first
	 * round stopped after its first slice (B47).
	 */
	function cbmRoundSince(drives: readonly AssetListItem[], now: number): number | undefined {
		let oldest = now;
		for (const a of drives) {
			if (aside.has('cbm', a.id, now)) continue;
			const at = cbmReadAt.get(a.id);
			if (at === undefined) return undefined;
			oldest = Math.min(oldest, at);
		}
		return oldest;
	}

	/** Drives whose CBM is due; spread over the CBM interval rather than read in one burst. */
	async function cbmDue(
		drives: readonly AssetListItem[],
		now: number,
		all: boolean,
	): Promise<number[]> {
		if (!config.cbm.enabled) return [];
		const cbmMs = config.cbm.pollIntervalMinutes * 60_000;
		const lastRun = Date.parse((await state.watermarks.get(CBM_WATERMARK)) ?? '') || 0;
		const due = drives.filter(
			(a) => !aside.has('cbm', a.id, now) && now - (cbmReadAt.get(a.id) ?? lastRun) >= cbmMs,
		);
		if (all) return drives.filter((a) => !aside.has('cbm', a.id, now)).map((a) => a.id);
		const perPass = Math.ceil((drives.length * intervalMs) / cbmMs);
		return due.slice(0, perPass).map((a) => a.id);
	}

	/** The oldest read-through of the assets (now when there are none). */
	function oldestRead(ids: Iterable<number>, now: number): number {
		let oldest = now;
		for (const id of ids) oldest = Math.min(oldest, readThroughOf(id));
		return oldest;
	}
	const lagOf = (ids: Iterable<number>, now: number) =>
		Math.max(0, Math.round((now - oldestRead(ids, now)) / 1000));

	function readableIds(now: number): number[] {
		return directory
			.all()
			.filter((a) => readable(a) && !aside.has('events', a.id, now))
			.map((a) => a.id);
	}

	function status(): SourceStatus {
		const now = Date.now();
		const ids = readableIds(now);
		const busy = ids.filter((id) => (busyUntil.get(id) ?? 0) > now);
		return {
			kind: 'poll',
			lagSeconds: lagOf(ids, now),
			busyLagSeconds: lagOf(busy, now),
			lagThresholdSeconds: config.source.lagWarningSeconds,
			plan: plan && describePlan(plan),
			connectivity: deps.alongside?.().text,
			assets: ids.length,
			setAside: { events: aside.count('events'), cbm: aside.count('cbm') },
		};
	}

	function checkLag(): void {
		const lag = status().lagSeconds;
		const threshold = config.source.lagWarningSeconds;
		if (lag > threshold && !lagWarned) {
			lagWarned = true;
			const text = `polling is ${Math.round(lag / 60)} min behind (threshold ${Math.round(threshold / 60)} min): a fault can reach Slack that late. ${plan ? `Plan: ${describePlan(plan)}. ` : ''}Raise source.maxRequestsPerSecond if the platform allows, or use push.`;
			logger.warn(`poll: ${text}`);
			deps.notify?.(text);
		} else if (lag <= threshold && lagWarned) {
			lagWarned = false;
			logger.info(`poll: caught up, lag ${lag} s`);
		}
	}

	async function pass(full: boolean, withCbm: boolean): Promise<void> {
		try {
			const passDone = metrics.pollPassStarted();
			await directory.ensure();
			const now = Date.now();
			const fleet = directory.all();
			const ids = new Set(fleet.map((a) => a.id));
			for (const map of [readThrough, busyUntil, cbmReadAt])
				for (const id of map.keys()) if (!ids.has(id)) map.delete(id);
			aside.retain(ids);
			const open = await openSince();
			const candidates = readableIds(now);
			const drives = fleet.filter((a) => a.assetType === 'Drive');
			const cbm = await cbmDue(drives, now, withCbm);
			let read: readonly number[] = candidates;
			if (!full && firstPassDone) {
				const busy: number[] = [];
				const quiet: Array<{ id: number; readThrough: number }> = [];
				for (const id of candidates) {
					if (open.has(id) || (busyUntil.get(id) ?? 0) > now) busy.push(id);
					else quiet.push({ id, readThrough: readThroughOf(id) });
				}
				// What the budget allows, or what the last pass achieved when that was less (latency, CPU).
				// Connectivity's reads come out of the same share (B70), with at least a tenth left for events.
				const share =
					(budget?.status().currentPerSecond ?? config.source.maxRequestsPerSecond) * POLL_SHARE;
				const allowed = Math.max(share * 0.1, share - (deps.alongside?.().perSecond ?? 0));
				const perSecond = achieved > 0 ? Math.min(allowed, achieved) : allowed;
				const next = planPass({
					intervalMs,
					perSecond,
					busy,
					quiet,
					maxQuietLagMs: config.source.maxQuietLagMinutes * 60_000,
					extraRequests: cbm.length,
					now,
				});
				// Logged when what it promises changes (not for every new busy asset).
				const changed =
					!plan ||
					plan.fits !== next.fits ||
					Math.abs(plan.quietLagMs - next.quietLagMs) >= 60_000 ||
					Math.abs(plan.busyLagMs - next.busyLagMs) >= 10_000;
				plan = next;
				if (changed) logger.info(`poll: plan: ${describePlan(plan)}`);
				read = plan.read;
			}
			const collect = firstPassDone
				? undefined
				: new Map<string, { alert: AlertRecord; channels: string[] }>();
			const failures = await readEvents(read, open, collect);
			if (collect && !closed) {
				const since = new Date(base).toISOString();
				const recorded = await engine.commitCatchUp([...collect.values()], since, CATCH_UP_LISTED);
				if (recorded > 0) {
					const assets = new Set([...collect.values()].map((c) => c.alert.asset.id)).size;
					logger.info(
						`poll: ${recorded} alerts on ${assets} assets from before the start (since ${since}) posted as one catch-up message per channel`,
					);
				}
				// A failed read is read again next pass, still as part of the catch-up.
				if (failures === 0) firstPassDone = true;
			}
			if (cbm.length > 0) {
				await readCbm(cbm);
				const since = cbmRoundSince(drives, now);
				if (since !== undefined)
					await state.watermarks.set(CBM_WATERMARK, new Date(since).toISOString());
			}
			if (
				firstCbmRound &&
				!closed &&
				drives.every((a) => cbmReadAt.has(a.id) || aside.has('cbm', a.id, now))
			) {
				const recorded = await engine.commitCbmCatchUp(new Date(now).toISOString().slice(0, 10));
				if (recorded > 0)
					logger.info(
						`poll: ${recorded} CBM units found Yellow or Red in the first round posted as one CBM digest per channel`,
					);
				firstCbmRound = false;
			}
			if (!closed) {
				await state.watermarks.set(
					EVENTS_WATERMARK,
					new Date(oldestRead(candidates, now)).toISOString(),
				);
				const tookMs = Date.now() - now;
				if (read.length + cbm.length >= 100 && tookMs > 0)
					achieved = ((read.length + cbm.length) / tookMs) * 1000;
				const after = status();
				// One line per pass: what was read and how late alerts can be (the figures /readyz shows).
				logger.info(
					`poll: pass read ${read.length} of ${candidates.length} assets in ${((Date.now() - now) / 1000).toFixed(1)} s${failures ? `, ${failures} failed` : ''}; lag ${after.lagSeconds} s, busy assets ${after.busyLagSeconds} s`,
				);
				checkLag();
				passDone();
			}
		} catch (error) {
			logger.error(
				`poll: pass failed (${errorText(error)}); next pass in ${config.source.pollIntervalSeconds} s`,
			);
		}
	}

	/** A pass that starts after the call (one already running is waited for first). */
	const queue = async (full: boolean, withCbm: boolean): Promise<void> => {
		while (running) await running;
		running = pass(full, withCbm).finally(() => (running = undefined));
		return running;
	};

	// The next pass starts an interval after the last one started, or at once when it took longer
	// (never two at a time): the plan's period is then the pass's length, as it says.
	let timer: NodeJS.Timeout | undefined;
	const loop = async (): Promise<void> => {
		const began = Date.now();
		await queue(false, false);
		if (!closed)
			timer = setTimeout(() => void loop(), Math.max(0, intervalMs - (Date.now() - began)));
	};
	void loop();
	return {
		pollOnce: (withCbm = false) => queue(true, withCbm),
		planned: () => queue(false, false),
		status,
		lagSeconds: () => status().lagSeconds,
		async close() {
			closed = true;
			clearTimeout(timer);
			await running;
		},
	};
}
