/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { drain, pollOnce } from './leader';
import type { Bot } from '../../bot/app/start';
import { startSimulator, type Simulator } from '../../simulator';
import { capturingLogger, fakeSlackToken, tempStateFile, waitFor } from './helpers';
import { shutdown, startTestBot } from './harness';
import { SlackApiServer } from './slack-server';

// Polling at scale (B45-B48): a start without a flood, lazily read details, refusals set aside
// with one log line, and lag that is reported and warned about.
const botToken = fakeSlackToken('b');
const { logger, lines } = capturingLogger();
const state = tempStateFile();
let sim: Simulator;
let slack: SlackApiServer;
let bot: Bot | undefined;

beforeAll(async () => {
	sim = await startSimulator({ push: false });
	slack = await new SlackApiServer({ token: botToken }).start();
});

afterAll(() => shutdown({ bot, slack, sim, state }));

// Connectivity (its own messages, B30) is off: these tests count the alert messages alone.
const start = (source: Record<string, unknown> = {}) =>
	startTestBot({
		sim,
		slackApiUrl: slack.apiUrl,
		botToken,
		stateFile: state.file,
		logger,
		config: {
			source: { kind: 'poll', pollIntervalSeconds: 3600, ...source },
			connectivity: { enabled: false },
		},
	});
const eventIdsIn = (text: string) => [...text.matchAll(/event (\d+)/g)].map((m) => m[1]);

test('first start: what happened before it is one catch-up message per channel, with details read once per alerting asset', async () => {
	const drives = sim.fleet.assets().filter((a) => a.assetType === 'Drive' && a.level !== 'expired');
	const before = drives
		.slice(0, 6)
		.map((d) => sim.control.raiseEvent(d.id, { eventType: 'Fault' }));
	sim.requests.clear();
	// Event times are whole seconds: the start must be in a later second than the faults.
	await new Promise((resolve) => setTimeout(resolve, 1100));
	bot = await start();
	await pollOnce(bot);
	await drain(bot, 10_000);
	// CBM units already Yellow or Red at the start: one CBM digest per channel once every drive was read.
	const cbm = slack.posts().filter((m) => !m.threadTs && m.text.startsWith('CBM'));
	expect(cbm).toHaveLength(1);
	expect(cbm[0].text).toMatch(/^CBM digest \d{4}-\d{2}-\d{2}: \d+ units need attention/);
	const top = slack.posts().filter((m) => !m.threadTs && !m.text.startsWith('CBM'));
	expect(top).toHaveLength(1);
	expect(top[0].text).toMatch(/^Catch-up: \d+ alerts while the bot was away/);
	const listed = eventIdsIn(JSON.stringify(top[0].blocks));
	for (const event of before) expect(listed).toContain(String(event.id));
	const alerting = new Set([
		...(await bot.state.alerts.openAlerts()).map((a) => a.asset.id),
		...(await bot.state.cbm.units(['Yellow', 'Red'])).map((u) => u.asset.id),
	]);
	const e8 = sim.requests.api('E8');
	expect(e8.length).toBeGreaterThan(0);
	expect(e8.length).toBeLessThanOrEqual(alerting.size);
	expect(lines.some((l) => /poll: \d+ alerts on \d+ assets from before the start/.test(l))).toBe(
		true,
	);

	// After the first pass, a new fault is a message of its own; a close of a caught-up one goes to the catch-up's thread.
	const fresh = sim.control.raiseEvent(drives[7].id, { eventType: 'Fault' });
	sim.control.closeEvent(drives[0].id, Number(before[0].id), 'Reset on site');
	await pollOnce(bot);
	await drain(bot, 10_000);
	const own = slack
		.posts()
		.filter((m) => !m.threadTs && eventIdsIn(JSON.stringify(m.blocks)).includes(String(fresh.id)));
	expect(own).toHaveLength(1);
	expect(own[0].text).not.toContain('Catch-up');
	expect(
		slack.posts().some((m) => m.threadTs === top[0].ts && m.text.includes('Reset on site')),
	).toBe(true);
});

test('a refusal that cannot change sets the asset aside for that function, with one log line per asset', async () => {
	const mark = lines.length;
	sim.requests.clear();
	await pollOnce(bot!, true);
	await pollOnce(bot!, true);
	const asideLines = lines.filter((l) => /poll: asset \d+: (events|CBM) not read while/.test(l));

	const keys = asideLines.map((l) => /asset (\d+): (events|CBM)/.exec(l)!.slice(1).join(':'));
	expect(new Set(keys).size).toBe(keys.length);
	// Motors and drives outside the CBM families answer 102202 for CBM; levels below Standard 102403.
	expect(
		asideLines.some((l) => l.includes('CBM not read while the asset does not support it')),
	).toBe(true);
	expect(asideLines.some((l) => l.includes('events not read while its subscription expired'))).toBe(
		true,
	);
	// Two more full passes with CBM asked none of them again, and logged nothing more.
	expect(sim.requests.api().filter((r) => r.status !== 200)).toEqual([]);
	expect(sim.requests.api('E19').length).toBeGreaterThan(0);
	expect(lines.slice(mark).filter((l) => l.includes('not read while'))).toEqual([]);
	const status = bot!.sources()[0];
	expect(status.setAside!.cbm + status.setAside!.events).toBe(asideLines.length);
});

test('the lag is in /drive health; above the threshold it is warned once in the log and once in Slack', async () => {
	// As if the bot had been down for 20 minutes.
	await bot!.state.watermarks.set('poll.events', new Date(Date.now() - 20 * 60_000).toISOString());
	await bot!.stop();
	bot = undefined;
	// One asset whose events cannot be read holds the lag at the restart's starting point.
	const stuck = sim.fleet.assets().find((a) => a.assetType === 'Motor' && a.level !== 'expired')!;
	sim.faults.set({ errorRate: 1, paths: [`/assetdata/${stuck.id}/event`] });
	bot = await start({ lagWarningSeconds: 10, catchUpLookbackMinutes: 30 });
	lines.length = 0;
	await pollOnce(bot);
	await pollOnce(bot);
	await drain(bot, 10_000);
	const [source] = bot.sources();
	expect(source.kind).toBe('poll');
	expect(source.lagSeconds).toBeGreaterThan(10);
	expect(lines.filter((l) => l.includes('poll: polling is')).length).toBe(1);
	expect(slack.posts().filter((m) => m.text.startsWith('Alerts are late'))).toHaveLength(1);
	const health = await bot.commands.handle('health');
	expect(health.kind === 'health' && health.sources?.[0].lagSeconds).toBeGreaterThan(10);
	sim.faults.clear();
	await pollOnce(bot);
	expect(bot.sources()[0].lagSeconds).toBeLessThan(10);
	await waitFor('the caught-up line', () => lines.find((l) => l.includes('poll: caught up')));
});
