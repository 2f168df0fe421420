import { connectivityPace, describePace } from '../../bot/leader/sources/connectivity-poll';

// Connectivity by polling takes at most its share of the request budget (B70): a fleet the share
// cannot read within the interval gets a longer round, and the bot says how late an outage shows.
const staleMs = 15 * 60_000;

test('a fleet the share covers is read every interval, at its average rate', () => {
	const pace = connectivityPace({
		assets: 500,
		budgetPerSecond: 20,
		share: 0.2,
		intervalMs: 300_000,
		staleMs,
	});
	expect(pace.roundMs).toBe(300_000);
	expect(pace.stretched).toBe(false);
	expect(pace.capPerSecond).toBe(4);
	expect(pace.perSecond).toBeCloseTo(500 / 300, 5);
	expect(pace.detectMs).toBe(staleMs + 300_000);
});

test('10,000 assets at 50 req/s: no more than a fifth of the budget, the round stretches, and the delay says so', () => {
	const pace = connectivityPace({
		assets: 10_000,
		budgetPerSecond: 50,
		share: 0.2,
		intervalMs: 300_000,
		staleMs,
	});
	// E8 of every asset every 5 min would be 33 req/s; a fifth of 50 is 10.
	expect(pace.perSecond).toBeCloseTo(10, 5);
	expect(pace.roundMs).toBe(1_000_000);
	expect(pace.stretched).toBe(true);
	expect(pace.detectMs).toBe(staleMs + 1_000_000);
	expect(describePace(pace, 0.2)).toBe(
		'connectivity reads 10000 assets every 17 min (10.0 req/s, at most 20% of the budget), longer than connectivity.pollIntervalMinutes because the fleet needs it; an offline asset is seen at most 32 min after its last data',
	);
});
