import { drain, pollOnce } from './leader';
import { fakeSlackToken, waitFor } from './helpers';
import { startTestBot } from './harness';
import { useFixture } from './use-fixture';

// Connectivity by polling within its share of the request budget (B70): E8 reads spaced at the
// share's rate instead of a burst over the fleet, a round stretched to fit, and the delay stated.
const botToken = fakeSlackToken('b');
const f = useFixture(botToken, { push: false });

test('E8 reads stay within the share, the round stretches to the fleet, and /drive health says how late an outage shows', async () => {
	const { sim, slack, state, logger, lines } = f;
	const assets = sim.fleet.assets().filter((a) => a.assetType !== 'PowerTrain').length;
	// A budget of 2 req/s with a quarter for connectivity: a read every 2 s, so a 1-minute round
	// cannot hold a fleet of more than 30.
	expect(assets).toBeGreaterThan(30);
	sim.requests.clear();
	const bot = (f.bot = await startTestBot({
		sim,
		slackApiUrl: slack.apiUrl,
		botToken,
		stateFile: state.file,
		logger,
		config: {
			source: { kind: 'poll', pollIntervalSeconds: 3600, maxRequestsPerSecond: 2 },
			connectivity: { pollIntervalMinutes: 1, maxBudgetShare: 0.25 },
		},
	}));
	// Alerts found by the first pass read their assets' details (E8 too, B48): counted from after them.
	await pollOnce(bot);
	await drain(bot, 10_000);
	const since = Date.now();
	sim.requests.clear();
	await waitFor('three connectivity reads', () => sim.requests.api('E8').length >= 3);
	const elapsed = (Date.now() - since) / 1000;
	const e8 = sim.requests.api('E8').length;
	// Paced: at most one every 2 s since the start (plus the first), never the whole fleet at once.
	expect(e8).toBeLessThanOrEqual(Math.floor(elapsed / 2) + 1);
	const pace = bot.connectivityPoll!.pace();
	expect(pace.assets).toBe(assets);
	expect(pace.stretched).toBe(true);
	expect(pace.roundMs).toBe(assets * 2000);
	expect(
		lines.some(
			(l) =>
				l.includes(
					`connectivity: connectivity reads ${assets} assets every ${Math.ceil((assets * 2) / 60)} min`,
				) && l.includes('an offline asset is seen at most'),
		),
	).toBe(true);
	const health = await bot.commands.handle('health');
	expect(health.kind === 'health' && health.sources?.[0].connectivity).toContain(
		`at most 25% of the budget`,
	);
	// Two rounds of the stretched length without a read are what turn an asset unknown, not two minutes.
	const first = sim.requests.api('E8')[0];
	const id = Number(/asset\/(\d+)$/.exec(first.path)?.[1]);
	await waitFor('its observation', () => bot.connectivity?.link(id));
	expect((await bot.connectivity?.link(id))?.state).not.toBe('unknown');
}, 60_000);
