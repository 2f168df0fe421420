/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { drain } from './leader';
import { setTimeout as sleep } from 'node:timers/promises';
import type { App } from '@slack/bolt';
import { ACK_ACTION } from '../../bot/blocks/alert';
import type { Bot } from '../../bot/app/start';
import { databaseSettings } from '../../bot/state/database-url';
import { usePrivatePostgres } from '../helpers/postgres';
import { carriers, showsFinalState } from './crash-run';
import { pushUserFor, type SimAsset, startAppFor, startTestBot } from './harness';
import { buttonClickBody, fakeSlackToken, postToSlackApp, waitFor } from './helpers';
import { useFixture } from './use-fixture';

// Faults of the database: two replicas on a private PostgreSQL, a stream of faults pushed by the
// simulator that open and close, and PostgreSQL stopped for a minute in the middle of it, then started again.
// No replica crashes (jest fails a test on any unhandled rejection; both replicas still run and are ready
// again), /readyz says the database is what is missing while it is, and every fault ends in exactly one message,
// updated exactly once by its close, none left Open. The database password reaches no log line and no message.
const botToken = fakeSlackToken('b');
const pg = usePrivatePostgres();
// Shorter than production (2 s renewals, 10 s TTL): the same mechanism. Not as short as replicas.e2e.test.ts's:
// the backlog of a minute arrives at once when the database is back, and a loaded machine may then delay a renewal.
const TIMINGS = { renewEveryMs: 500, ttlMs: 5_000, marginMs: 1_500, tryEveryMs: 250 };
// Posting at 10 messages a second in a channel that takes 10: the minute's backlog leaves in seconds, one message
// per fault (Slack's 1 a second would make it digests, whose updates count every close of their lines).
const RATE = 10;
// Slack answers slowly, so the database often goes away while a post or an update is on its way to Slack.
const SLACK_LATENCY_MS = 150;
const OUTAGE_MS = 60_000;
const CHANNEL = '#db-outage';

describe('PostgreSQL stopped for a minute under a stream of faults', () => {
	const replicas: Bot[] = [];
	let app: App | undefined;
	// The fault stream runs until the test ends it (or fails: then here, before the simulator closes).
	let streaming = true;
	// Declared before the fixture's: jest runs afterAll hooks in the order declared, and the replicas must stop
	// before the simulator and the Slack server do.
	afterAll(async () => {
		streaming = false;
		if (f.slack) f.slack.onApplied = undefined;
		await app?.stop();
		await Promise.allSettled(replicas.map((r) => r.stop()));
	});
	const f = useFixture(botToken, {}, { perChannelPerSecond: RATE, latencyMs: SLACK_LATENCY_MS });

	test('no replica crashes, /readyz names the database while it is down, and every fault is posted and closed exactly once', async () => {
		const { sim, slack, logger, lines, state } = f;
		const server = pg.server();
		const database = databaseSettings({ DRIVE_BOT_DATABASE_URL: server.url() });
		if (!database) throw new Error('no database settings from the private server URL');
		const drives = sim.fleet
			.assets()
			.filter((a) => a.assetType === 'Drive' && a.level !== 'expired');
		const orgId = drives[0].orgId;
		// Drives only: a drive and its motor faulting together share one message (inhibition), which would count
		// two closes on one message.
		const mine: SimAsset[] = drives.filter((a) => a.orgId === orgId);
		const push = await pushUserFor(sim, orgId, logger);
		// One message per fault (no digests), so each close has one message of its own to update.
		const config = {
			source: { kind: 'push' },
			cbm: { enabled: false },
			alerts: {
				defaultChannel: CHANNEL,
				maxMessagesPerSecond: RATE,
				stormPerMinute: 1000,
				digestBacklog: 1000,
			},
		};
		const start = () =>
			startTestBot({
				sim,
				slackApiUrl: slack.apiUrl,
				botToken,
				stateFile: state.file,
				logger,
				database,
				leadershipTimings: TIMINGS,
				push,
				orgId,
				config,
			});
		replicas.push(...(await Promise.all([start(), start()])));
		const leaders = () => replicas.filter((r) => r.leadership()?.isLeader() && r.push.length > 0);
		await waitFor('one replica leading', () => leaders().length === 1);

		// The stream: a fault every 0.5 to 1.5 s on one of the organization's drives, a third of them closed later.
		const raised: string[] = [];
		const assetOf = new Map<string, number>();
		const closed = new Set<string>();
		const closedAt = new Map<string, number>();
		const closeOne = (id: string) => {
			closedAt.set(id, Date.now());
			sim.control.closeEvent(
				assetOf.get(id) as number,
				Number(id),
				'Reset while the database was away',
			);
			closed.add(id);
		};
		const stream = (async () => {
			while (streaming) {
				const asset = mine[raised.length % mine.length];
				const event = sim.control.raiseEvent(asset.id, { eventType: 'Fault' });
				raised.push(String(event.id));
				assetOf.set(String(event.id), asset.id);
				const open = raised.filter((id) => !closed.has(id));
				if (Math.random() < 0.35 && open.length > 1)
					closeOne(open[Math.floor(Math.random() * (open.length - 1))]);
				// The generator's pace, not a wait for the bot.
				await sleep(500 + Math.random() * 1000);
			}
		})();
		const posted = (ids: readonly string[]) =>
			ids.filter((id) => carriers(slack, id).length > 0).length;
		await waitFor('five faults posted before the outage', () => posted(raised) >= 5, 30_000);
		// Someone will press Acknowledge on an open alert while the database is away; Slack hands it to the second replica.
		const signingSecret = `outage-${Math.random().toString(36).slice(2)}`;
		const front = await startAppFor(replicas[1], {
			botToken,
			slackApiUrl: slack.apiUrl,
			logger,
			config,
			signingSecret,
		});
		app = front.app;
		const [openAlert] = await replicas[1].state.alerts.openAlerts();
		if (!openAlert) throw new Error('no open alert before the outage');

		// PostgreSQL goes away mid-stream, at the worst moment: Slack has applied a close's update and its answer is on
		// its way back (SLACK_LATENCY_MS), so the replica cannot record it.
		let stoppedAt = 0;
		slack.onApplied = (method, ok) => {
			if (method !== 'chat.update' || !ok || stoppedAt) return;
			server.stopServer();
			stoppedAt = Date.now();
		};
		await waitFor('the database stopped while an update was answered', () => stoppedAt > 0, 60_000);
		slack.onApplied = undefined;
		const raisedBefore = raised.length;
		try {
			// Every replica says why it is not ready, naming the database without its password.
			for (const replica of replicas) {
				const report = await waitFor(
					'the replica not ready for its database',
					async () => {
						const r = await replica.readiness.evaluate();
						return r.checks.database && !r.checks.database.ok && r;
					},
					30_000,
				);
				expect(report.ready).toBe(false);
				expect(report.checks.database.detail).toMatch(/^database unreachable \([A-Z0-9]+\): /);
				expect(report.checks.database.detail).toContain(database.display);
				expect(JSON.stringify(report)).not.toContain(server.password);
				expect(JSON.stringify(report)).not.toContain(encodeURIComponent(server.password));
			}
			await waitFor(
				'no replica leading while the database is down',
				() => leaders().length === 0,
				30_000,
			);
			// The button is answered with why nothing was recorded, naming the database without its password.
			const click = buttonClickBody({
				actionId: ACK_ACTION,
				value: openAlert.key,
				responseUrl: slack.responseUrl('ack-during-outage'),
			});
			expect((await postToSlackApp(front.url, signingSecret, click)).status).toBe(200);
			const answer = await waitFor('the answer to Acknowledge', () =>
				slack.responses.find((r) => r.id === 'ack-during-outage'),
			);
			expect(String(answer.body.text)).toContain(
				`The bot's database at ${database.display} cannot be reached`,
			);
			expect(String(answer.body.text)).toContain('Nothing was changed');
			expect(JSON.stringify(answer.body)).not.toContain(server.password);
			// The rest of the minute: the outage itself.
			await sleep(Math.max(0, OUTAGE_MS - (Date.now() - stoppedAt)));
			expect(raised.length).toBeGreaterThan(raisedBefore);
		} finally {
			server.startServer();
		}

		// The database is back: one replica leads again and posts what happened meanwhile.
		await waitFor('one replica leading again', () => leaders().length === 1, 60_000);
		const afterRestart = raised.length;
		await waitFor(
			'five faults raised after the restart posted',
			() => raised.length >= afterRestart + 5 && posted(raised.slice(afterRestart)) >= 5,
			60_000,
		);
		streaming = false;
		await stream;
		// None left Open: the faults still open are closed now.
		for (const id of raised.filter((x) => !closed.has(x))) closeOne(id);

		const replies = (id: string) =>
			slack
				.posts()
				.filter((m) => m.threadTs !== undefined && m.threadTs === carriers(slack, id)[0]?.ts);
		// When Slack accepted the post that carries a fault (its metadata lists the fault).
		const postedAt = (id: string) =>
			slack.accepted('chat.postMessage').find((c) => {
				const metadata = (
					typeof c.body.metadata === 'string' ? JSON.parse(c.body.metadata) : c.body.metadata
				) as { event_payload?: { alerts?: unknown } } | undefined;
				return (
					!c.body.thread_ts &&
					String(metadata?.event_payload?.alerts ?? '')
						.split(',')
						.includes(id)
				);
			})?.at;
		// A message posted while its fault was open is updated by the close exactly once, with one reply in its thread.
		// A fault the bot first saw closed (opened and closed while the database was away) is posted showing the
		// close; a close that still follows it updates it at most once.
		const closeShown = (id: string) => {
			const [message, ...more] = carriers(slack, id);
			if (!message || more.length > 0 || !showsFinalState(message, id, true)) return false;
			const before = (postedAt(id) ?? Infinity) < (closedAt.get(id) ?? 0);
			const threaded = replies(id).length;
			return before
				? message.updates === 1 && threaded === 1
				: message.updates <= 1 && threaded === message.updates;
		};
		await waitFor(
			'every fault in one message showing its close',
			() => raised.every(closeShown),
			120_000,
		).catch(() => undefined);
		for (const replica of replicas) await drain(replica, 30_000);

		const duplicates = raised.filter((id) => carriers(slack, id).length > 1);
		const lost = raised.filter((id) => carriers(slack, id).length === 0);
		const open = raised.filter(
			(id) =>
				carriers(slack, id).length === 1 && !showsFinalState(carriers(slack, id)[0], id, true),
		);
		const closedOtherThanOnce = raised
			.filter((id) => carriers(slack, id).length === 1 && !closeShown(id))
			.map((id) => ({
				id,
				updates: carriers(slack, id)[0].updates,
				replies: replies(id).length,
				postedBeforeClose: (postedAt(id) ?? Infinity) < (closedAt.get(id) ?? 0),
			}));
		expect({ duplicates, lost, open, closedOtherThanOnce }).toEqual({
			duplicates: [],
			lost: [],
			open: [],
			closedOtherThanOnce: [],
		});
		const postedOpen = raised.filter((id) => (postedAt(id) ?? Infinity) < (closedAt.get(id) ?? 0));
		// Many faults were posted open and then closed: the check above is mostly about them.
		expect(postedOpen.length).toBeGreaterThan(10);
		// The update Slack made while the database went away was found in Slack, not made again.
		expect(
			lines.some((l) =>
				/slack: update of #db-outage \S+ had reached Slack before the answer was lost; not made again/.test(
					l,
				),
			),
		).toBe(true);
		process.stderr.write(
			`database outage: ${raised.length} faults (${raisedBefore} before it, ${raised.length - raisedBefore} from its start), ${postedOpen.length} posted open and then closed\n`,
		);
		expect(raised.length - raisedBefore).toBeGreaterThan(20);

		// Both replicas still run and are ready again: one leads, the other stands by.
		for (const replica of replicas) {
			await waitFor(
				'the replica ready again',
				async () => (await replica.readiness.evaluate()).ready,
				60_000,
			);
		}
		expect(leaders()).toHaveLength(1);
		expect(replicas.filter((r) => r.leadership()?.isLeader() === false)).toHaveLength(1);
		expect(slack.problems).toEqual([]);

		// The password reaches no log line and no Slack message, raw or percent-encoded.
		const everything = [...lines, ...slack.posts().map((m) => JSON.stringify(m))].join('\n');
		expect(lines.some((l) => l.includes(database.display) || /database/i.test(l))).toBe(true);
		expect(everything).not.toContain(server.password);
		expect(everything).not.toContain(encodeURIComponent(server.password));
	}, 420_000);
});
