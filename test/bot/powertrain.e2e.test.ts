import { drain, pollOnce } from './leader';
import type { App } from '@slack/bolt';
import { digestMessage } from '../../bot/blocks/digest';
import { ConfigError } from '../../bot/config/load';
import type { Bot } from '../../bot/app/start';
import { startSimulator, type Simulator } from '../../simulator';
import { shutdown, startBotWithApp, startTestBot } from './harness';
import {
	capturingLogger,
	fakeSlackToken,
	postToSlackApp,
	slashCommandBody,
	tempStateFile,
	waitFor,
} from './helpers';
import { blockKitProblems, SlackApiServer } from './slack-server';

// PowerTrains and unsupported functions as sentences, inhibition (drive and motor in one
// message), route checks at start, and the digest's wording: through the real Bolt app.
const botToken = fakeSlackToken('b');
const signingSecret = `sign-${Math.random().toString(36).slice(2)}`;
const { logger, lines } = capturingLogger();
const state = tempStateFile();
let sim: Simulator;
let slack: SlackApiServer;
let bot: Bot;
let app: App;
let url = '';
const config = {
	source: { kind: 'poll', pollIntervalSeconds: 3600 },
	cbm: { enabled: false },
	alerts: { defaultChannel: '#plant' },
};

beforeAll(async () => {
	sim = await startSimulator({ push: false });
	slack = await new SlackApiServer({ token: botToken }).start();
	({ bot, app, url } = await startBotWithApp({
		sim,
		slackApiUrl: slack.apiUrl,
		botToken,
		signingSecret,
		stateFile: state.file,
		logger,
		config,
	}));
});

afterAll(async () => {
	await app?.stop();
	await shutdown({ bot, slack, sim, state });
});

async function ask(text: string, id: string) {
	await postToSlackApp(
		url,
		signingSecret,
		slashCommandBody({ command: '/drive', text, responseUrl: slack.responseUrl(id) }),
	);
	return waitFor(`the answer ${id}`, () => slack.responses.find((r) => r.id === id)?.body);
}

const powerTrain = () => {
	const pt = sim.fleet
		.assets()
		.find(
			(a) =>
				a.assetType === 'PowerTrain' && a.level !== 'expired' && (a.memberIds?.length ?? 0) === 2,
		);
	if (!pt) throw new Error('no PowerTrain in the simulated fleet');
	return pt;
};

test('/drive status of a PowerTrain shows its drive and its motor, not an API error', async () => {
	const pt = powerTrain();
	const answer = await ask(`status ${pt.name}`, 'pt-status');
	const json = JSON.stringify(answer.blocks);
	expect(String(answer.text)).toContain(`PowerTrain ${pt.name}`);
	for (const id of pt.memberIds ?? [])
		expect(json).toContain(sim.fleet.assets().find((a) => a.id === id)?.serialNumber as string);
	expect(json).toContain('Conditions');
	expect(json).not.toMatch(/102202|E8\b|failed with code/);
	expect(blockKitProblems(answer.text, answer.blocks)).toEqual([]);
});

test('CBM on a drive outside the two families and status of an expired asset are one plain sentence each', async () => {
	const other = sim.fleet
		.assets()
		.find(
			(a) =>
				a.assetType === 'Drive' &&
				!a.cbmCapable &&
				(a.level === 'Standard' || a.level === 'Premium'),
		);
	expect(other).toBeDefined();
	const cbm = JSON.stringify((await ask(`cbm ${other?.id}`, 'cbm-other')).blocks);
	expect(cbm).toContain('covers ACS880 and ACS580 drives only');
	expect(cbm).not.toMatch(/102202|E19|code/);
	const expired = sim.fleet.assets().find((a) => a.assetType === 'Drive' && a.level === 'expired');
	expect(expired).toBeDefined();
	const status = JSON.stringify((await ask(`status ${expired?.id}`, 'status-expired')).blocks);
	expect(status).toContain('subscription');
	expect(status).toContain('has expired');
	expect(status).not.toMatch(/10220\d|E1\d\b/);
});

test('a drive and the motor of one PowerTrain faulting together share one message under the PowerTrain name', async () => {
	const pt = powerTrain();
	const [driveId, motorId] = pt.memberIds ?? [];
	const a = sim.control.raiseEvent(driveId, { eventType: 'Fault' });
	const b = sim.control.raiseEvent(motorId, { eventType: 'Fault' });
	await pollOnce(bot);
	await drain(bot, 15_000);
	const carrying = slack
		.posts()
		.filter(
			(m) =>
				!m.threadTs &&
				(JSON.stringify(m.blocks).includes(`event ${String(a.id)}`) ||
					JSON.stringify(m.blocks).includes(`event ${String(b.id)}`)),
		);
	expect(carrying).toHaveLength(1);
	expect(carrying[0].text).toContain(`PowerTrain ${pt.name}`);
	expect(String(carrying[0].metadata?.event_payload.alerts).split(',').sort()).toEqual(
		[String(a.id), String(b.id)].sort(),
	);
	sim.control.closeEvent(motorId, Number(b.id), 'Motor reset');
	await pollOnce(bot);
	await waitFor('the motor resolved in the shared message', () =>
		/Resolved [^"]*· event /.test(JSON.stringify(carrying[0].blocks)),
	);
	expect(JSON.stringify(carrying[0].blocks)).toContain(`Open · event ${String(a.id)}`);
	expect(slack.problems).toEqual([]);
});

test('a route to an unknown asset group is refused at start with the closest names; --lenient warns and starts', async () => {
	const detail = await bot.directory.detail(
		sim.fleet.assets().find((a) => a.assetType === 'Drive')?.id as number,
	);
	const group = String(detail.assetGroup);
	const typo = `${group.slice(0, -1)}x`;
	const bad = {
		...config,
		alerts: { ...config.alerts, routes: [{ assetGroup: typo, channel: '#pumps' }] },
	};
	const other = tempStateFile();
	try {
		const refused = startTestBot({
			sim,
			slackApiUrl: slack.apiUrl,
			botToken,
			stateFile: other.file,
			logger,
			config: bad,
		});
		await expect(refused).rejects.toThrow(ConfigError);
		await expect(refused).rejects.toThrow(
			`no asset group "${typo}" on the platform; did you mean "${group}"`,
		);
		const lenient = await startTestBot({
			sim,
			slackApiUrl: slack.apiUrl,
			botToken,
			stateFile: other.file,
			logger,
			config: bad,
			lenient: true,
		});
		await lenient.stop();
		expect(
			lines.some((l) => l.includes('warn') && l.includes(`"${typo}"`) && l.includes('--lenient')),
		).toBe(true);
	} finally {
		other.cleanup();
	}
});

test('digest wording: singular, an all-clear header for resolutions only, a footer that says what happens on close', () => {
	const asset = {
		id: 7,
		name: 'Pump 3 drive',
		serialNumber: 'D1',
		organization: 'o',
		group: 'g',
		plant: 'p',
	};
	const alert = {
		key: '7:1',
		eventId: '1',
		severity: 'Fault',
		asset,
		code: '2310',
		content: 'Overcurrent',
		eventTime: '2026-11-21T14:00:00Z',
		status: 'Open' as const,
		hasLogger: false,
	};
	const one = digestMessage([alert], [], 'UTC');
	expect(one.text).toContain('1 alert (1 Fault)');
	expect(one.text).not.toContain('alerts');
	expect(JSON.stringify(one.blocks)).toContain(':rotating_light:');
	expect(JSON.stringify(one.blocks)).not.toContain('posted in this thread');
	const closes = digestMessage([], [{ ...alert, status: 'Close' }], 'UTC');
	expect(JSON.stringify(closes.blocks[0])).toContain(':white_check_mark:');
	expect(JSON.stringify(closes.blocks[0])).not.toContain(':rotating_light:');
});

test('a digest is updated when an alert it lists closes: its line shows resolved and a reply goes to its thread', async () => {
	const drives = sim.fleet
		.assets()
		.filter((a) => a.assetType === 'Drive' && a.level !== 'expired' && a.powerTrainId === null)
		.slice(0, 5);
	// The first post waits out a 429 (1 s), so every fault of the pass is waiting by then: a digest.
	slack.rateLimitNext('chat.postMessage', 1);
	const events = drives.map((d) => ({
		drive: d,
		event: sim.control.raiseEvent(d.id, { eventType: 'Fault' }),
	}));
	await pollOnce(bot);
	await drain(bot, 20_000);
	const digest = slack.posts().find((m) => !m.threadTs && m.text.startsWith('Alert digest'));
	expect(digest).toBeDefined();
	const listed = events.filter(({ event }) =>
		String(digest?.metadata?.event_payload.alerts).split(',').includes(String(event.id)),
	);
	expect(listed.length).toBeGreaterThanOrEqual(3);
	const { drive, event } = listed[0];
	sim.control.closeEvent(drive.id, Number(event.id), 'Reset');
	await pollOnce(bot);
	await waitFor('the digest updated', () =>
		JSON.stringify(digest?.blocks).includes(
			`event ${String(event.id)} :white_check_mark: resolved`,
		),
	);
	await waitFor('the reply in its thread', () =>
		slack.posts().find((m) => m.threadTs === digest?.ts && m.text.includes('resolved')),
	);
	expect(JSON.stringify(digest?.blocks)).toContain(
		'Each line is updated here when its alert closes',
	);
	expect(slack.problems).toEqual([]);
});
