/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { setTimeout as sleep } from 'node:timers/promises';
import { forEachLimit } from '../../../shared/core/limiter';
import { drivesAndMotors } from '../../../shared/fleet';
import type { BotConfig } from '../../config/schema';
import { type BotLogger, errorText } from '../../log';
import type { RequestBudget } from '../../platform/budget';
import type { AssetDirectory } from '../../platform/directory';
import type { DrivePlatform } from '../../platform/types';
import type { ConnectivityTracker } from '../../features/connectivity/tracker';

/** Polling: an asset whose latest data is older than this (or minOfflineMinutes, if longer) is offline. */
export const STALE_FLOOR_MINUTES = 5;
/** Reads in flight at once; at the share's rate one or two are, this only bounds a stalled platform. */
const IN_FLIGHT = 8;

/** How connectivity spends its share of the request budget (assumption B70). */
export interface ConnectivityPace {
	assets: number;
	/** Requests per second at most (the share of the budget): E8 reads are spaced by its inverse. */
	capPerSecond: number;
	/** Requests per second on average over a round (what the fault polling plans around). */
	perSecond: number;
	/** Time between two reads of one asset: the configured interval, or longer when the share cannot cover the fleet in it. */
	roundMs: number;
	/** True when the round is longer than `connectivity.pollIntervalMinutes`. */
	stretched: boolean;
	/** Worst case from an asset's last data to the bot seeing it offline: the stale time plus a round. */
	detectMs: number;
}

export function connectivityPace(input: {
	assets: number;
	budgetPerSecond: number;
	share: number;
	intervalMs: number;
	staleMs: number;
}): ConnectivityPace {
	const capPerSecond = input.budgetPerSecond * input.share;
	const roundMs = Math.max(input.intervalMs, Math.ceil((input.assets / capPerSecond) * 1000));
	return {
		assets: input.assets,
		capPerSecond,
		perSecond: (input.assets / roundMs) * 1000,
		roundMs,
		stretched: roundMs > input.intervalMs,
		detectMs: input.staleMs + roundMs,
	};
}

/** For the log and `/drive health`: how often each asset is read and how late an outage can be seen. */
export function describePace(pace: ConnectivityPace, share: number): string {
	const minutes = (ms: number) => `${Math.ceil(ms / 60_000)} min`;
	return (
		`connectivity reads ${pace.assets} assets every ${minutes(pace.roundMs)} (${pace.perSecond.toFixed(1)} req/s, at most ${Math.round(share * 100)}% of the budget)` +
		`${pace.stretched ? ', longer than connectivity.pollIntervalMinutes because the fleet needs it' : ''}; an offline asset is seen at most ${minutes(pace.detectMs)} after its last data`
	);
}

export interface ConnectivityPoll {
	/** One pass over every drive and motor at once (E8's latest-data time), unpaced; resolves when it is done. */
	pollOnce(): Promise<void>;
	/** The pace of the running rounds. */
	pace(): ConnectivityPace;
	/** The pace in words (log line, `/drive health`). */
	describe(): string;
	close(): Promise<void>;
}

/**
 * Connectivity without the push channel (assumptions B32, B70): E8's `LatestDataReceived` of every
 * drive and motor, in rounds of `connectivity.pollIntervalMinutes` or longer, the reads spaced so
 * they never take more than `connectivity.maxBudgetShare` of the request budget (fault polling
 * plans around them). A read that fails changes nothing, so an asset the platform cannot answer
 * for turns "unknown" after two rounds, never "offline".
 */
export function startConnectivityPoll(deps: {
	tracker: ConnectivityTracker;
	platform: DrivePlatform;
	directory: AssetDirectory;
	config: BotConfig;
	logger: BotLogger;
	now: () => number;
	budget?: RequestBudget;
}): ConnectivityPoll {
	const { tracker, platform, directory, config, logger, now } = deps;
	const staleMs = Math.max(config.connectivity.minOfflineMinutes, STALE_FLOOR_MINUTES) * 60_000;
	const share = config.connectivity.maxBudgetShare;
	const intervalMs = config.connectivity.pollIntervalMinutes * 60_000;
	const stop = new AbortController();
	let running: Promise<void> | undefined;

	const paceFor = (assets: number) =>
		connectivityPace({
			assets,
			budgetPerSecond: deps.budget?.ratePerSecond ?? config.source.maxRequestsPerSecond,
			share,
			intervalMs,
			staleMs,
		});
	let pace = paceFor(drivesAndMotors(directory.all()).length);

	async function readOne(assetId: number, at: string): Promise<boolean> {
		try {
			const detail = await platform.assets.get({ id: assetId });
			const latest = detail.latestDataReceived ? Date.parse(detail.latestDataReceived) : Number.NaN;
			if (Number.isNaN(latest)) return true; // never sent data: unknown, not offline
			const online = Date.parse(at) - latest < staleMs;
			await tracker.observe(
				assetId,
				online,
				at,
				online ? undefined : new Date(latest).toISOString(),
				detail,
			);
			return true;
		} catch (error) {
			logger.debug(`connectivity: asset ${assetId} not read (${errorText(error)})`);
			return false;
		}
	}

	/** One round; `spacingMs` apart (0: as fast as the limiter lets, for pollOnce). */
	async function round(spacingMs: number): Promise<void> {
		try {
			await directory.ensure();
			// Ids only: a round lasts minutes (16 at 10,000 assets), longer than the directory between
			// refreshes, and holding its asset objects kept the previous directory alive beside the new.
			const ids = drivesAndMotors(directory.all()).map((a) => a.id);
			const began = Date.now();
			let taken = 0;
			let failed = 0;
			// Workers over the list, each read at its own slot of the round: nothing is made per asset
			// before its turn (a task per asset made up front held 10,000 closures for the round).
			await forEachLimit(
				ids,
				spacingMs > 0 ? IN_FLIGHT : config.source.concurrency,
				async (id) => {
					const wait = began + taken++ * spacingMs - Date.now();
					if (wait > 0)
						await sleep(wait, undefined, { signal: stop.signal }).catch(() => undefined);
					if (stop.signal.aborted) return;
					if (!(await readOne(id, new Date(now()).toISOString()))) failed++;
				},
				() => stop.signal.aborted,
			);
			if (failed > 0)
				logger.warn(
					`connectivity: ${failed} of ${ids.length} assets could not be read this round; they turn "unknown" if it lasts`,
				);
			await tracker.flush();
		} catch (error) {
			logger.error(`connectivity: round failed (${errorText(error)})`);
		}
	}

	// A forced pass (tests, a refresh) does not wait for the paced round, which can last minutes.
	const pollOnce = async (): Promise<void> => {
		while (running) await running;
		running = round(0).finally(() => (running = undefined));
		return running;
	};

	// Rounds start a round's length apart; each one's reads are spaced at the share's rate.
	const loop = async (): Promise<void> => {
		while (!stop.signal.aborted) {
			await directory.ensure().catch(() => undefined);
			const next = paceFor(drivesAndMotors(directory.all()).length);
			if (next.roundMs !== pace.roundMs || next.assets !== pace.assets || !started)
				logger.info(`connectivity: ${describePace(next, share)}`);
			pace = next;
			started = true;
			const began = Date.now();
			await round(1000 / pace.capPerSecond);
			await sleep(Math.max(0, began + pace.roundMs - Date.now()), undefined, {
				signal: stop.signal,
			}).catch(() => undefined);
		}
	};
	let started = false;
	const looping = loop();
	return {
		pollOnce,
		pace: () => pace,
		describe: () => describePace(pace, share),
		async close() {
			stop.abort();
			await running;
			await looping;
		},
	};
}
