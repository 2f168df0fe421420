import { describePlan, planPass } from '../../bot/leader/sources/poll-plan';
import { sourceGauges, sourcesReadiness } from '../../bot/leader/sources/status';

const quiet = (n: number, from = 1000) =>
	Array.from({ length: n }, (_, i) => ({ id: from + i, readThrough: i }));

test('a fleet the budget covers is read whole every pass', () => {
	const plan = planPass({
		intervalMs: 30_000,
		perSecond: 40,
		busy: [1, 2],
		quiet: quiet(100),
		maxQuietLagMs: 900_000,
	});
	expect(plan.read).toHaveLength(102);
	expect(plan.quietLagMs).toBe(30_000);
	expect(plan.fits).toBe(true);
});

test('busy assets every pass; quiet ones take turns, longest unread first, and the plan states the worst case', () => {
	const fleet = quiet(10_000);
	const plan = planPass({
		intervalMs: 30_000,
		perSecond: 40,
		busy: [1, 2, 3],
		quiet: [...fleet].reverse(),
		maxQuietLagMs: 900_000,
	});
	expect(plan.read.slice(0, 3)).toEqual([1, 2, 3]);
	expect(plan.quietPerPass).toBe(1200 - 3);
	// The turn is the quiet assets read longest ago.
	expect(plan.read.slice(3)).toEqual(fleet.slice(0, 1197).map((a) => a.id));
	expect(plan.busyLagMs).toBe(30_000);
	expect(plan.quietLagMs).toBe(Math.ceil(10_000 / 1197) * 30_000);
	expect(describePlan(plan)).toBe(
		'3 busy assets every pass, 1197 of 10000 quiet assets per pass; worst case 30 s for busy, 5 min for quiet assets',
	);
});

test('a budget too small for the interval still reads every quiet asset within the longest quiet lag, and says so', () => {
	const plan = planPass({
		intervalMs: 30_000,
		perSecond: 5,
		busy: quiet(200, 1).map((a) => a.id),
		quiet: quiet(100_000),
		maxQuietLagMs: 900_000,
	});
	// 100,000 quiet assets within 15 min at one pass per 30 s: at least 3,334 per pass.
	expect(plan.quietPerPass).toBe(3334);
	expect(plan.fits).toBe(false);
	expect(plan.periodMs).toBe(Math.ceil(((200 + 3334) / 5) * 1000));
	expect(plan.quietLagMs).toBe(30 * plan.periodMs);
	expect(describePlan(plan)).toContain('passes run back to back');
});

test('CBM reads due count against the pass', () => {
	const withCbm = planPass({
		intervalMs: 30_000,
		perSecond: 40,
		busy: [],
		quiet: quiet(5_000),
		maxQuietLagMs: 900_000,
		extraRequests: 200,
	});
	expect(withCbm.quietPerPass).toBe(1000);
});

test('readiness and gauges of the alert sources', () => {
	const poll = {
		kind: 'poll' as const,
		lagSeconds: 1500,
		busyLagSeconds: 20,
		lagThresholdSeconds: 1200,
		setAside: { events: 2, cbm: 7 },
	};
	const push = {
		kind: 'push' as const,
		lagSeconds: 0,
		lagThresholdSeconds: 1200,
		receivers: { connected: 1, configured: 2 },
	};
	expect(sourcesReadiness([poll, push])).toEqual({
		ready: false,
		reasons: [
			'alerts by poll are 1500 s behind (threshold 1200 s)',
			'1 of 2 push users not connected',
		],
	});
	expect(sourcesReadiness([{ ...poll, lagSeconds: 30 }]).ready).toBe(true);
	expect(sourceGauges([poll]).map((g) => [g.name, g.labels, g.value])).toEqual([
		['drive_bot_source_lag_seconds', { source: 'poll' }, 1500],
		['drive_bot_source_busy_lag_seconds', { source: 'poll' }, 20],
		['drive_bot_poll_set_aside_assets', { function: 'events' }, 2],
		['drive_bot_poll_set_aside_assets', { function: 'cbm' }, 7],
	]);
});

test('after the first pass the stated quiet worst case counts the time since the assets were read, not only a round', () => {
	const t0 = 1_000_000;
	// Every quiet asset was read through the first pass's start, which took 211 s.
	const fleet = Array.from({ length: 9210 }, (_, i) => ({ id: i + 1, readThrough: t0 }));
	const now = t0 + 211_000;
	const plan = planPass({
		intervalMs: 30_000,
		perSecond: 40,
		busy: quiet(57, 100_000).map((a) => a.id),
		quiet: fleet,
		maxQuietLagMs: 900_000,
		now,
	});
	expect(plan.quietPerPass).toBe(1143);
	// The last of them is read in the 9th pass from now: 211 s + 9 periods, not a round's 270 s.
	expect(plan.quietLagMs).toBe(211_000 + 9 * 30_000);
	// Once read in turns, the stated worst case is the round again.
	const steady = fleet.map((a, i) => ({
		id: a.id,
		readThrough: now - (7 - Math.floor(i / 1200)) * 30_000,
	}));
	expect(
		planPass({
			intervalMs: 30_000,
			perSecond: 40,
			busy: [],
			quiet: steady,
			maxQuietLagMs: 900_000,
			now,
		}).quietLagMs,
	).toBe(Math.ceil(9210 / 1200) * 30_000);
});
