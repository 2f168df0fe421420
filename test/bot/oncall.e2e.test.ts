import { drain, pollOnce } from './leader';
import type { App } from '@slack/bolt';
import { ACK_ACTION, MUTE_ACTION } from '../../bot/blocks/alert';
import type { Bot } from '../../bot/app/start';
import { startSimulator, type Simulator } from '../../simulator';
import { shutdown, type SimAsset, startBotWithApp, topMessagesOf } from './harness';
import {
	buttonClickBody,
	capturingLogger,
	fakeSlackToken,
	postToSlackApp,
	slashCommandBody,
	tempStateFile,
	waitFor,
} from './helpers';
import { blockKitProblems, SlackApiServer } from './slack-server';

// Acknowledge, take over, mute (button and command), reminders with mentions, links, 429s and
// the request window: the real Bolt app over signed requests, its Web API the local Slack server.
const botToken = fakeSlackToken('b');
const signingSecret = `sign-${Math.random().toString(36).slice(2)}`;
const { logger, lines } = capturingLogger();
const state = tempStateFile();
let sim: Simulator;
let slack: SlackApiServer;
let bot: Bot;
let app: App;
let url = '';
let drives: SimAsset[];

const config = {
	source: { kind: 'poll', pollIntervalSeconds: 3600 },
	cbm: { enabled: false },
	oncall: { checkIntervalSeconds: 0.2 },
	links: {
		assetPage: 'https://portal.example/assets/{assetId}',
		runbooks: { default: 'https://wiki.example/runbooks/{code}' },
	},
	alerts: {
		defaultChannel: '#maint',
		routes: [
			{
				channel: '#maint',
				mention: ['@maint-oncall'],
				remindAfter: '10s',
				escalateAfter: '15s',
				escalateMention: ['U0BOSS'],
			},
		],
	},
};

beforeAll(async () => {
	sim = await startSimulator({ push: false });
	slack = await new SlackApiServer({
		token: botToken,
		usergroups: [{ id: 'S0ONCALL', handle: 'maint-oncall', name: 'Maintenance on-call' }],
	}).start();
	drives = sim.fleet.assets().filter((a) => a.assetType === 'Drive' && a.level !== 'expired');
	await startAll();
});

/** The bot and its Bolt app on the same state file (again after a restart). */
async function startAll(): Promise<void> {
	({ bot, app, url } = await startBotWithApp({
		sim,
		slackApiUrl: slack.apiUrl,
		botToken,
		signingSecret,
		stateFile: state.file,
		logger,
		config,
	}));
}

afterAll(async () => {
	await app?.stop();
	await shutdown({ bot, slack, sim, state });
});

async function faultMessage(drive: SimAsset) {
	const event = sim.control.raiseEvent(drive.id, { eventType: 'Fault' });
	await pollOnce(bot);
	// Seen once in a loaded full run and never since: the bot's last lines say why, if it comes back.
	const [message] = await waitFor(
		'the fault message',
		() => topMessagesOf(slack, event.id).length > 0 && topMessagesOf(slack, event.id),
	).catch((error: Error) => {
		throw new Error(
			`${error.message} of event ${String(event.id)} on asset ${drive.id}; the bot's last lines above debug:\n${lines
				.filter((line) => !line.includes(' debug '))
				.slice(-25)
				.join('\n')}`,
		);
	});
	// Seen in Slack is not yet recorded by the bot (it writes where it posted when Slack answers; on PostgreSQL a
	// few round trips later): a button pressed in between would find no message to update.
	await drain(bot, 10_000);
	return { event, message };
}

/** A press of a button; `text`: its label as the presser saw it. */
function click(actionId: string, value: string, id: string, user: string, text?: string) {
	return postToSlackApp(
		url,
		signingSecret,
		buttonClickBody({ actionId, value, responseUrl: slack.responseUrl(id), user, text }),
	);
}

const actionOf = (blocks: unknown[], actionId: string) =>
	(
		blocks as Array<{
			type: string;
			elements?: Array<{
				action_id?: string;
				value?: string;
				url?: string;
				text?: { text: string };
			}>;
		}>
	)
		.flatMap((b) => b.elements ?? [])
		.find((e) => e.action_id === actionId);

test('Acknowledge shows who took the fault, a second person takes it over, and it survives a restart', async () => {
	const { event, message } = await faultMessage(drives[0]);
	const ack = actionOf(message.blocks, ACK_ACTION);
	expect(ack?.value).toBeDefined();
	// Links: the asset page and the runbook of the event code, as URL buttons.
	const urls = (message.blocks as Array<{ elements?: Array<{ url?: string }> }>)
		.flatMap((b) => b.elements ?? [])
		.map((e) => e.url)
		.filter(Boolean);
	expect(urls).toEqual([
		`https://portal.example/assets/${drives[0].id}`,
		`https://wiki.example/runbooks/${String(event.eventCode)}`,
	]);
	expect(ack?.text?.text).toBe('Acknowledge');
	expect(
		(await click(ACK_ACTION, ack?.value as string, 'ack-1', 'U0ALICE', 'Acknowledge')).status,
	).toBe(200);
	await waitFor('the acknowledged message', () =>
		JSON.stringify(message.blocks).includes('Acknowledged by <@U0ALICE>'),
	);
	expect(
		String(
			(await waitFor('the answer', () => slack.responses.find((r) => r.id === 'ack-1')?.body)).text,
		),
	).toContain('You acknowledged');
	expect(actionOf(message.blocks, ACK_ACTION)).toMatchObject({
		value: ack?.value,
		text: { text: 'Take over' },
	});
	// Bob's Acknowledge from a message not yet updated leaves it with Alice and says so; his Take over takes it.
	await click(ACK_ACTION, ack?.value as string, 'ack-late', 'U0BOB', 'Acknowledge');
	expect(
		String(
			(await waitFor('the answer', () => slack.responses.find((r) => r.id === 'ack-late')?.body))
				.text,
		),
	).toMatch(/^<@U0ALICE> holds .* already .*press Take over/);
	expect((await bot.oncall.store.getAck(`${drives[0].id}:${String(event.id)}`))?.userId).toBe(
		'U0ALICE',
	);
	await click(ACK_ACTION, ack?.value as string, 'ack-2', 'U0BOB', 'Take over');
	await waitFor(
		'the take-over',
		() =>
			JSON.stringify(message.blocks).includes('Acknowledged by <@U0BOB>') &&
			JSON.stringify(message.blocks).includes('took over from <@U0ALICE>'),
	);
	// Persisted: a restarted bot still shows Bob, and a close still resolves the message.
	await app.stop();
	await bot.stop();
	await startAll();
	expect((await bot.oncall.store.getAck(`${drives[0].id}:${String(event.id)}`))?.userId).toBe(
		'U0BOB',
	);
	sim.control.closeEvent(drives[0].id, Number(event.id), 'Fixed by Bob');
	await pollOnce(bot);
	await waitFor('the resolved message', () => message.text.includes('Resolved'));
	expect(JSON.stringify(message.blocks)).toContain('Fixed by Bob');
	expect(topMessagesOf(slack, event.id)).toHaveLength(1);
});

test('an unacknowledged fault is re-announced in its thread mentioning the on-call group, then escalated; acknowledged ones are not', async () => {
	const { message } = await faultMessage(drives[1]);
	const { message: taken } = await faultMessage(drives[2]);
	await click(ACK_ACTION, actionOf(taken.blocks, ACK_ACTION)?.value as string, 'ack-3', 'U0CAROL');
	const reminder = await waitFor(
		'the reminder',
		() => slack.posts().find((m) => m.threadTs === message.ts && m.text.includes('Reminder')),
		40_000,
	);
	expect(reminder.text).toContain('<!subteam^S0ONCALL>');
	const escalation = await waitFor(
		'the escalation',
		() => slack.posts().find((m) => m.threadTs === message.ts && m.text.includes('Escalation')),
		40_000,
	);
	expect(escalation.text).toContain('<@U0BOSS>');
	await drain(bot, 10_000);
	expect(slack.posts().filter((m) => m.threadTs === taken.ts)).toEqual([]);
	// Each goes out once.
	expect(
		slack.posts().filter((m) => m.threadTs === message.ts && m.text.includes('Reminder')),
	).toHaveLength(1);
});

test('a 429 on a digest post after it updated an earlier message repeats neither the update nor anything else', async () => {
	const { event, message } = await faultMessage(drives[6]);
	await drain(bot, 10_000);
	const callsBefore = slack.calls.length;
	const updatesBefore = message.updates;
	// The first attempt is refused (Retry-After 1 s), so the whole pass is waiting by the next one.
	slack.rateLimitNext('chat.postMessage', 3);
	// Three new faults and the close of the first, in one pass: one digest that also updates it.
	const more = [7, 8, 9].map((i) => sim.control.raiseEvent(drives[i].id, { eventType: 'Fault' }));
	sim.control.closeEvent(drives[6].id, Number(event.id), 'Reset');
	await pollOnce(bot);
	await drain(bot, 30_000);
	const digest = slack
		.posts()
		.find(
			(m) =>
				!m.threadTs &&
				m.text.startsWith('Alert digest') &&
				more.every((e) =>
					String(m.metadata?.event_payload.alerts).split(',').includes(String(e.id)),
				),
		);
	expect(digest).toBeDefined();
	expect(message.text).toContain('Resolved');
	expect(message.updates - updatesBefore).toBe(1);
	const calls = slack.calls.slice(callsBefore);
	expect(calls.filter((c) => c.status === 429).length).toBe(3);
	const accepted = calls
		.filter((c) => c.ok && c.method.startsWith('chat.'))
		.map((c) =>
			JSON.stringify([c.method, c.body.channel, c.body.ts, c.body.text, c.body.thread_ts]),
		);
	expect(new Set(accepted).size).toBe(accepted.length);
});

test('a 429 in the middle of a close never repeats a call Slack accepted', async () => {
	const { event, message } = await faultMessage(drives[5]);
	await drain(bot, 10_000);
	const callsBefore = slack.calls.length;
	slack.rateLimitNext('chat.postMessage', 3);
	sim.control.closeEvent(drives[5].id, Number(event.id), 'Reset');
	await pollOnce(bot);
	await waitFor(
		'the thread reply',
		() => slack.posts().find((m) => m.threadTs === message.ts && m.text.includes('resolved')),
		30_000,
	);
	const calls = slack.calls.slice(callsBefore);
	expect(calls.filter((c) => c.status === 429).length).toBe(3);
	const accepted = calls
		.filter((c) => c.ok && c.method.startsWith('chat.'))
		.map((c) =>
			JSON.stringify([c.method, c.body.channel, c.body.ts, c.body.text, c.body.thread_ts]),
		);
	expect(accepted.length).toBe(2);
	expect(new Set(accepted).size).toBe(accepted.length);
	expect(message.updates).toBe(1);
});

test('a press Slack delivers again (its retry, the same body) acts once: one change, one message update, one answer', async () => {
	const { event, message } = await faultMessage(drives[10]);
	const key = `${drives[10].id}:${String(event.id)}`;
	const body = buttonClickBody({
		actionId: ACK_ACTION,
		value: actionOf(message.blocks, ACK_ACTION)?.value as string,
		responseUrl: slack.responseUrl('ack-once'),
		user: 'U0DAVE',
		text: 'Acknowledge',
	});
	const updatesBefore = message.updates;
	expect((await postToSlackApp(url, signingSecret, body)).status).toBe(200);
	// Slack's retry: the same body, signed again, with its retry headers; then the same request once more.
	expect(
		(
			await postToSlackApp(url, signingSecret, body, {
				headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
			})
		).status,
	).toBe(200);
	expect((await postToSlackApp(url, signingSecret, body)).status).toBe(200);
	await waitFor('the acknowledged message', () =>
		JSON.stringify(message.blocks).includes('Acknowledged by <@U0DAVE>'),
	);
	await drain(bot, 10_000);
	expect(await bot.oncall.store.getAck(key)).toMatchObject({ userId: 'U0DAVE', previous: [] });
	expect(message.updates - updatesBefore).toBe(1);
	expect(
		slack.responses.filter((r) => r.id === 'ack-once').map((r) => String(r.body.text)),
	).toEqual([expect.stringMatching(/^You acknowledged/)]);
	expect(
		lines.filter((l) => l.includes('block_actions') && l.includes('not acted on again')),
	).toHaveLength(2);
});

// Mutes a whole group and plant: runs after the tests that need alerts posted.
test('Mute 2 h and /drive mute record alerts without posting; unmute posts one summary; /drive status and mutes show silences', async () => {
	const drive = drives[3];
	const { message } = await faultMessage(drive);
	await click(
		MUTE_ACTION,
		actionOf(message.blocks, MUTE_ACTION)?.value as string,
		'mute-1',
		'U0ALICE',
	);
	await waitFor('the muted message', () => JSON.stringify(message.blocks).includes('Muted until'));
	const before = slack.posts().length;
	const during = sim.control.raiseEvent(drive.id, { eventType: 'Fault' });
	await pollOnce(bot);
	await drain(bot, 10_000);
	expect(topMessagesOf(slack, during.id)).toEqual([]);
	await postToSlackApp(
		url,
		signingSecret,
		slashCommandBody({
			command: '/drive',
			text: `status ${drive.serialNumber}`,
			responseUrl: slack.responseUrl('status-muted'),
		}),
	);
	expect(
		JSON.stringify(
			(await waitFor('status', () => slack.responses.find((r) => r.id === 'status-muted')?.body))
				.blocks,
		),
	).toContain('muted until');
	await postToSlackApp(
		url,
		signingSecret,
		slashCommandBody({
			command: '/drive',
			text: 'mutes',
			responseUrl: slack.responseUrl('mutes-1'),
		}),
	);
	expect(
		String(
			(await waitFor('mutes', () => slack.responses.find((r) => r.id === 'mutes-1')?.body)).text,
		),
	).toContain('1 active silence');
	await postToSlackApp(
		url,
		signingSecret,
		slashCommandBody({
			command: '/drive',
			text: `unmute ${drive.serialNumber}`,
			responseUrl: slack.responseUrl('unmute-1'),
			user: 'U0ALICE',
		}),
	);
	const summary = await waitFor(
		'the summary',
		() => slack.posts().find((m) => !m.threadTs && m.text.startsWith('Silence on')),
		20_000,
	);
	expect(summary.text).toContain('1 alert during it, 1 still open');
	expect(JSON.stringify(summary.blocks)).toContain(`event ${String(during.id)}`);
	expect(slack.posts().length).toBeGreaterThan(before);
	// A mute command for a whole group, then the same group's alerts stay quiet.
	const group = (await bot.directory.detail(drives[4].id)).assetGroup as string;
	await postToSlackApp(
		url,
		signingSecret,
		slashCommandBody({
			command: '/drive',
			text: `mute group ${group} 1h pump swap`,
			responseUrl: slack.responseUrl('mute-2'),
		}),
	);
	expect(
		String(
			(await waitFor('mute answer', () => slack.responses.find((r) => r.id === 'mute-2')?.body))
				.text,
		),
	).toContain(`Muted group ${group} for 1 h`);
	// A plant by name (from the organization tree); a typo gets the closest names.
	const plant = String((await bot.directory.detail(drives[4].id)).plant);
	await postToSlackApp(
		url,
		signingSecret,
		slashCommandBody({
			command: '/drive',
			text: `mute plant ${plant.slice(0, -1)}q 30m`,
			responseUrl: slack.responseUrl('mute-3'),
		}),
	);
	expect(
		String(
			(await waitFor('typo answer', () => slack.responses.find((r) => r.id === 'mute-3')?.body))
				.text,
		),
	).toContain(`did you mean "${plant}"`);
	await postToSlackApp(
		url,
		signingSecret,
		slashCommandBody({
			command: '/drive',
			text: `mute ${plant} 30m`,
			responseUrl: slack.responseUrl('mute-4'),
		}),
	);
	expect(
		String(
			(await waitFor('plant answer', () => slack.responses.find((r) => r.id === 'mute-4')?.body))
				.text,
		),
	).toContain(`Muted plant ${plant} for 30 min`);
});

test('request timestamps more than 5 minutes away in either direction are refused', async () => {
	const body = slashCommandBody({
		command: '/drive',
		text: 'help',
		responseUrl: slack.responseUrl('future'),
	});
	const now = Math.floor(Date.now() / 1000);
	expect((await postToSlackApp(url, signingSecret, body, { timestamp: now + 6 * 60 })).status).toBe(
		401,
	);
	expect((await postToSlackApp(url, signingSecret, body, { timestamp: now - 6 * 60 })).status).toBe(
		401,
	);
	expect(
		(
			await postToSlackApp(url, signingSecret, body.replace('future', 'near'), {
				timestamp: now + 4 * 60,
			})
		).status,
	).toBe(200);
	await waitFor('the answer within the window', () => slack.responses.find((r) => r.id === 'near'));
	expect(slack.responses.some((r) => r.id === 'future')).toBe(false);
});

test('every message the bot sent stays within Block Kit limits with unique action ids', () => {
	expect(slack.problems).toEqual([]);
	for (const m of slack.posts()) {
		expect(blockKitProblems(m.text, m.blocks)).toEqual([]);
		const ids = (m.blocks as Array<{ elements?: Array<{ action_id?: string }> }>)
			.flatMap((b) => b.elements ?? [])
			.map((e) => e.action_id)
			.filter(Boolean);
		expect(new Set(ids).size).toBe(ids.length);
	}
});
