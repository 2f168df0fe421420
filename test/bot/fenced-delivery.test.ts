// The outbox's Slack calls are fenced: a leader checks its lease before every call, the KPI chart upload that follows
// a CBM warning's post included. The outbox runs with the bot's own notifier and publisher against the local Slack
// server; the lease is lost right after the post's check (the window a frozen leader wakes in): the post is made, the
// upload is not.
import { drain } from './leader';
import { FencedOut } from '../../bot/cluster/fence';
import { alertState } from '../../bot/features/alerts/state';
import type { CbmAlert } from '../../bot/kernel/alert';
import { Dispatcher } from '../../bot/leader/outbox/dispatcher';
import { fencedDelivery } from '../../bot/leader/outbox/fenced';
import { createNotifierClient, SlackNotifier } from '../../bot/slack/notifier';
import { createPublisherClient, SlackPublisher } from '../../bot/slack/publisher';
import { SqlScope } from '../../bot/state/scope';
import { capturingLogger, fakeSlackToken, waitFor } from './helpers';
import { SlackApiServer } from './slack-server';
import { openTestDatabase } from './store-under-test';

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
const warning: CbmAlert = {
	key: '7:Fan',
	asset,
	unit: 'Fan',
	status: 'Yellow',
	kpis: Array.from({ length: 30 }, (_, i) => ({
		date: `2026-11-${String(i + 1).padStart(2, '0')}`,
		kpi: 80 - i,
	})),
};

/**
 * The outbox of a replica whose lease holds for `checks` more checks of its Slack calls; `passes`: how many times its
 * outbox loop still finds it leading (the loop's own check, made before the fenced call).
 */
async function replica(checks: number, passes = Infinity) {
	let left = checks;
	let loops = passes;
	const { logger, lines } = capturingLogger();
	const check = () => {
		if (left-- <= 0) throw new FencedOut(1, 2);
	};
	const state = alertState(SqlScope.of(await openTestDatabase(':memory:')));
	const dispatcher = new Dispatcher(
		state,
		fencedDelivery(
			{
				notifier: new SlackNotifier(createNotifierClient(token, slack.apiUrl), 'UTC'),
				publisher: new SlackPublisher(createPublisherClient(token, slack.apiUrl)),
			},
			check,
		),
		{
			postsPerSecond: 10,
			stormPerMinute: 1000,
			digestBacklog: 1000,
			logger,
			maySend: () => loops-- > 0,
		},
	);
	const close = async () => {
		await dispatcher.stop();
		await state.scope.database.close();
	};
	return { state, dispatcher, lines, close };
}

/** The methods of the Slack calls made since `from` (an index into slack.calls). */
function callsSince(from: number): string[] {
	return slack.calls.slice(from).map((c) => c.method);
}

test("a leader's CBM warning is posted with its KPI chart in the thread", async () => {
	const from = slack.calls.length;
	const r = await replica(Infinity);
	await r.state.outbox.enqueue('#cbm-lead', { kind: 'cbm', cbm: warning });
	r.dispatcher.kick();
	await drain(r, 15_000);
	const methods = callsSince(from);
	expect(methods).toContain('chat.postMessage');
	expect(methods).toContain('files.completeUploadExternal');
	const [posted] = slack
		.posts()
		.filter((m) => m.channel === slack.channelId('#cbm-lead') && !m.threadTs);
	const shared = slack.calls.slice(from).find((c) => c.method === 'files.completeUploadExternal');
	expect(shared?.body.thread_ts).toBe(posted.ts);
	await r.close();
});

test('a leader that lost its lease right after the post was checked makes the post and no upload after it', async () => {
	const from = slack.calls.length;
	const r = await replica(1);
	await r.state.outbox.enqueue('#cbm-lost', { kind: 'cbm', cbm: warning });
	r.dispatcher.kick();
	await drain(r, 15_000);
	expect(callsSince(from)).toEqual(['chat.postMessage']);
	expect(
		r.lines.some(
			(l) =>
				l.includes('KPI chart of 7:Fan not uploaded') && l.includes('leadership (epoch 1) ended'),
		),
	).toBe(true);
	await r.close();
});

test('a replica whose lease ended after its outbox loop checked it makes neither the post nor the upload', async () => {
	const from = slack.calls.length;
	// One pass for the kick, one for the loop: then it no longer leads.
	const r = await replica(0, 2);
	await r.state.outbox.enqueue('#cbm-standby', { kind: 'cbm', cbm: warning });
	r.dispatcher.kick();
	await waitFor('the call left to the replica that leads', () =>
		r.lines.some((l) => l.includes('left to the replica that leads now')),
	);
	expect(callsSince(from)).toEqual([]);
	expect(await r.state.outbox.countPending()).toBe(1);
	await r.close();
});
