import { drain, pollOnce } from './leader';
import { isCbmCapable } from '../../simulator/fleet/model';
import { fakeSlackToken } from './helpers';
import { startTestBot } from './harness';
import { useFixture } from './use-fixture';

// CBM by polling is spread over `cbm.pollIntervalMinutes`: each planned pass reads the next
// share of the drives (B46), and the persisted CBM watermark says since when every drive was
// read, so a restart resumes the round instead of starting it again (B47).
const botToken = fakeSlackToken('b');
const f = useFixture(botToken, { push: false });

// One pass a minute and the default hourly CBM interval: a sixtieth of the drives per pass.
const start = () =>
	startTestBot({
		sim: f.sim,
		slackApiUrl: f.slack.apiUrl,
		botToken,
		stateFile: f.state.file,
		logger: f.logger,
		config: { source: { kind: 'poll', pollIntervalSeconds: 60 }, connectivity: { enabled: false } },
	});
const cbmReads = () =>
	new Set(f.sim.requests.api('E19').map((r) => Number(/assetdata\/(\d+)\//.exec(r.path)?.[1])));

test('each planned pass reads the next share of the drives, until the round is done', async () => {
	const drives = f.sim.fleet.assets().filter((a) => a.assetType === 'Drive');
	const perPass = Math.ceil(drives.length / 60);
	const passes = 4;
	expect(drives.length).toBeGreaterThan(passes * perPass);
	const bot = (f.bot = await start());
	// The pass the timer starts at once, then three more as the timer would run them.
	for (let i = 1; i < passes; i++) await bot.poll!.planned();
	// Each pass a share of drives not read before: the first round goes on after its first slice.
	expect(cbmReads().size).toBe(passes * perPass);
	// Not every drive read yet: no watermark claims they were.
	expect(await bot.state.watermarks.get('poll.cbm')).toBeUndefined();
});

test('once every drive was read the watermark says since when, and a restart does not read them again', async () => {
	const before = Date.now();
	await pollOnce(f.bot!, true);
	const mark = Date.parse((await f.bot!.state.watermarks.get('poll.cbm')) ?? '');
	// The full pass read every drive: the round is complete since its start.
	expect(mark).toBeGreaterThanOrEqual(before);
	expect(mark).toBeLessThanOrEqual(Date.now());
	await f.bot!.stop();
	f.bot = undefined;
	f.sim.requests.clear();
	const bot = (f.bot = await start());
	await bot.poll!.planned();
	expect(cbmReads().size).toBe(0);
	expect(f.sim.requests.api('E14').length).toBeGreaterThan(0);
});

describe('units first seen Yellow or Red during the first round', () => {
	const g = useFixture(botToken, { push: false });
	const startOn = () =>
		startTestBot({
			sim: g.sim,
			slackApiUrl: g.slack.apiUrl,
			botToken,
			stateFile: g.state.file,
			logger: g.logger,
			config: {
				source: { kind: 'poll', pollIntervalSeconds: 60 },
				connectivity: { enabled: false },
			},
		});
	const readDrives = () =>
		new Set(
			g.sim.requests
				.api('E19')
				.filter((r) => r.status === 200)
				.map((r) => Number(/assetdata\/(\d+)\//.exec(r.path)?.[1])),
		);
	// Digests and messages of a unit of their own ("CBM Red: Fan of …") alike.
	const digests = () => g.slack.posts().filter((m) => !m.threadTs && m.text.startsWith('CBM'));

	test('are recorded as they are read, and posted in one digest when the round ends, across a restart', async () => {
		for (const drive of g.sim.fleet.assets().filter(isCbmCapable))
			g.sim.control.setCbmUnit(drive.id, 'Fan', 'Red');
		let bot = (g.bot = await startOn());
		// Planned passes (a share of the drives each) until one drive answered with its CBM; drives
		// below the Standard level answer 102403.
		for (let i = 0; i < 20 && readDrives().size === 0; i++) await bot.poll!.planned();
		const firstSlice = readDrives();
		expect(firstSlice.size).toBeGreaterThan(0);
		expect(await bot.state.watermarks.get('poll.cbm')).toBeUndefined();
		// Known at once (the state file holds them, not the process), posted not yet.
		const staged = (await bot.state.cbm.units(['Red'])).filter((u) => u.unit === 'Fan');
		expect(new Set(staged.map((u) => u.asset.id))).toEqual(firstSlice);
		await drain(bot, 10_000);
		expect(digests()).toHaveLength(0);

		// A restart in the middle of the round: the staged units wait in the state file.
		await bot.stop();
		bot = g.bot = await startOn();
		await pollOnce(bot, true);
		await drain(bot, 10_000);
		// One post about CBM, the digest: none of the units also came as a message of its own.
		const [digest, ...more] = digests();
		expect(more).toHaveLength(0);
		const alerting = await bot.state.cbm.units(['Yellow', 'Red']);
		expect(alerting.length).toBeGreaterThan(staged.length);
		expect(digest.text).toMatch(
			new RegExp(`^CBM digest \\d{4}-\\d{2}-\\d{2}: ${alerting.length} units need attention`),
		);
	});
});
