/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { pollOnce } from './leader';
import type { App } from '@slack/bolt';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DETAILS_ACTION } from '../../bot/blocks/alert';
import { parseConfig } from '../../bot/config/load';
import { createPlatformClient } from '../../bot/platform/client';
import { type Bot, startBot } from '../../bot/app/start';
import { createSlackApp } from '../../bot/slack/app';
import { createNotifierClient, SlackNotifier } from '../../bot/slack/notifier';
import { startSimulator, type Simulator } from '../../simulator';
import {
	buttonClickBody,
	capturingLogger,
	fakeSlackToken,
	postToSlackApp,
	slashCommandBody,
	tempStateFile,
	waitFor,
} from './helpers';
import { SlackApiServer } from './slack-server';

const botToken = fakeSlackToken('b');
const signingSecret = `sign-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
const { logger, lines } = capturingLogger();
const state = tempStateFile();
let sim: Simulator;
let slack: SlackApiServer;
let bot: Bot;
const apps: App[] = [];
let url = '';
let restrictedUrl = '';

async function startApp(config: ReturnType<typeof parseConfig>): Promise<string> {
	const app = createSlackApp({
		botToken,
		mode: { kind: 'http', signingSecret },
		slackApiUrl: slack.apiUrl,
		commands: bot.commands,
		config,
		logger,
	});
	const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
	apps.push(app);
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
}

beforeAll(async () => {
	sim = await startSimulator({ push: false });
	slack = await new SlackApiServer({ token: botToken }).start();
	const { info } = sim;
	const vendor = info.credentials.find((c) => c.orgType === 'VENDOR') ?? info.credentials[0];
	const platform = createPlatformClient(
		{
			baseUrl: info.baseUrl,
			authUrl: info.authUrl,
			tenantId: info.tenantId,
			apiScopeId: info.apiScopeId,
			apiKey: vendor.apiKey,
			apiSecret: vendor.apiSecret,
		},
		logger,
	);
	const config = parseConfig({
		source: { kind: 'poll', pollIntervalSeconds: 3600 },
		stateFile: state.file,
	});
	bot = await startBot({
		config,
		platform,
		notifier: new SlackNotifier(createNotifierClient(botToken, slack.apiUrl), config.timeZone),
		logger,
	});
	// Its first poll pass over, so the platform requests a test sees are the command's own.
	await pollOnce(bot);
	url = await startApp(config);
	restrictedUrl = await startApp(
		parseConfig({ ...config, allow: { users: ['U0BOB'], channels: [] } }),
	);
});

afterAll(async () => {
	for (const app of apps) await app.stop();
	await bot?.stop();
	await slack?.close();
	await sim?.close();
	state.cleanup();
});

function anyDrive(filter: (a: ReturnType<Simulator['fleet']['assets']>[number]) => boolean) {
	const asset = sim.fleet.assets().find((a) => a.assetType === 'Drive' && filter(a));
	if (!asset) throw new Error('no such drive in the simulated fleet');
	return asset;
}

async function command(text: string, id: string, options: { user?: string; target?: string } = {}) {
	const body = slashCommandBody({
		command: '/drive',
		text,
		responseUrl: slack.responseUrl(id),
		user: options.user,
	});
	const answer = await postToSlackApp(options.target ?? url, signingSecret, body);
	return answer;
}

function responseTo(id: string) {
	return waitFor(`the answer ${id}`, () => slack.responses.find((r) => r.id === id)?.body);
}

test('a signed /drive status is acknowledged at once and answered ephemerally with the asset status', async () => {
	const drive = anyDrive((a) => a.level !== 'expired');
	const ack = await command(`status ${drive.serialNumber}`, 'status-1');
	expect(ack.status).toBe(200);
	expect(ack.ms).toBeLessThan(3000);
	const answer = await responseTo('status-1');
	expect(answer.response_type).toBe('ephemeral');
	expect(String(answer.text)).toContain(drive.serialNumber);
	const json = JSON.stringify(answer.blocks);
	expect(json).toContain('Conditions');
	expect(json).toContain('Open events');
	expect(json).toContain('Latest data');
	expect(slack.problems).toEqual([]);
});

test('/drive events 7d reads one 7-day window up to now, so a fault of this very second is listed', async () => {
	const drive = anyDrive((a) => a.level !== 'expired');
	sim.requests.clear();
	const raised = sim.control.raiseEvent(drive.id, { eventType: 'Fault' });
	await command(`events ${drive.id} 7d`, 'events-7d');
	const answer = await responseTo('events-7d');
	// The events are a table, which Slack takes in the attachments.
	expect(JSON.stringify(answer.attachments)).toContain(String(raised.content));
	expect(JSON.stringify(answer.attachments)).toContain('"type":"table"');
	const calls = sim.requests.api('E14');
	expect(calls).toHaveLength(1);
	expect(Date.parse(calls[0].query.endTime) - Date.parse(calls[0].query.startTime)).toBe(
		7 * 86_400_000,
	);
});

test('--channel posts the answer for everyone; an unknown asset gets suggestions', async () => {
	const drive = anyDrive(() => true);
	await command(`find ${drive.name} --channel`, 'find-1');
	expect((await responseTo('find-1')).response_type).toBe('in_channel');
	const typo = `${drive.serialNumber.slice(0, -1)}X`;
	await command(`status ${typo}`, 'typo-1');
	const answer = await responseTo('typo-1');
	expect(String(answer.text)).toContain(`No asset matches "${typo}"`);
	expect(JSON.stringify(answer.blocks)).toContain(drive.serialNumber);
});

test("names resolve with the n8n node's matcher (shared/resolve): #id, a whole name over a part of one, candidates by name", async () => {
	const drive = anyDrive((a) => a.level !== 'expired');
	await command(`status #${drive.id}`, 'hash-id');
	expect(String((await responseTo('hash-id')).text)).toContain(drive.serialNumber);

	// A whole name wins over a part of one: one asset's whole name, part of others' names, is that asset.
	const all = sim.fleet.assets();
	const lower = (a: { name: string }) => a.name.toLowerCase();
	const unique = all.find(
		(a) =>
			all.filter((b) => lower(b) === lower(a)).length === 1 &&
			all.some((b) => b !== a && lower(b).includes(lower(a))),
	);
	if (!unique)
		throw new Error(
			'the simulated fleet has no name that is whole for one asset and part of another',
		);
	await command(`status ${unique.name.toUpperCase()}`, 'whole-name');
	const wholeAnswer = String((await responseTo('whole-name')).text);
	expect(wholeAnswer).toMatch(/^Status of /);
	expect(wholeAnswer).toContain(unique.name);
	// Several assets with the same whole name: those are the candidates, none of the longer names.
	const repeated = all.find((a) => all.filter((b) => lower(b) === lower(a)).length > 1)!;
	await command(`status ${repeated.name}`, 'same-names');
	const ambiguous = await responseTo('same-names');
	expect(String(ambiguous.text)).toBe(`Several assets match "${repeated.name}"`);
	const listed = [...JSON.stringify(ambiguous.blocks).matchAll(/id (\d+)/g)].map((m) =>
		Number(m[1]),
	);
	expect(listed.sort()).toEqual(
		all
			.filter((a) => lower(a) === lower(repeated))
			.map((a) => a.id)
			.sort(),
	);

	await command('status pump', 'part-of-names');
	const parts = JSON.stringify((await responseTo('part-of-names')).blocks);
	const pumps = all.filter(
		(a) => lower(a).includes('pump') || a.serialNumber.toLowerCase().includes('pump'),
	).length;
	expect(pumps).toBeGreaterThan(10);
	expect(parts).toContain(
		`Several assets match *pump* (${pumps}; the first 10 by name); name one:`,
	);
	const names = [...parts.matchAll(/• ([^·]+?) \(/g)].map((m) => m[1].toLowerCase());
	expect(names.length).toBe(10);
	expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	expect(names.every((name) => name.includes('pump'))).toBe(true);
});

test('a 102403 is explained with the level the asset has and the level it needs', async () => {
	const entry = anyDrive((a) => a.level === 'Entry' || a.level === 'Basic');
	await command(`cbm ${entry.id}`, 'cbm-denied');
	const json = JSON.stringify((await responseTo('cbm-denied')).blocks);
	expect(json).toContain('need Standard or Premium');
	expect(json).toContain(`this asset is ${entry.level}`);
});

test("/drive trend answers with Slack's line chart, and without it where Slack refuses the block", async () => {
	const drive = anyDrive(
		(a) => a.assetType === 'Drive' && (a.level === 'Standard' || a.level === 'Premium'),
	);
	await command(`trend ${drive.serialNumber} current 24h`, 'trend-1');
	const charted = await responseTo('trend-1');
	expect(
		(charted.blocks as Array<{ type: string }>).some((b) => b.type === 'data_visualization'),
	).toBe(true);
	slack.refusedBlockTypes = ['data_visualization'];
	try {
		await command(`trend ${drive.serialNumber} current 24h`, 'trend-2');
		const plain = await responseTo('trend-2');
		expect(
			(plain.blocks as Array<{ type: string }>).some((b) => b.type === 'data_visualization'),
		).toBe(false);
		expect(JSON.stringify(plain.blocks)).toContain('```');
		expect(lines.some((l) => l.includes('chart block refused'))).toBe(true);
	} finally {
		slack.refusedBlockTypes = [];
	}
	expect(slack.problems).toEqual([]);
});

test('unsigned, stale and tampered requests are rejected and never answered', async () => {
	const body = slashCommandBody({
		command: '/drive',
		text: 'help',
		responseUrl: slack.responseUrl('forged'),
	});
	expect((await postToSlackApp(url, signingSecret, body, { unsigned: true })).status).toBe(401);
	expect(
		(
			await postToSlackApp(url, signingSecret, body, {
				timestamp: Math.floor(Date.now() / 1000) - 10 * 60,
			})
		).status,
	).toBe(401);
	const tampered = body.replace('text=help', 'text=health');
	expect((await postToSlackApp(url, signingSecret, body, { sendBody: tampered })).status).toBe(401);
	expect((await postToSlackApp(url, 'not-the-secret', body)).status).toBe(401);
	// A correctly signed one still works, so the rejections above were about the signature.
	const ok = await postToSlackApp(url, signingSecret, body.replace('forged', 'genuine'));
	expect(ok.status).toBe(200);
	await responseTo('genuine');
	expect(slack.responses.some((r) => r.id === 'forged')).toBe(false);
});

test('the Details button answers the clicker with the asset status', async () => {
	const drive = anyDrive((a) => a.level !== 'expired');
	const body = buttonClickBody({
		actionId: DETAILS_ACTION,
		value: String(drive.id),
		responseUrl: slack.responseUrl('details-1'),
	});
	const ack = await postToSlackApp(url, signingSecret, body);
	expect(ack.status).toBe(200);
	const answer = await responseTo('details-1');
	expect(answer.response_type).toBe('ephemeral');
	expect(answer.replace_original).toBe(false);
	expect(String(answer.text)).toContain(drive.serialNumber);
});

test('the allow-list refuses other users in the acknowledgement itself', async () => {
	const ack = await command('health', 'refused-1', { target: restrictedUrl, user: 'U0MALLORY' });
	expect(ack.status).toBe(200);
	expect(ack.text).toContain('not on the list');
	await command('help', 'allowed-1', { target: restrictedUrl, user: 'U0BOB' });
	expect(String((await responseTo('allowed-1')).text)).toContain('/drive');
	expect(slack.responses.some((r) => r.id === 'refused-1')).toBe(false);
});

test('a mention in a channel is answered in its thread with the same commands', async () => {
	const drive = anyDrive(() => true);
	const body = JSON.stringify({
		token: 'legacy-verification-token',
		team_id: 'T0001',
		api_app_id: 'A0DRIVE',
		type: 'event_callback',
		event_id: 'Ev0MENTION1',
		event_time: Math.floor(Date.now() / 1000),
		event: {
			type: 'app_mention',
			user: 'U0ALICE',
			text: `<@U0BOT> find ${drive.serialNumber}`,
			ts: '1700000000.000300',
			channel: 'C0MAINT01',
			event_ts: '1700000000.000300',
		},
	});
	expect(
		(await postToSlackApp(url, signingSecret, body, { contentType: 'application/json' })).status,
	).toBe(200);
	const reply = await waitFor('the threaded answer', () =>
		slack.posts().find((m) => m.threadTs === '1700000000.000300'),
	);
	expect(reply.channel).toBe('C0MAINT01');
	expect(JSON.stringify(reply.attachments)).toContain(drive.serialNumber);
	expect(reply.text).toContain(drive.serialNumber);
});

test('no token or signing secret appears in the logs', () => {
	expect(lines.length).toBeGreaterThan(0);
	const all = lines.join('\n');
	expect(all).not.toContain(botToken);
	expect(all).not.toContain(signingSecret);
});
