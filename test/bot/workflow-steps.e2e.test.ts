/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { drain, pollOnce } from './leader';
import type { App } from '@slack/bolt';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import type { Bot } from '../../bot/app/start';
import { startSimulator, type Simulator } from '../../simulator';
import { shutdown, type SimAsset, startAppFor, startBotWithApp, topMessagesOf } from './harness';
import { capturingLogger, fakeSlackToken, tempStateFile, waitFor } from './helpers';
import { type FunctionDefinition, SlackApiServer, type StepRun } from './slack-server';

// The Workflow Builder steps run as Slack runs them: a signed function_executed event
// to the real Bolt app, which acknowledges it and completes the step with functions.completeSuccess
// or functions.completeError, each checked against the step's definition in the manifest.
const manifest = parse(
	readFileSync(path.resolve(__dirname, '..', '..', 'bot', 'manifest.yml'), 'utf8'),
) as { functions: Record<string, FunctionDefinition> };
const botToken = fakeSlackToken('b');
const signingSecret = `sign-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
const { logger, lines } = capturingLogger();
const state = tempStateFile();
const CHANNEL = 'C0MAINT01';
const config = { cbm: { enabled: false }, alerts: { defaultChannel: '#maint' }, links: {} };
let sim: Simulator;
let slack: SlackApiServer;
let bot: Bot;
const apps: App[] = [];
let url = '';
let drives: SimAsset[];

beforeAll(async () => {
	sim = await startSimulator({ push: false, reportGenerationMs: 1000 });
	slack = await new SlackApiServer({ token: botToken, functions: manifest.functions }).start();
	drives = sim.fleet
		.assets()
		.filter((a) => a.assetType === 'Drive' && a.powerTrainId === null && a.level !== 'expired');
	const started = await startBotWithApp({
		sim,
		slackApiUrl: slack.apiUrl,
		botToken,
		signingSecret,
		stateFile: state.file,
		logger,
		config,
		stepLimits: { readMs: 4000, reportCheckMs: 100 },
	});
	({ bot, url } = started);
	apps.push(started.app);
	await pollOnce(bot);
});

afterAll(async () => {
	for (const app of apps) await app.stop();
	await shutdown({ bot, slack, sim, state });
});

/** Runs a step and waits for its completion; the event must be acknowledged at once. */
async function step(
	callbackId: string,
	inputs: Record<string, unknown>,
	target = url,
	whileWaiting?: () => Promise<unknown>,
): Promise<StepRun> {
	const run = await slack.runStep(target, signingSecret, callbackId, inputs);
	expect(run.ack.status).toBe(200);
	expect(run.ack.ms).toBeLessThan(3000);
	await waitFor(
		`step ${callbackId} to complete`,
		() => {
			if (!run.outcome && whileWaiting) void whileWaiting();
			return run.outcome;
		},
		30_000,
	);
	return run;
}

const outputs = (run: StepRun) =>
	run.outcome?.kind === 'success'
		? run.outcome.outputs
		: expect(run.outcome).toMatchObject({ kind: 'success' });
const error = (run: StepRun) =>
	run.outcome?.kind === 'error'
		? run.outcome.error
		: String(expect(run.outcome).toMatchObject({ kind: 'error' }));

async function fault(drive: SimAsset) {
	const event = sim.control.raiseEvent(drive.id, { eventType: 'Fault' });
	await pollOnce(bot);
	const [message] = await waitFor(
		'the fault message',
		() => topMessagesOf(slack, event.id).length > 0 && topMessagesOf(slack, event.id),
	);
	// Seen in Slack is not yet recorded by the bot (where it posted is written when Slack answers).
	await drain(bot, 10_000);
	return { event, message };
}

test('Get asset status answers with state, open faults, health, CBM and a link, in the declared output types', async () => {
	const { event } = await fault(drives[0]);
	const run = await step('get_asset_status', { asset: drives[0].serialNumber });
	const out = outputs(run) as Record<string, unknown>;
	expect(String(out.asset_name)).toContain(drives[0].serialNumber);
	expect(out.open_faults).toBeGreaterThanOrEqual(1);
	expect(String(out.health)).toMatch(/^Overall: /);
	expect(String(out.state)).toMatch(
		/^(online \(last state|offline since|unknown: no state since) \d{4}-\d{2}-\d{2} /,
	);
	expect(typeof out.cbm).toBe('string');
	// No asset page configured: the link of its open alert in Slack.
	const [message] = topMessagesOf(slack, event.id);
	expect(out.permalink).toBe(
		`https://example.slack.com/archives/${message.channel}/p${message.ts.replace('.', '')}`,
	);
	expect(JSON.stringify(out)).not.toMatch(/:[a-z_]+:/);
	expect(slack.problems).toEqual([]);
});

test('an unknown asset fails the step with the sentence /drive status gives, suggestions included', async () => {
	const typo = `${drives[1].serialNumber.slice(0, -1)}X`;
	const message = error(await step('get_asset_status', { asset: typo }));
	expect(message).toContain(`No asset matches ${typo}`);
	expect(message).toContain(drives[1].serialNumber);
});

test('a slow platform fails the step within its limit with what to do, and the event is still acknowledged at once', async () => {
	sim.faults.set({ latencyMs: 8000 });
	try {
		const run = await step('get_asset_status', { asset: String(drives[2].id) });
		expect(error(run)).toMatch(
			/took longer than 4 s, so the step stopped .* run the workflow again in a few minutes/,
		);
		expect((run.outcome?.at ?? 0) - run.startedAt).toBeLessThan(7000);
	} finally {
		sim.faults.clear();
	}
});

test('List open faults filters by group, plant and alert channel, with event numbers to act on', async () => {
	const { event } = await fault(drives[3]);
	const group = (await bot.directory.detail(drives[3].id)).assetGroup as string;
	const byGroup = outputs(await step('list_open_faults', { group })) as Record<string, unknown>;
	expect(byGroup.count).toBeGreaterThanOrEqual(1);
	expect(String(byGroup.faults)).toContain(`event ${String(event.id)}`);
	expect(String(byGroup.faults)).toContain('not acknowledged');
	const byChannel = outputs(
		await step('list_open_faults', { channel: slack.channelId('#maint') }),
	) as Record<string, unknown>;
	expect(byChannel.count).toBe(
		(await bot.state.alerts.openAlerts()).filter((a) => a.severity === 'Fault').length,
	);
	const none = outputs(await step('list_open_faults', { plant: 'Nowhere Plant' })) as Record<
		string,
		unknown
	>;
	expect(none).toEqual({ count: 0, faults: 'No open fault in plant Nowhere Plant.' });
	// A mistyped group is said, with the closest name, rather than listed as empty.
	expect(error(await step('list_open_faults', { group: `${group.slice(0, -1)}x` }))).toContain(
		`did you mean "${group}"`,
	);
});

test('Acknowledge fault and Take over fault change the on-call state as the buttons do, and update the alert message', async () => {
	const { event, message } = await fault(drives[4]);
	const taken = outputs(
		await step('acknowledge_fault', { alert: String(event.id), user: 'U0ALICE' }),
	) as Record<string, unknown>;
	expect(taken).toMatchObject({ event_id: String(event.id), holder: 'U0ALICE' });
	expect(taken.previous_holder).toBeUndefined();
	await waitFor('the acknowledged message', () =>
		JSON.stringify(message.blocks).includes('Acknowledged by <@U0ALICE>'),
	);
	// Acknowledge does not take a fault from someone; Take over does, by the message's link too.
	expect(
		error(await step('acknowledge_fault', { alert: String(event.id), user: 'U0BOB' })),
	).toContain('<@U0ALICE> already holds');
	const link = `https://example.slack.com/archives/${message.channel}/p${message.ts.replace('.', '')}`;
	const over = outputs(await step('take_over_fault', { alert: link, user: 'U0BOB' })) as Record<
		string,
		unknown
	>;
	expect(over).toMatchObject({ holder: 'U0BOB', previous_holder: 'U0ALICE' });
	await waitFor('the take-over', () =>
		JSON.stringify(message.blocks).includes('took over from <@U0ALICE>'),
	);
	expect((await bot.oncall.store.getAck(`${drives[4].id}:${String(event.id)}`))?.userId).toBe(
		'U0BOB',
	);
	expect(error(await step('take_over_fault', { alert: '999999999', user: 'U0BOB' }))).toContain(
		'No open alert matches "999999999"',
	);
	expect(error(await step('take_over_fault', { alert: 'pump 3', user: 'U0BOB' }))).toContain(
		'is not an alert reference',
	);
});

/** A drive the platform can report on: Basic or better, added long before the period. */
function reportableDrive(): SimAsset {
	const now = sim.clock.now();
	const drive = drives.find(
		(a) =>
			['Basic', 'Standard', 'Premium'].includes(a.level) &&
			Date.parse(a.createdOn) < now - 120 * 86_400_000,
	);
	if (!drive) throw new Error('no reportable drive in the simulated fleet');
	return drive;
}

test('Request report completes with the PDF link once the platform made it; bad input fails before any request', async () => {
	const drive = reportableDrive();
	const check = async () => bot.reports?.checkPending();
	const run = await step(
		'request_report',
		{
			target: drive.serialNumber,
			period: '7d',
			title: 'Shift check',
			channel: CHANNEL,
			user: 'U0ALICE',
		},
		url,
		check,
	);
	const out = outputs(run) as Record<string, unknown>;
	expect(out.report_title).toBe('Shift check');
	expect(String(out.period)).toMatch(/^\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/);
	const file = [...slack.files.values()].find((f) => f.title === 'Shift check');
	expect(file?.channel).toBe(CHANNEL);
	expect(out.file_url).toBe(`https://example.slack.com/files/U0BOT/${file?.id}/${file?.filename}`);
	sim.requests.clear();
	expect(
		error(
			await step('request_report', {
				target: drive.serialNumber,
				period: 'fortnight',
				channel: CHANNEL,
			}),
		),
	).toContain('"fortnight" is not a period');
	expect(
		error(
			await step('request_report', { target: drive.serialNumber, period: '3d', channel: CHANNEL }),
		),
	).toContain('A report covers 7 to 90 days');
	expect(sim.requests.api('E21')).toHaveLength(0);
});

test('a report the platform is slow to make fails the step at its limit, saying the PDF still comes', async () => {
	const { app, url: impatient } = await startAppFor(bot, {
		botToken,
		slackApiUrl: slack.apiUrl,
		logger,
		config,
		signingSecret,
		stepLimits: { reportMs: 1500, reportCheckMs: 100 },
	});
	apps.push(app);
	// The platform is slow to say the report is ready (its report list, E22, answers after 5 s), so
	// the step's limit passes first whenever the bot's own check of pending reports runs.
	sim.faults.set({ paths: [/\/assetdata\/\d+\/report$/], latencyMs: 5000 });
	let run: StepRun;
	try {
		run = await step(
			'request_report',
			{ target: reportableDrive().serialNumber, channel: CHANNEL },
			impatient,
		);
	} finally {
		sim.faults.clear();
	}
	expect(error(run)).toBe(
		`The report was not ready within 2 s, so the step stopped instead of holding up the workflow. The PDF is still posted in <#${CHANNEL}> when the platform has made it.`,
	);
});

test('steps leave no secret in the logs and every message stays valid Block Kit', () => {
	const all = lines.join('\n');
	expect(all).toContain('step get_asset_status completed');
	expect(all).not.toContain(botToken);
	for (const run of slack.stepRuns.values()) expect(all).not.toContain(run.token);
	expect(slack.problems).toEqual([]);
});
