import { enqueueCbmDigestIfDue } from '../../bot/leader/jobs/cbm-digest';
import { Dispatcher } from '../../bot/leader/outbox/dispatcher';
import type { AlertRecord, CbmAlert } from '../../bot/kernel/alert';
import { parseConfig } from '../../bot/config/load';
import { createNotifierClient, SlackNotifier } from '../../bot/slack/notifier';
import { openTestDatabase } from './store-under-test';
import { alertState } from '../../bot/features/alerts/state';
import { SqlScope } from '../../bot/state/scope';
import { capturingLogger, fakeSlackToken } from './helpers';
import { drain } from './leader';
import { SlackApiServer } from './slack-server';

const token = fakeSlackToken('b');
let slack: SlackApiServer;
const asset = {
	id: 1,
	name: 'Pump 1 drive',
	serialNumber: 'D1',
	organization: 'Harbor',
	group: 'Pumps',
	plant: 'North',
};
const alert = (i: number): AlertRecord => ({
	key: `1:${i}`,
	eventId: String(i),
	severity: 'Fault',
	asset,
	code: '2310',
	content: 'Overcurrent',
	eventTime: '2026-11-21T00:00:00Z',
	status: 'Open',
	hasLogger: false,
});

beforeAll(async () => {
	slack = await new SlackApiServer({ token }).start();
});
afterAll(() => slack.close());

test('a 429 makes only its channel wait for Retry-After; the other channel goes on and nothing is lost', async () => {
	const store = alertState(SqlScope.of(await openTestDatabase(':memory:')));
	const { logger, lines } = capturingLogger();
	// Faster than Slack allows, so the server answers 429 and the dispatcher must wait it out.
	const dispatcher = new Dispatcher(
		store,
		{ notifier: new SlackNotifier(createNotifierClient(token, slack.apiUrl), 'UTC') },
		{ postsPerSecond: 10, stormPerMinute: 1000, digestBacklog: 1000, logger },
	);
	await store.scope.transaction(async (scope) => {
		const tx = alertState(scope);
		for (let i = 0; i < 3; i++)
			await tx.outbox.enqueue('#busy', { kind: 'alert', alert: alert(i) });
		await tx.outbox.enqueue('#quiet', { kind: 'alert', alert: alert(100) });
	});
	const started = Date.now();
	dispatcher.kick();
	await drain({ dispatcher, state: store }, 15_000);
	const quiet = slack.calls.find((c) => c.ok && c.body.channel === '#quiet');
	const busy = slack.calls.filter((c) => c.ok && c.body.channel === '#busy');
	expect(busy).toHaveLength(3);
	expect(dispatcher.stats.rateLimited).toBeGreaterThan(0);
	expect(slack.rateLimited).toBe(dispatcher.stats.rateLimited);
	// The quiet channel was served at once, not after #busy's waits.
	expect((quiet?.at ?? Infinity) - started).toBeLessThan(900);
	expect(busy[2].at - started).toBeGreaterThanOrEqual(1900);
	expect(lines.some((l) => l.includes('#busy rate limited'))).toBe(true);
	await dispatcher.stop();
	await store.scope.database.close();
});

test('a post and an update whose answers were lost (the connection reset after Slack made them) are found in Slack, not made again', async () => {
	const store = alertState(SqlScope.of(await openTestDatabase(':memory:')));
	const { logger, lines } = capturingLogger();
	const dispatcher = new Dispatcher(
		store,
		{ notifier: new SlackNotifier(createNotifierClient(token, slack.apiUrl), 'UTC') },
		{ postsPerSecond: 10, stormPerMinute: 1000, digestBacklog: 1000, logger },
	);
	const open = alert(500);
	await store.alerts.putEvent(open);
	slack.dropAnswerOfNext('chat.postMessage', 1);
	await store.outbox.enqueue('#lossy', { kind: 'alert', alert: open });
	dispatcher.kick();
	await drain({ dispatcher, state: store }, 20_000);
	const channel = slack.channelId('#lossy');
	const messages = slack.posts().filter((m) => m.channel === channel && !m.threadTs);
	expect(messages).toHaveLength(1);

	const closed: AlertRecord = { ...open, status: 'Close' };
	await store.alerts.putEvent(closed);
	slack.dropAnswerOfNext('chat.update', 1);
	await store.outbox.enqueue('#lossy', { kind: 'resolve', alert: closed });
	dispatcher.kick();
	await drain({ dispatcher, state: store }, 20_000);
	const updates = slack.calls.filter(
		(c) => c.method === 'chat.update' && c.body.ts === messages[0].ts,
	);
	expect(updates).toHaveLength(1);
	expect(messages[0].text).toMatch(/Resolved/);
	expect(slack.posts().filter((m) => m.threadTs === messages[0].ts)).toHaveLength(1);
	expect(dispatcher.stats.reconciled).toBe(2);
	expect(
		lines.filter((l) => l.includes('had reached Slack before the answer was lost')),
	).toHaveLength(2);
	await dispatcher.stop();
	await store.scope.database.close();
});

test('refreshes of one alert queued before the dispatcher got to them make one update, drawn from the alert as it is last', async () => {
	const store = alertState(SqlScope.of(await openTestDatabase(':memory:')));
	const { logger } = capturingLogger();
	const dispatcher = new Dispatcher(
		store,
		{ notifier: new SlackNotifier(createNotifierClient(token, slack.apiUrl), 'UTC') },
		{ postsPerSecond: 10, stormPerMinute: 1000, digestBacklog: 1000, logger },
	);
	const open = alert(700);
	await store.alerts.putEvent(open);
	await store.outbox.enqueue('#merge', { kind: 'alert', alert: open });
	dispatcher.kick();
	await drain({ dispatcher, state: store }, 20_000);
	const channel = slack.channelId('#merge');
	const [message] = slack.posts().filter((m) => m.channel === channel && !m.threadTs);
	// Two changes, each with its refresh, and another alert's refresh between them: none sent yet.
	const other = alert(701);
	await store.alerts.putEvent(other);
	await store.alerts.putEvent({ ...open, content: 'Overcurrent, seen by the first' });
	await store.outbox.enqueue('#merge', { kind: 'refresh', key: open.key });
	await store.outbox.enqueue('#merge', { kind: 'refresh', key: other.key });
	await store.alerts.putEvent({ ...open, content: 'Overcurrent, seen by the second' });
	await store.outbox.enqueue('#merge', { kind: 'refresh', key: open.key });
	dispatcher.kick();
	await drain({ dispatcher, state: store }, 20_000);
	expect(
		slack.calls.filter((c) => c.method === 'chat.update' && c.body.ts === message.ts),
	).toHaveLength(1);
	expect(JSON.stringify(message.blocks)).toContain('seen by the second');
	expect(await store.outbox.pending('#merge', 10)).toEqual([]);
	await dispatcher.stop();
	await store.scope.database.close();
});

test('the daily CBM digest is enqueued once per local day, after the configured time, per channel', async () => {
	const store = alertState(SqlScope.of(await openTestDatabase(':memory:')));
	const config = parseConfig({
		timeZone: '+08:00',
		cbm: { dailyDigestAt: '08:00' },
		alerts: { routes: [{ severity: ['Fault'], channel: '#red' }], defaultChannel: '#all' },
	});
	const unit = (status: string, name: string): CbmAlert => ({
		key: `1:${name}`,
		asset,
		unit: name,
		status,
		kpis: [],
	});
	await store.cbm.putStatus(unit('Red', 'Fan'));
	await store.cbm.putStatus(unit('Yellow', 'Capacitor'));
	await store.cbm.putStatus(unit('Good', 'IGBT'));
	expect(await enqueueCbmDigestIfDue(store, config, new Date('2026-11-20T23:59:00Z'))).toBe(false); // 07:59 local
	expect(await enqueueCbmDigestIfDue(store, config, new Date('2026-11-21T00:01:00Z'))).toBe(true); // 08:01 local
	expect(await enqueueCbmDigestIfDue(store, config, new Date('2026-11-21T09:00:00Z'))).toBe(false); // same local day
	const red = (await store.outbox.pending('#red', 10)).map((c) => c.item);
	const all = (await store.outbox.pending('#all', 10)).map((c) => c.item);
	expect(red).toEqual([
		{ kind: 'cbm_digest', day: '2026-11-21', units: [expect.objectContaining({ unit: 'Fan' })] },
	]);
	expect(all).toEqual([
		{
			kind: 'cbm_digest',
			day: '2026-11-21',
			units: [expect.objectContaining({ unit: 'Capacitor' })],
		},
	]);
	expect(await enqueueCbmDigestIfDue(store, config, new Date('2026-11-22T00:30:00Z'))).toBe(true); // next local day
	await store.scope.database.close();
});
