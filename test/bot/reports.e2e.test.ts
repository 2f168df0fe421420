/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { App } from '@slack/bolt';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../../bot/config/load';
import type { Bot } from '../../bot/app/start';
import { createSlackApp } from '../../bot/slack/app';
import type { Simulator } from '../../simulator';
import { fakeSlackToken, postToSlackApp, slashCommandBody, waitFor } from './helpers';
import { pushUserFor, type SimAsset, startTestBot } from './harness';
import { useFixture } from './use-fixture';
import type { SlackApiServer, StoredMessage, UploadedFile } from './slack-server';

// Reports in Slack: asked for by command or by schedule, followed by the AssetReport
// push (or E22 when polling), the PDF uploaded with files.uploadV2 into the thread of the message.
const botToken = fakeSlackToken('b');
const signingSecret = `sign-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
const CHANNEL = 'C0MAINT01';

/** A drive that can be reported: Basic or better, added long before the period. */
function reportableDrive(sim: Simulator): SimAsset {
	const now = sim.clock.now();
	const drive = sim.fleet
		.assets()
		.find(
			(a) =>
				a.assetType === 'Drive' &&
				a.powerTrainId === null &&
				['Basic', 'Standard', 'Premium'].includes(a.level) &&
				Date.parse(a.createdOn) < now - 120 * 86_400_000,
		);
	if (!drive) throw new Error('no reportable drive in the simulated fleet');
	return drive;
}

function creatingMessage(slack: SlackApiServer, title: string): StoredMessage | undefined {
	return slack.posts().find((m) => !m.threadTs && m.text.includes(`“${title}”`));
}

function pdfIn(slack: SlackApiServer, message: StoredMessage): UploadedFile | undefined {
	return [...slack.files.values()].find(
		(f) => f.channel === message.channel && f.threadTs === message.ts && f.data !== undefined,
	);
}

describe('with the push channel, through the Bolt app', () => {
	const f = useFixture(botToken);
	let sim: Simulator;
	let slack: SlackApiServer;
	let bot: Bot;
	let app: App;
	let url = '';
	let drive: SimAsset;

	beforeAll(async () => {
		({ sim, slack } = f);
		drive = reportableDrive(sim);
		const push = await pushUserFor(sim, drive.orgId, f.logger);
		bot = f.bot = await startTestBot({
			sim,
			slackApiUrl: slack.apiUrl,
			botToken,
			stateFile: f.state.file,
			logger: f.logger,
			push,
			orgId: drive.orgId,
			now: () => sim.clock.now(),
		});
		app = createSlackApp({
			botToken,
			mode: { kind: 'http', signingSecret },
			slackApiUrl: slack.apiUrl,
			commands: bot.commands,
			config: parseConfig({}),
			logger: f.logger,
		});
		const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
	});
	afterAll(() => app?.stop());

	async function command(text: string, id: string) {
		const answer = await postToSlackApp(
			url,
			signingSecret,
			slashCommandBody({
				command: '/drive',
				text,
				responseUrl: slack.responseUrl(id),
				channel: CHANNEL,
			}),
		);
		expect(answer.status).toBe(200);
		return waitFor(`the answer ${id}`, () => slack.responses.find((r) => r.id === id)?.body);
	}

	test('a report requested by command arrives as a PDF in the thread of its "creating" message', async () => {
		const answer = await command(`report ${drive.serialNumber} 7d Weekly check`, 'r1');
		expect(String(answer.text)).toContain('Creating “Weekly check”');
		const message = await waitFor('the creating message', () =>
			creatingMessage(slack, 'Weekly check'),
		);
		expect(message.channel).toBe(CHANNEL);
		expect(message.text).toContain('Creating');
		// The platform takes 20 s of its time to make a report; then it pushes AssetReport.
		sim.clock.advance(25_000);
		const file = await waitFor('the PDF in the thread', () => pdfIn(slack, message));
		expect(file.data?.subarray(0, 4).toString('latin1')).toBe('%PDF');
		expect(file.filename).toMatch(/\.pdf$/);
		await waitFor(
			'the message saying it is ready',
			() => message.updates > 0 && message.text.includes('ready'),
		);
		expect(
			slack.calls.filter((c) => c.method === 'files.completeUploadExternal' && c.ok),
		).toHaveLength(1);
		expect(slack.problems).toEqual([]);
	});

	test('a report the platform fails is announced as failed, with a likely reason, in its thread', async () => {
		await command(`report ${drive.serialNumber} 30d Doomed report`, 'r2');
		const message = await waitFor('the creating message', () =>
			creatingMessage(slack, 'Doomed report'),
		);
		const [job] = (await bot.reports?.pending()) ?? [];
		expect(job?.title).toBe('Doomed report');
		sim.control.finishReport(job.reportId, 'Failed');
		await waitFor(
			'the message saying it failed',
			() => message.updates > 0 && message.text.includes('could not make it'),
		);
		const reply = await waitFor('the failure in the thread', () =>
			slack.posts().find((m) => m.threadTs === message.ts),
		);
		expect(reply.text).toMatch(/reason/i);
		expect(pdfIn(slack, message)).toBeUndefined();
		expect((await bot.reports?.job(job.reportId))?.status).toBe('failed');
	});

	test('bad periods are refused before any request, in a sentence', async () => {
		sim.requests.clear();
		expect(String((await command(`report ${drive.serialNumber} 3d`, 'r3')).text)).toContain(
			'7 to 90 days',
		);
		expect(
			String((await command(`report ${drive.serialNumber} 2026-01-01..2026-06-30`, 'r4')).text),
		).toContain('7 to 90 days');
		expect(String((await command('report no-such-asset-anywhere 7d', 'r5')).text)).toContain(
			'No asset or asset group',
		);
		expect(sim.requests.api('E21')).toEqual([]);
	});

	test('no secret in the logs', () => {
		expect(f.lines.join('\n')).not.toContain(botToken);
	});
});

describe('by polling (no push channel)', () => {
	const f = useFixture(botToken, { push: false });
	let sim: Simulator;
	let slack: SlackApiServer;
	let bot: Bot;
	const start = (config?: Record<string, unknown>) =>
		startTestBot({
			sim,
			slackApiUrl: slack.apiUrl,
			botToken,
			stateFile: f.state.file,
			logger: f.logger,
			now: () => sim.clock.now(),
			config,
		}).then((b) => (bot = f.bot = b));

	beforeAll(() => {
		({ sim, slack } = f);
	});

	test('a report asked for by command is followed by E22 and its PDF posted in the thread', async () => {
		const drive = reportableDrive(sim);
		await start();
		const answer = await bot.commands.handle(`report "${drive.serialNumber}" 7d Polled report`, {
			channel: CHANNEL,
			user: 'U0ALICE',
		});
		expect(answer.kind).toBe('report_started');
		const message = await waitFor('the creating message', () =>
			creatingMessage(slack, 'Polled report'),
		);
		await bot.reports?.checkPending();
		expect(pdfIn(slack, message)).toBeUndefined(); // still Creating on the platform
		sim.clock.advance(25_000);
		await bot.reports?.checkPending();
		const file = await waitFor('the PDF in the thread', () => pdfIn(slack, message));
		expect(file.data?.subarray(0, 4).toString('latin1')).toBe('%PDF');
		expect(sim.requests.api('E22').length).toBeGreaterThanOrEqual(2);
	});

	test('a group is a fleet report of its drives and motors, delivered as one PDF', async () => {
		const drive = reportableDrive(sim);
		const group = (await bot.directory.detail(drive.id)).assetGroup as string;
		// The operator sees every organization: a group name several of them use must be named by id.
		const byName = await bot.commands.handle(`report "${group}" 30d`, { channel: CHANNEL });
		if (byName.kind === 'refused') expect(byName.message).toContain(`group:${drive.groupId}`);
		const answer =
			byName.kind === 'report_started'
				? byName
				: await bot.commands.handle(`report group:${drive.groupId} 30d`, { channel: CHANNEL });
		if (answer.kind !== 'report_started')
			throw new Error(`expected a started report, got ${JSON.stringify(answer)}`);
		expect(answer.what).toMatch(new RegExp(`^fleet report of group ${group} \\(\\d+ assets\\)$`));
		// Assets the platform would refuse (Entry, no active subscription, too young) are left out and said.
		const members = sim.fleet
			.assets()
			.filter((a) => a.groupId === drive.groupId && a.assetType !== 'PowerTrain');
		const reportable = members.filter(
			(a) =>
				['Basic', 'Standard', 'Premium'].includes(a.level) &&
				!a.unsubscribed &&
				Date.parse(a.createdOn) < sim.clock.now() - 7 * 86_400_000,
		);
		expect(answer.what).toContain(`(${reportable.length} assets)`);
		if (reportable.length < members.length) expect(answer.note).toMatch(/^Left out/);
		expect(answer.title).toBe(`Fleet report ${group}`);
		const message = await waitFor('the creating message', () =>
			creatingMessage(slack, `Fleet report ${group}`),
		);
		sim.clock.advance(25_000);
		await bot.reports?.checkPending();
		const file = await waitFor('the fleet PDF', () => pdfIn(slack, message));
		expect(file.data?.subarray(0, 4).toString('latin1')).toBe('%PDF');
	});

	test('a report whose file cannot be fetched is tried again, then given up and said in its thread', async () => {
		const drive = reportableDrive(sim);
		await bot.commands.handle(`report ${drive.serialNumber} 7d Unfetchable`, { channel: CHANNEL });
		const message = await waitFor('the creating message', () =>
			creatingMessage(slack, 'Unfetchable'),
		);
		sim.faults.add({ paths: ['/files/report/'], malformedRate: 1, malformedKind: 'html' });
		sim.clock.advance(25_000);
		const job = (await bot.reports?.pending())?.find((j) => j.title === 'Unfetchable');
		for (let i = 0; i < 5; i++) await bot.reports?.checkPending();
		sim.faults.clear();
		expect((await bot.reports?.job(job?.reportId ?? 0))?.status).toBe('failed');
		const said = await waitFor('the thread reply', () =>
			slack.posts().find((m) => m.threadTs === message.ts),
		);
		expect(said.text).toContain('could not be posted here');
		expect(pdfIn(slack, message)).toBeUndefined();
	});

	test('an asset added less than 7 days ago is refused before any request, with the date it can be reported from', async () => {
		const young = sim.fleet
			.assets()
			.find(
				(a) =>
					a.assetType !== 'PowerTrain' &&
					Date.parse(a.createdOn) > sim.clock.now() - 7 * 86_400_000,
			);
		expect(young).toBeDefined();
		sim.requests.clear();
		const answer = await bot.commands.handle(`report ${young?.serialNumber} 7d`, {
			channel: CHANNEL,
		});
		expect(answer.kind === 'refused' && answer.message).toMatch(
			/less than 7 days ago; the platform reports on it from \d{4}-\d{2}-\d{2}/,
		);
		expect(sim.requests.api('E21')).toEqual([]);
		await bot.stop();
	});

	test('an occurrence fires once across restarts in the middle of its minute, and one missed while down fires on start', async () => {
		const drive = reportableDrive(sim);
		const minute = 60_000;
		const now = sim.clock.now();
		// The next minute boundary at least 20 s away, and the one 3 minutes after it (UTC cron times).
		const first = Math.ceil((now + 20_000) / minute) * minute;
		const second = first + 3 * minute;
		const cron = (t: number) => `${new Date(t).getUTCMinutes()} ${new Date(t).getUTCHours()} * * *`;
		const config = {
			reports: [
				{
					cron: cron(first),
					asset: drive.serialNumber,
					days: 7,
					channel: '#line-reports',
					title: 'Daily line A',
					timeZone: 'UTC',
				},
				{
					cron: cron(second),
					asset: drive.id,
					days: 7,
					channel: '#line-reports',
					title: 'Daily line B',
					timeZone: 'UTC',
				},
			],
		};
		sim.requests.clear();
		const e21 = () => sim.requests.api('E21').filter((r) => r.status === 200).length;
		const settle = () => new Promise((resolve) => setTimeout(resolve, 2500));

		await start(config);
		await settle();
		expect(e21()).toBe(0);
		// The bot is running when the first occurrence comes.
		sim.clock.advance(first + 10_000 - sim.clock.now());
		await waitFor('the first occurrence requested', () => e21() === 1);
		// Restarted in the middle of that minute: not again.
		await bot.stop();
		sim.clock.advance(20_000);
		await start(config);
		await settle();
		expect(e21()).toBe(1);
		// Down across the second occurrence, back in the middle of its minute: it fires once, at start.
		await bot.stop();
		sim.clock.advance(second + 30_000 - sim.clock.now());
		await start(config);
		await waitFor('the missed occurrence requested on start', () => e21() === 2);
		await bot.stop();
		sim.clock.advance(5_000);
		await start(config);
		await settle();
		expect(e21()).toBe(2);
		// Both reports reach their channel as PDFs (polling E22: no push here).
		sim.clock.advance(25_000);
		await bot.reports?.checkPending();
		for (const title of ['Daily line A', 'Daily line B']) {
			const message = await waitFor(`the message of ${title}`, () => creatingMessage(slack, title));
			expect(message.channel).toBe(slack.channelId('#line-reports'));
			const file = await waitFor(`the PDF of ${title}`, () => pdfIn(slack, message));
			expect(file.data?.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		}
		expect(slack.posts().filter((m) => !m.threadTs && m.text.includes('Daily line'))).toHaveLength(
			2,
		);
	}, 60_000);
});

test('a schedule whose cron is not one is refused with the configuration, naming it', () => {
	expect(() =>
		parseConfig({ reports: [{ cron: '61 8 * * MON', group: 'Line 3', channel: '#line3' }] }),
	).toThrow(/reports\.0\.cron \(found "61 8 \* \* MON"\): .*five fields/);
	expect(() => parseConfig({ reports: [{ cron: '0 8 * * MON', channel: '#line3' }] })).toThrow(
		/name either a group or an asset/,
	);
	expect(
		parseConfig({ reports: [{ cron: '0 8 * * MON', group: 'Line 3', channel: '#line3' }] })
			.reports[0].days,
	).toBe(7);
});
