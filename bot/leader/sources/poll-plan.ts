/**
 * How one polling pass spends the request budget (assumption B46). Busy assets (an open alert,
 * or an alerting event seen in the last day) are read every pass; quiet ones take turns, the
 * longest unread first, as many per pass as the budget leaves, but never so few that a full
 * round takes longer than `maxQuietLagMs`. The plan states the worst case it implies, so the
 * lag the bot reports is the lag it really has, not the interval it was configured with.
 */
export interface PlanInput {
	/** Seconds between passes (`source.pollIntervalSeconds`). */
	intervalMs: number;
	/** Requests per second the pass may count on (the budget minus room for commands). */
	perSecond: number;
	busy: readonly number[];
	/** Quiet assets with the end of their last complete read (ms), any order. */
	quiet: ReadonlyArray<{ id: number; readThrough: number }>;
	/** Every quiet asset is read at least this often, whatever the budget (`source.maxQuietLagMinutes`). */
	maxQuietLagMs: number;
	/** Other requests this pass makes (CBM reads due). */
	extraRequests?: number;
	/**
	 * The time the plan is made (ms). Given, the stated quiet worst case also covers assets read
	 * long ago (the first pass's start, a backlog): each is as late as its read-through plus the
	 * passes until its turn, which can exceed a steady round.
	 */
	now?: number;
}

export interface PassPlan {
	/** Asset ids to read now: the busy ones, then the quiet ones whose turn it is. */
	read: number[];
	busy: number;
	quiet: number;
	quietPerPass: number;
	/** Expected length of the pass at the budget (ms). */
	passMs: number;
	/** Time between two passes: the interval, or the pass's length when it is longer. */
	periodMs: number;
	/** Worst case for an event on a busy asset to be read: one period. */
	busyLagMs: number;
	/** Worst case for a quiet asset: a full round of turns. */
	quietLagMs: number;
	/** False when the budget cannot hold the interval for busy assets (passes run back to back). */
	fits: boolean;
}

export function planPass(input: PlanInput): PassPlan {
	const { intervalMs, perSecond, busy, quiet, maxQuietLagMs } = input;
	const extra = input.extraRequests ?? 0;
	const capacity = Math.floor((perSecond * intervalMs) / 1000);
	const spare = Math.max(0, capacity - busy.length - extra);
	// Enough quiet reads per pass that a full round stays within the longest allowed quiet lag.
	const floor = quiet.length === 0 ? 0 : Math.ceil((quiet.length * intervalMs) / maxQuietLagMs);
	const quietPerPass = Math.min(quiet.length, Math.max(spare, floor, quiet.length > 0 ? 1 : 0));
	const turn =
		quietPerPass >= quiet.length
			? quiet
			: [...quiet]
					.sort((a, b) => a.readThrough - b.readThrough || a.id - b.id)
					.slice(0, quietPerPass);
	const requests = busy.length + quietPerPass + extra;
	const passMs = Math.ceil((requests / perSecond) * 1000);
	const periodMs = Math.max(intervalMs, passMs);
	const rounds = quietPerPass === 0 ? 0 : Math.ceil(quiet.length / quietPerPass);
	const backlogMs =
		input.now === undefined ? 0 : backlogLag(quiet, quietPerPass, periodMs, input.now);
	return {
		read: [...busy, ...turn.map((a) => a.id)],
		busy: busy.length,
		quiet: quiet.length,
		quietPerPass,
		passMs,
		periodMs,
		busyLagMs: periodMs,
		quietLagMs: Math.max(periodMs, rounds * periodMs, backlogMs),
		fits: passMs <= intervalMs,
	};
}

/**
 * The latest any quiet asset's events will be once its turn comes: the asset at rank r (longest
 * unread first) is read in pass floor(r / perPass) from now, so at worst it is seen up to its
 * read-through at the end of that pass.
 */
function backlogLag(
	quiet: PlanInput['quiet'],
	perPass: number,
	periodMs: number,
	now: number,
): number {
	if (perPass === 0 || quiet.length === 0) return 0;
	const order = [...quiet].sort((a, b) => a.readThrough - b.readThrough || a.id - b.id);
	let worst = 0;
	order.forEach(
		(a, rank) =>
			(worst = Math.max(worst, now - a.readThrough + (Math.floor(rank / perPass) + 1) * periodMs)),
	);
	return worst;
}

/** One line for the log and `/drive health`: what a pass reads and how late it can be. */
export function describePlan(plan: PassPlan): string {
	const minutes = (ms: number) =>
		ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
	return (
		`${plan.busy} busy assets every pass, ${plan.quietPerPass} of ${plan.quiet} quiet assets per pass; ` +
		`worst case ${minutes(plan.busyLagMs)} for busy, ${minutes(plan.quietLagMs)} for quiet assets` +
		(plan.fits ? '' : ' (the budget is too small for the interval: passes run back to back)')
	);
}
