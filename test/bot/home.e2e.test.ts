/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { pollConnectivityOnce, pollOnce } from './leader';
import type { App } from '@slack/bolt';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../../bot/config/load';
import type { Bot } from '../../bot/app/start';
import { createSlackApp } from '../../bot/slack/app';
import type { Simulator } from '../../simulator';
import { fakeSlackToken, postToSlackApp, waitFor } from './helpers';
import { cbmDrive, startTestBot } from './harness';
import { useFixture } from './use-fixture';
import type { SlackApiServer } from './slack-server';

// App Home: opening the Home tab publishes the fleet at a glance, fresh.
const botToken = fakeSlackToken('b');
const signingSecret = `sign-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
const f = useFixture(botToken, { push: false });
let sim: Simulator;
let slack: SlackApiServer;
let bot: Bot;
let app: App;
let url = '';

beforeAll(async () => {
	({ sim, slack } = f);
	bot = f.bot = await startTestBot({
		sim,
		slackApiUrl: slack.apiUrl,
		botToken,
		stateFile: f.state.file,
		logger: f.logger,
		now: () => sim.clock.now(),
		config: { connectivity: { minOfflineMinutes: 10 } },
	});
	app = createSlackApp({
		botToken,
		mode: { kind: 'http', signingSecret },
		slackApiUrl: slack.apiUrl,
		commands: bot.commands,
		home: bot.home,
		config: parseConfig({}),
		logger: f.logger,
	});
	const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
});
afterAll(() => app?.stop());

async function openHome(user: string): Promise<string> {
	const body = JSON.stringify({
		token: 'legacy-verification-token',
		team_id: 'T0001',
		api_app_id: 'A0DRIVE',
		type: 'event_callback',
		event_id: `Ev${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
		event_time: Math.floor(Date.now() / 1000),
		event: {
			type: 'app_home_opened',
			user,
			channel: 'D0HOME01',
			tab: 'home',
			event_ts: `${Date.now() / 1000}`,
		},
	});
	const before = slack.homeViews.get(user)?.publishedAt ?? 0;
	const answer = await postToSlackApp(url, signingSecret, body, {
		contentType: 'application/json',
	});
	expect(answer.status).toBe(200);
	const view = await waitFor('the published Home tab', () => {
		const published = slack.homeViews.get(user);
		return published && published.publishedAt > before && published;
	});
	return JSON.stringify(view.blocks);
}

/** The open-fault count the Home tab shows for a group (0 when the group is not listed). */
function openFaultsOf(home: string, group: string): number {
	const escaped = group.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const match = new RegExp(`\\*${escaped}\\*: (\\d+) open faults?`).exec(home);
	return match ? Number(match[1]) : 0;
}

test('the Home tab shows open faults by group, CBM units Yellow or Red and offline assets, and refreshes when opened', async () => {
	const empty = await openHome('U0ALICE');
	expect(empty).toContain('No open fault.');
	expect(empty).toContain('No silence is active.');

	const drive = cbmDrive(sim);
	const detail = await bot.directory.detail(drive.id);
	// The seeded history may hold faults of the last hour still open in this group (which ones
	// depends on the time of day the test runs), so the raised fault is counted on top of them.
	await pollOnce(bot, true);
	const before = openFaultsOf(await openHome('U0ALICE'), detail.assetGroup ?? '');
	sim.control.raiseEvent(drive.id, { eventType: 'Fault' });
	sim.control.setCbmUnit(drive.id, 'Fan', 'Red');
	await pollOnce(bot, true);
	const other =
		sim.fleet
			.assets()
			.find((a) => a.assetType === 'Drive' && a.id !== drive.id && a.level !== 'expired') ?? drive;
	await pollConnectivityOnce(bot);
	sim.control.setGatewayOnline(other.id, false);
	sim.clock.advance(15 * 60_000);
	await pollConnectivityOnce(bot);
	// A maintenance window set by command is listed with its reason.
	const muted = await bot.commands.handle(`mute ${other.serialNumber} 2h gateway swap`, {
		user: 'U0ALICE',
	});
	// Its end is told in the bot's time zone, as every time it shows.
	expect(muted).toMatchObject({
		kind: 'notice',
		message: expect.stringMatching(/until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \(UTC\+08:00\)/),
	});

	const home = await openHome('U0ALICE');
	expect(home).toContain('gateway swap');
	expect(home).not.toContain('No silence is active.');
	expect(openFaultsOf(home, detail.assetGroup ?? '')).toBe(before + 1);
	expect(home).toContain(drive.serialNumber);
	expect(home).toContain('*Fan* of');
	expect(home).toContain('Red');
	expect(home).toContain(other.serialNumber);
	expect(home).toContain('offline');
	expect(slack.problems).toEqual([]);
});
