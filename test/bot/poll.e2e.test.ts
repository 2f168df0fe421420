import { drain, pollOnce } from './leader';
import type { Bot } from '../../bot/app/start';
import { startSimulator, type Simulator } from '../../simulator';
import { capturingLogger, fakeSlackToken, tempStateFile, waitFor } from './helpers';
import { cbmDrive, shutdown, type SimAsset, startTestBot, topMessagesOf } from './harness';
import { SlackApiServer } from './slack-server';

// The REST polling source (config `source.kind: poll`), for platforms or organizations without
// a data-subscription user: the same alerts, found by E14 and E19 instead of pushed.
const botToken = fakeSlackToken('b');
const { logger, lines } = capturingLogger();
const state = tempStateFile();
let sim: Simulator;
let slack: SlackApiServer;
let bot: Bot;
let drive: SimAsset;

const start = () =>
	startTestBot({ sim, slackApiUrl: slack.apiUrl, botToken, stateFile: state.file, logger });
const top = (eventId: unknown) => topMessagesOf(slack, eventId);

async function poll(withCbm = false): Promise<void> {
	await pollOnce(bot, withCbm);
	await drain(bot, 10_000);
}

beforeAll(async () => {
	sim = await startSimulator({ push: false });
	slack = await new SlackApiServer({ token: botToken }).start();
	drive = cbmDrive(sim);
	bot = await start();
});

afterAll(() => shutdown({ bot, slack, sim, state }));

test('a fault found by polling is posted once, and its close updates it, across a restart', async () => {
	const event = sim.control.raiseEvent(drive.id, { eventType: 'Fault' });
	await poll();
	expect(top(event.id)).toHaveLength(1);
	await poll();
	expect(top(event.id)).toHaveLength(1);
	await bot.stop();
	const whileDown = sim.control.raiseEvent(drive.id, { eventType: 'Fault' });
	sim.control.closeEvent(drive.id, Number(event.id), 'Cleared during restart');
	bot = await start();
	await poll();
	expect(top(whileDown.id)).toHaveLength(1);
	const [message] = top(event.id);
	expect(message.updates).toBeGreaterThan(0);
	expect(message.text).toContain('Resolved');
	expect(
		slack
			.posts()
			.some((m) => m.threadTs === message.ts && m.text.includes('Cleared during restart')),
	).toBe(true);
});

test('CBM by polling: Red is posted once per change, Good replies in the same thread', async () => {
	sim.control.setCbmUnit(drive.id, 'Capacitor', 'Red');
	await poll(true);
	await poll(true);
	const posted = slack
		.posts()
		.filter((m) => !m.threadTs && m.text.startsWith('CBM Red: Capacitor'));
	expect(posted).toHaveLength(1);
	sim.control.setCbmUnit(drive.id, 'Capacitor', 'Good');
	await poll(true);
	const reply = await waitFor('the recovery reply', () =>
		slack.posts().find((m) => m.threadTs === posted[0].ts),
	);
	expect(reply.text).toContain('back to Good (was Red)');
});

test('a pass skips PowerTrains, rests expired assets, and still moves its watermark', async () => {
	await poll();
	const mark = await bot.state.watermarks.get('poll.events');
	sim.requests.clear();
	lines.length = 0;
	await poll();
	const powerTrains = new Set(
		sim.fleet
			.assets()
			.filter((a) => a.assetType === 'PowerTrain')
			.map((a) => a.id),
	);
	const expired = new Set(
		sim.fleet
			.assets()
			.filter((a) => a.level === 'expired')
			.map((a) => a.id),
	);
	expect(powerTrains.size).toBeGreaterThan(0);
	expect(expired.size).toBeGreaterThan(0);
	const calls = sim.requests.api('E14');
	expect(calls.length).toBeGreaterThan(0);
	const assetOf = (path: string) => Number(/assetdata\/(\d+)\/event/.exec(path)?.[1]);
	expect(
		calls.filter((c) => powerTrains.has(assetOf(c.path)) || expired.has(assetOf(c.path))),
	).toEqual([]);
	expect(calls.every((c) => c.status === 200)).toBe(true);
	expect(lines.filter((l) => l.includes('poll: events of asset'))).toEqual([]);
	expect(Date.parse((await bot.state.watermarks.get('poll.events')) ?? '')).toBeGreaterThan(
		Date.parse(mark ?? ''),
	);
});
