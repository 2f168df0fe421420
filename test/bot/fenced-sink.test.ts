// The outbox's Slack calls are fenced (issue 26): a leader checks its lease before every call, the KPI chart upload
// that follows a CBM warning's post included. The bot's own Slack sinks talk to the local Slack server; the lease is
// lost right after the post's check (the window a frozen leader wakes in): the post is made, the upload is not.
import { fencedDelivery } from '../../bot/leader/outbox/fenced';
import type { Notice } from '../../bot/kernel/notice';
import { createPublisherClient, SlackPublisher } from '../../bot/slack/publisher';
import { createNotifierClient, SlackNotifier } from '../../bot/slack/notifier';
import { FencedOut } from '../../bot/cluster/fence';
import { capturingLogger, fakeSlackToken } from './helpers';
import { SlackApiServer } from './slack-server';

const token = fakeSlackToken('b');
let slack: SlackApiServer;

beforeAll(async () => {
	slack = await new SlackApiServer({ token }).start();
});
afterAll(() => slack.close());

const asset = {
	id: 7,
	name: 'Fan 7 drive',
	serialNumber: 'D7',
	organization: 'Harbor',
	group: 'Fans',
	plant: 'North',
};
const warning: Notice = {
	kind: 'cbm',
	cbm: {
		key: '7:Fan',
		asset,
		unit: 'Fan',
		status: 'Yellow',
		kpis: Array.from({ length: 30 }, (_, i) => ({
			date: `2026-11-${String(i + 1).padStart(2, '0')}`,
			kpi: 80 - i,
		})),
	},
};

/** The outbox sink of a replica whose lease holds for `checks` more checks. */
function replica(checks: number) {
	let left = checks;
	const { logger, lines } = capturingLogger();
	const check = () => {
		if (left-- <= 0) throw new FencedOut(1, 2);
	};
	const sink = fencedDelivery(
		new SlackNotifier(createNotifierClient(token, slack.apiUrl), 'UTC'),
		new SlackPublisher(createPublisherClient(token, slack.apiUrl)),
		check,
		logger,
	);
	return { sink, lines };
}

/** The methods of the Slack calls made since `from` (an index into slack.calls). */
function callsSince(from: number): string[] {
	return slack.calls.slice(from).map((c) => c.method);
}

test("a leader's CBM warning is posted with its KPI chart in the thread", async () => {
	const from = slack.calls.length;
	const { sink } = replica(Infinity);
	const posted = await sink.post('#cbm-lead', warning);
	const methods = callsSince(from);
	expect(methods).toContain('chat.postMessage');
	expect(methods).toContain('files.completeUploadExternal');
	const shared = slack.calls.slice(from).find((c) => c.method === 'files.completeUploadExternal');
	expect(shared?.body.thread_ts).toBe(posted.ts);
});

test('a leader that lost its lease right after the post was checked makes the post and no upload after it', async () => {
	const from = slack.calls.length;
	const { sink, lines } = replica(1);
	await sink.post('#cbm-lost', warning);
	const methods = callsSince(from);
	expect(methods).toEqual(['chat.postMessage']);
	expect(
		lines.some(
			(l) =>
				l.includes('KPI chart of 7:Fan not uploaded') && l.includes('leadership (epoch 1) ended'),
		),
	).toBe(true);
});

test('a replica that does not lead makes neither the post nor the upload', async () => {
	const from = slack.calls.length;
	const { sink } = replica(0);
	await expect(sink.post('#cbm-standby', warning)).rejects.toThrow(FencedOut);
	expect(callsSince(from)).toEqual([]);
});
