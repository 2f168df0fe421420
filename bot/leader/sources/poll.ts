/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { isPowerTrain } from '../../../shared/fleet';
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

/**
 * Alerts by REST polling (E14 per asset, E19 for CBM), within the request budget (B46). Each
 * asset keeps the time up to which its events were read; a failed read keeps it, so the asset is
 * read again from there. The persisted watermark is the oldest of these, so a restart resumes
 * from what every asset had been read up to. The first pass after a start reads every asset and
 * posts what happened before the start as one catch-up message per channel (B47).
 */
export async function startPollSource(deps: PollDeps): Promise<PollSource> {
	const startedAt = Date.now();
	const mark = await deps.state.watermarks.get(EVENTS_WATERMARK);
	const catchUpBack = deps.config.source.catchUpLookbackMinutes;
	// Where an asset never read in this run starts: the last run's watermark, else the lookback.
	const base = Math.max(
		startedAt - MAX_BACK_MS,
		mark ? Date.parse(mark) : startedAt - deps.config.source.initialLookbackMinutes * 60_000,
		catchUpBack === undefined ? -Infinity : startedAt - catchUpBack * 60_000,
	);
	const source = new Polling(deps, startedAt, base);
	void source.loop();
	return source;
}

/** One asset's alert of before the start, collected for the catch-up. */
type Collected = Map<string, { alert: AlertRecord; channels: string[] }>;

class Polling implements PollSource {
	private readonly intervalMs: number;
	private readonly aside: SetAside;
	private readonly readThrough = new Map<number, number>();
	private readonly busyUntil = new Map<number, number>();
	private readonly cbmReadAt = new Map<number, number>();
	/** Event times are whole seconds: one in the start's own second may be after the start. */
	private readonly startSecond: number;
	private firstPassDone = false;
	/** Whether this run's first round over the drives' CBM is under way (B47). */
	private firstCbmRound: boolean;
	private plan: PassPlan | undefined;
	private lagWarned = false;
	/** Requests per second the last large pass achieved (0: not measured yet). */
	private achieved = 0;
	private running: Promise<void> | undefined;
	private closed = false;
	private timer: NodeJS.Timeout | undefined;

	constructor(
		private readonly deps: PollDeps,
		startedAt: number,
		/** Where an asset never read in this run starts. */
		private readonly base: number,
	) {
		this.intervalMs = deps.config.source.pollIntervalSeconds * 1000;
		this.aside = new SetAside(deps.logger);
		this.startSecond = Math.floor(startedAt / 1000) * 1000;
		this.firstCbmRound = deps.config.cbm.enabled;
	}

	pollOnce(withCbm = false): Promise<void> {
		return this.queue(true, withCbm);
	}

	planned(): Promise<void> {
		return this.queue(false, false);
	}

	async close(): Promise<void> {
		this.closed = true;
		clearTimeout(this.timer);
		await this.running;
	}

	/**
	 * The next pass starts an interval after the last one started, or at once when it took longer (never two at a
	 * time): the plan's period is then the pass's length, as it says.
	 */
	async loop(): Promise<void> {
		const began = Date.now();
		await this.planned();
		if (!this.closed)
			this.timer = setTimeout(
				() => void this.loop(),
				Math.max(0, this.intervalMs - (Date.now() - began)),
			);
	}

	/** A pass that starts after the call (one already running is waited for first). */
	private async queue(full: boolean, withCbm: boolean): Promise<void> {
		while (this.running) await this.running;
		this.running = this.pass(full, withCbm).finally(() => (this.running = undefined));
		return this.running;
	}

	private readThroughOf(id: number): number {
		return this.readThrough.get(id) ?? this.base;
	}

	/** Ids of assets with an open alert, and from when each must be read so its close is seen. */
	private async openSince(): Promise<Map<number, number>> {
		const since = new Map<number, number>();
		for (const alert of await this.deps.state.alerts.openAlerts()) {
			const t = Date.parse(alert.eventTime);
			since.set(alert.asset.id, Math.min(since.get(alert.asset.id) ?? t, t));
		}
		return since;
	}

	private noteBusy(assetId: number, event: PlatformEvent, now: number): void {
		const t = Date.parse(event.eventDateTime ?? '');
		if (
			meetsSeverity(event.eventType, this.deps.config.alerts.minSeverity) &&
			t > now - BUSY_FOR_MS
		) {
			this.busyUntil.set(assetId, Math.max(this.busyUntil.get(assetId) ?? 0, t + BUSY_FOR_MS));
		}
	}

	/** Runs `work` over the ids with a bounded number of waiting workers (the budget paces them). */
	private async each(ids: readonly number[], work: (id: number) => Promise<void>): Promise<void> {
		let next = 0;
		const workers = Math.min(
			ids.length,
			this.deps.budget ? WORKERS : this.deps.config.source.concurrency,
		);
		await Promise.all(
			Array.from({ length: workers }, async () => {
				while (next < ids.length && !this.closed) await work(ids[next++]);
			}),
		);
	}

	private async readEvents(
		ids: readonly number[],
		open: Map<number, number>,
		collect?: Collected,
	): Promise<number> {
		const { platform, engine, logger } = this.deps;
		const now = Date.now();
		let failures = 0;
		await this.each(ids, async (id) => {
			const start = Math.max(
				now - MAX_BACK_MS,
				Math.min(this.readThroughOf(id) - OVERLAP_MS, open.get(id) ?? Infinity),
			);
			try {
				const events = await platform.ranges.events({
					assetId: id,
					startTime: new Date(start),
					endTime: new Date(now),
				});
				this.aside.answered('events', id);
				events.sort((a, b) => String(a.eventDateTime).localeCompare(String(b.eventDateTime)));
				for (const event of events) {
					this.noteBusy(id, event, now);
					// Before the start, and new: part of the catch-up, not a message of its own.
					if (collect && Date.parse(event.eventDateTime ?? '') < this.startSecond) {
						const fresh = await engine.newAlert(id, event);
						if (fresh) {
							collect.set(fresh.alert.key, fresh);
							continue;
						}
					}
					await engine.observeEvent(id, event);
				}
				this.readThrough.set(id, now);
			} catch (error) {
				if (this.aside.consider('events', id, now, error)) return;
				failures++;
				logger.warn(
					`poll: events of asset ${id} not read (${errorText(error)}); read again next pass`,
				);
			}
		});
		return failures;
	}

	private async readCbm(ids: readonly number[]): Promise<void> {
		const { platform, engine, logger } = this.deps;
		const now = Date.now();
		await this.each(ids, async (id) => {
			try {
				let units = await platform.assetData.getCbm({ assetId: id });
				this.aside.answered('cbm', id);
				this.cbmReadAt.set(id, now);
				if (this.firstCbmRound) {
					// Until every drive was read once, units first seen Yellow or Red wait for one digest.
					const staged = await engine.recordCbmFirstSightings(id, units);
					units = units.filter((u) => !staged.includes(u.deviceUnitType));
				}
				if (units.length > 0) await engine.observeCbm(id, units);
			} catch (error) {
				if (this.aside.consider('cbm', id, now, error)) this.cbmReadAt.set(id, now);
				else logger.warn(`poll: CBM of asset ${id} not read (${errorText(error)})`);
			}
		});
	}

	/**
	 * The time since which every drive's CBM was read in this run (set-aside drives aside), or
	 * undefined while some drive was not read yet. That is the persisted CBM watermark: after a
	 * restart a drive not yet read is due a CBM interval after it. It is written only once every
	 * drive was read: written after each pass, it would make every drive not yet read wait a whole
	 * interval after the latest pass, and the first round would stop after its first slice (B47).
	 */
	private cbmRoundSince(drives: readonly AssetListItem[], now: number): number | undefined {
		let oldest = now;
		for (const a of drives) {
			if (this.aside.has('cbm', a.id, now)) continue;
			const at = this.cbmReadAt.get(a.id);
			if (at === undefined) return undefined;
			oldest = Math.min(oldest, at);
		}
		return oldest;
	}

	/** Drives whose CBM is due; spread over the CBM interval rather than read in one burst. */
	private async cbmDue(
		drives: readonly AssetListItem[],
		now: number,
		all: boolean,
	): Promise<number[]> {
		const { config, state } = this.deps;
		if (!config.cbm.enabled) return [];
		const cbmMs = config.cbm.pollIntervalMinutes * 60_000;
		const lastRun = Date.parse((await state.watermarks.get(CBM_WATERMARK)) ?? '') || 0;
		const due = drives.filter(
			(a) =>
				!this.aside.has('cbm', a.id, now) && now - (this.cbmReadAt.get(a.id) ?? lastRun) >= cbmMs,
		);
		if (all) return drives.filter((a) => !this.aside.has('cbm', a.id, now)).map((a) => a.id);
		const perPass = Math.ceil((drives.length * this.intervalMs) / cbmMs);
		return due.slice(0, perPass).map((a) => a.id);
	}

	/** The oldest read-through of the assets (now when there are none). */
	private oldestRead(ids: Iterable<number>, now: number): number {
		let oldest = now;
		for (const id of ids) oldest = Math.min(oldest, this.readThroughOf(id));
		return oldest;
	}

	private lagOf(ids: Iterable<number>, now: number): number {
		return Math.max(0, Math.round((now - this.oldestRead(ids, now)) / 1000));
	}

	/** Drives and motors: the API refuses PowerTrains, whose drive and motor are listed too. */
	private readableIds(now: number): number[] {
		return this.deps.directory
			.all()
			.filter((a) => !isPowerTrain(a) && !this.aside.has('events', a.id, now))
			.map((a) => a.id);
	}

	status(): SourceStatus {
		const now = Date.now();
		const ids = this.readableIds(now);
		const busy = ids.filter((id) => (this.busyUntil.get(id) ?? 0) > now);
		return {
			kind: 'poll',
			lagSeconds: this.lagOf(ids, now),
			busyLagSeconds: this.lagOf(busy, now),
			lagThresholdSeconds: this.deps.config.source.lagWarningSeconds,
			plan: this.plan && describePlan(this.plan),
			connectivity: this.deps.alongside?.().text,
			assets: ids.length,
			setAside: { events: this.aside.count('events'), cbm: this.aside.count('cbm') },
		};
	}

	private checkLag(): void {
		const { config, logger } = this.deps;
		const lag = this.status().lagSeconds;
		const threshold = config.source.lagWarningSeconds;
		if (lag > threshold && !this.lagWarned) {
			this.lagWarned = true;
			const text = `polling is ${Math.round(lag / 60)} min behind (threshold ${Math.round(threshold / 60)} min): a fault can reach Slack that late. ${this.plan ? `Plan: ${describePlan(this.plan)}. ` : ''}Raise source.maxRequestsPerSecond if the platform allows, or use push.`;
			logger.warn(`poll: ${text}`);
			this.deps.notify?.(text);
		} else if (lag <= threshold && this.lagWarned) {
			this.lagWarned = false;
			logger.info(`poll: caught up, lag ${lag} s`);
		}
	}

	/**
	 * The assets a planned pass reads: the busy ones, and the quiet ones whose turn it is within what the budget
	 * allows (or what the last pass achieved, when that was less).
	 */
	private planRead(
		candidates: number[],
		open: Map<number, number>,
		cbm: number,
		now: number,
	): number[] {
		const { config, budget, logger } = this.deps;
		const busy: number[] = [];
		const quiet: Array<{ id: number; readThrough: number }> = [];
		for (const id of candidates) {
			if (open.has(id) || (this.busyUntil.get(id) ?? 0) > now) busy.push(id);
			else quiet.push({ id, readThrough: this.readThroughOf(id) });
		}
		// What the budget allows, or what the last pass achieved when that was less (latency, CPU).
		// Connectivity's reads come out of the same share (B70), with at least a tenth left for events.
		const share =
			(budget?.status().currentPerSecond ?? config.source.maxRequestsPerSecond) * POLL_SHARE;
		const allowed = Math.max(share * 0.1, share - (this.deps.alongside?.().perSecond ?? 0));
		const perSecond = this.achieved > 0 ? Math.min(allowed, this.achieved) : allowed;
		const next = planPass({
			intervalMs: this.intervalMs,
			perSecond,
			busy,
			quiet,
			maxQuietLagMs: config.source.maxQuietLagMinutes * 60_000,
			extraRequests: cbm,
			now,
		});
		// Logged when what it promises changes (not for every new busy asset).
		const plan = this.plan;
		const changed =
			!plan ||
			plan.fits !== next.fits ||
			Math.abs(plan.quietLagMs - next.quietLagMs) >= 60_000 ||
			Math.abs(plan.busyLagMs - next.busyLagMs) >= 10_000;
		this.plan = next;
		if (changed) logger.info(`poll: plan: ${describePlan(next)}`);
		return next.read;
	}

	/** The first pass's catch-up: what happened before the start, as one message per channel (B47). */
	private async commitCatchUp(collect: Collected, failures: number): Promise<void> {
		const since = new Date(this.base).toISOString();
		const recorded = await this.deps.engine.commitCatchUp(
			[...collect.values()],
			since,
			CATCH_UP_LISTED,
		);
		if (recorded > 0) {
			const assets = new Set([...collect.values()].map((c) => c.alert.asset.id)).size;
			this.deps.logger.info(
				`poll: ${recorded} alerts on ${assets} assets from before the start (since ${since}) posted as one catch-up message per channel`,
			);
		}
		// A failed read is read again next pass, still as part of the catch-up.
		if (failures === 0) this.firstPassDone = true;
	}

	/** CBM of the drives due, its watermark, and the end of the first CBM round (one digest per channel). */
	private async cbmStep(drives: AssetListItem[], cbm: number[], now: number): Promise<void> {
		if (cbm.length > 0) {
			await this.readCbm(cbm);
			const since = this.cbmRoundSince(drives, now);
			if (since !== undefined)
				await this.deps.state.watermarks.set(CBM_WATERMARK, new Date(since).toISOString());
		}
		if (
			this.firstCbmRound &&
			!this.closed &&
			drives.every((a) => this.cbmReadAt.has(a.id) || this.aside.has('cbm', a.id, now))
		) {
			const recorded = await this.deps.engine.commitCbmCatchUp(
				new Date(now).toISOString().slice(0, 10),
			);
			if (recorded > 0)
				this.deps.logger.info(
					`poll: ${recorded} CBM units found Yellow or Red in the first round posted as one CBM digest per channel`,
				);
			this.firstCbmRound = false;
		}
	}

	private async pass(full: boolean, withCbm: boolean): Promise<void> {
		const { directory, state, config, logger } = this.deps;
		try {
			const passDone = metrics.pollPassStarted();
			await directory.ensure();
			const now = Date.now();
			const fleet = directory.all();
			const ids = new Set(fleet.map((a) => a.id));
			for (const map of [this.readThrough, this.busyUntil, this.cbmReadAt])
				for (const id of map.keys()) if (!ids.has(id)) map.delete(id);
			this.aside.retain(ids);
			const open = await this.openSince();
			const candidates = this.readableIds(now);
			const drives = fleet.filter((a) => a.assetType === 'Drive');
			const cbm = await this.cbmDue(drives, now, withCbm);
			const read =
				!full && this.firstPassDone ? this.planRead(candidates, open, cbm.length, now) : candidates;
			const collect: Collected | undefined = this.firstPassDone ? undefined : new Map();
			const failures = await this.readEvents(read, open, collect);
			if (collect && !this.closed) await this.commitCatchUp(collect, failures);
			await this.cbmStep(drives, cbm, now);
			if (this.closed) return;
			await state.watermarks.set(
				EVENTS_WATERMARK,
				new Date(this.oldestRead(candidates, now)).toISOString(),
			);
			const tookMs = Date.now() - now;
			if (read.length + cbm.length >= 100 && tookMs > 0)
				this.achieved = ((read.length + cbm.length) / tookMs) * 1000;
			const after = this.status();
			// One line per pass: what was read and how late alerts can be (the figures /readyz shows).
			logger.info(
				`poll: pass read ${read.length} of ${candidates.length} assets in ${((Date.now() - now) / 1000).toFixed(1)} s${failures ? `, ${failures} failed` : ''}; lag ${after.lagSeconds} s, busy assets ${after.busyLagSeconds} s`,
			);
			this.checkLag();
			passDone();
		} catch (error) {
			logger.error(
				`poll: pass failed (${errorText(error)}); next pass in ${config.source.pollIntervalSeconds} s`,
			);
		}
	}
}
