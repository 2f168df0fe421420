import type { Bot } from '../../bot/app/start';
import { startSimulator, type Simulator } from '../../simulator';
import { drain, failedCalls } from './leader';
import { capturingLogger, fakeSlackToken, tempStateFile, waitFor } from './helpers';
import {
	cbmDrive,
	pushUserFor,
	shutdown,
	type SimAsset,
	startTestBot,
	topMessagesOf,
} from './harness';
import { SlackApiServer } from './slack-server';
import type { PushSettings } from '../../bot/config/push-settings';

const botToken = fakeSlackToken('b');
const { logger, lines } = capturingLogger();
const state = tempStateFile();
let sim: Simulator;
let slack: SlackApiServer;
let bot: Bot;
let push: PushSettings;
let drive: SimAsset;
let orgAssets: SimAsset[];

const config = {
	alerts: {
		minSeverity: 'Warning',
		routes: [{ assetGroup: 'PLACEHOLDER', severity: ['Fault'], channel: '#group-faults' }],
		defaultChannel: '#drive-alerts',
	},
};

/** `lenient` for the first start only, whose route still names a placeholder group. */
function start(lenient = false): Promise<Bot> {
	return startTestBot({
		sim,
		slackApiUrl: slack.apiUrl,
		botToken,
		stateFile: state.file,
		logger,
		config,
		push,
		orgId: drive.orgId,
		digestIntervalMs: 1500,
		lenient,
	});
}

const messagesOf = (eventId: unknown) => topMessagesOf(slack, eventId);

beforeAll(async () => {
	sim = await startSimulator();
	slack = await new SlackApiServer({ token: botToken }).start();
	// A CBM-capable drive with a level that allows CBM, so the CBM test can use it too.
	drive = cbmDrive(sim);
	orgAssets = sim.fleet
		.assets()
		.filter(
			(a) => a.orgId === drive.orgId && a.assetType !== 'PowerTrain' && a.level !== 'expired',
		);
	const group = sim.fleet.orgs().find((o) => o.id === drive.orgId);
	expect(group).toBeDefined();
	push = await pushUserFor(sim, drive.orgId, logger);
	bot = await start(true);
	const detail = await bot.directory.detail(drive.id);
	config.alerts.routes[0].assetGroup = detail.assetGroup as string;
	await bot.stop();
	bot = await start();
});

afterAll(() => shutdown({ bot, slack, sim, state }));

test('a fault raised in the platform reaches Slack through the push channel as one Block Kit message', async () => {
	const event = sim.control.raiseEvent(drive.id, { eventType: 'Fault' });
	const [message] = await waitFor(
		'the fault message',
		() => messagesOf(event.id).length > 0 && messagesOf(event.id),
	);
	expect(message.channel).toBe(slack.channelId('#group-faults'));
	const json = JSON.stringify(message.blocks);
	expect(message.text).toContain(drive.serialNumber);
	expect(message.text).toContain(String(event.eventCode));
	for (const part of [
		'Group / plant',
		'Event time',
		'UTC+08:00',
		'Device',
		'Logger file',
		'Organization',
		'asset_details',
	])
		expect(json).toContain(part);
	await drain(bot, 5000);
	expect(messagesOf(event.id)).toHaveLength(1);
});

test('closing the event updates the same message as resolved and replies in its thread', async () => {
	const event = sim.control.raiseEvent(drive.id, { eventType: 'Fault' });
	const [message] = await waitFor(
		'the fault message',
		() => messagesOf(event.id).length > 0 && messagesOf(event.id),
	);
	sim.control.closeEvent(drive.id, Number(event.id), 'Fan replaced');
	await waitFor('the update', () => message.updates > 0);
	expect(message.text).toContain('Resolved');
	expect(JSON.stringify(message.blocks)).toContain('Fan replaced');
	const reply = await waitFor('the thread reply', () =>
		slack.posts().find((m) => m.threadTs === message.ts),
	);
	expect(reply.text).toContain('resolved');
	expect(reply.text).toContain('Fan replaced');
	expect(messagesOf(event.id)).toHaveLength(1);
});

test('a warning goes to the default channel by the routing rules', async () => {
	const other = orgAssets.find((a) => a.id !== drive.id) as SimAsset;
	const event = sim.control.raiseEvent(other.id, { eventType: 'Warning' });
	const [message] = await waitFor(
		'the warning',
		() => messagesOf(event.id).length > 0 && messagesOf(event.id),
	);
	expect(message.channel).toBe(slack.channelId('#drive-alerts'));
});

test('a restart in the middle neither duplicates nor drops: events while down arrive once, closes update', async () => {
	const before = sim.control.raiseEvent(drive.id, { eventType: 'Fault' });
	await waitFor('the first message', () => messagesOf(before.id).length > 0);
	await bot.stop();
	const whileDown = sim.control.raiseEvent(drive.id, { eventType: 'Fault' });
	sim.control.closeEvent(drive.id, Number(before.id), 'Reset while the bot was down');
	bot = await start();
	const [message] = await waitFor(
		'the event raised while down',
		() => messagesOf(whileDown.id).length > 0 && messagesOf(whileDown.id),
	);
	const [first] = messagesOf(before.id);
	await waitFor('the close while down', () => first.updates > 0);
	await drain(bot, 5000);
	expect(messagesOf(whileDown.id)).toEqual([message]);
	expect(messagesOf(before.id)).toEqual([first]);
	// Nothing already posted was posted again by the restart.
	const tops = slack
		.posts()
		.filter((m) => !m.threadTs)
		.map((m) => m.text);
	expect(new Set(tops).size).toBe(tops.length);
});

test('CBM: a unit turning Red is posted once; back to Good is posted in its thread', async () => {
	sim.control.setCbmUnit(drive.id, 'Fan', 'Red');
	const posted = await waitFor('the CBM message', () =>
		slack.posts().find((m) => !m.threadTs && m.text.startsWith('CBM Red: Fan')),
	);
	expect(JSON.stringify(posted.blocks)).toContain('30-day KPI');
	sim.control.setCbmUnit(drive.id, 'Fan', 'Red');
	sim.control.setCbmUnit(drive.id, 'Fan', 'Good');
	const reply = await waitFor('the recovery reply', () =>
		slack.posts().find((m) => m.threadTs === posted.ts),
	);
	expect(reply.text).toContain('back to Good');
	expect(slack.posts().filter((m) => m.text.startsWith('CBM Red: Fan'))).toHaveLength(1);
});

test('a storm of 1,000 faults ends with every fault in a message or a digest, within Slack limits', async () => {
	const raised: Array<Record<string, unknown>> = [];
	for (let i = 0; i < 1000; i++)
		raised.push(sim.control.raiseEvent(orgAssets[i % orgAssets.length].id, { eventType: 'Fault' }));
	const covered = () => {
		const text = slack
			.posts()
			.filter((m) => !m.threadTs)
			.map((m) => JSON.stringify(m.blocks))
			.join('\n');
		return raised.filter((e) => text.includes(`event ${String(e.id)}`)).length;
	};
	await waitFor('every fault posted', () => covered() === raised.length, 90_000);
	expect(bot.dispatcher.stats.digests).toBeGreaterThan(0);
	const stormPosts = slack
		.posts()
		.filter((m) => !m.threadTs && m.text.startsWith('Alert digest')).length;
	expect(stormPosts).toBeLessThan(60);
	expect(slack.problems).toEqual([]);
	expect(await failedCalls(bot.database)).toEqual([]);
}, 120_000);

test('the bot token never appears in the logs', () => {
	expect(lines.join('\n')).not.toContain(botToken);
	expect(lines.join('\n')).not.toContain(push.password);
});
