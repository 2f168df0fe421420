import { drain, pollOnce } from './leader';
import type { Bot } from '../../bot/app/start';
import { databaseSettings } from '../../bot/state/database-url';
import { usePrivatePostgres } from '../helpers/postgres';
import { capturingLogger, fakeSlackToken, waitFor } from './helpers';
import { startTestBot, topMessagesOf } from './harness';
import { useFixture } from './use-fixture';

// Two replicas of the bot on one PostgreSQL: one leads (reads the platform, posts), the other answers
// Slack into the shared outbox; when the leader stops, the other takes over and nothing is posted twice.
const botToken = fakeSlackToken('b');
const pg = usePrivatePostgres();
// Shorter than production (2 s renewals, 10 s TTL) so a take-over fits a test; the same mechanism.
const TIMINGS = { renewEveryMs: 300, ttlMs: 2_000, marginMs: 600, tryEveryMs: 200 };

describe('two replicas on one PostgreSQL', () => {
	const f = useFixture(botToken, { push: false });
	const replicas: Bot[] = [];
	afterAll(async () => {
		await Promise.allSettled(replicas.map((r) => r.stop()));
	});

	test('one leads and posts, the other answers Slack through the shared outbox, and takes over when the leader stops', async () => {
		const { sim, slack, logger, state } = f;
		const database = databaseSettings({ DRIVE_BOT_DATABASE_URL: pg.server().url() });
		const start = () =>
			startTestBot({
				sim,
				slackApiUrl: slack.apiUrl,
				botToken,
				stateFile: state.file,
				logger,
				database,
				leadershipTimings: TIMINGS,
			});
		replicas.push(...(await Promise.all([start(), start()])));
		const leaderOf = () => replicas.filter((r) => r.leadership()?.isLeader() && r.poll);
		const [leader] = await waitFor(
			'one replica leading',
			() => leaderOf().length === 1 && leaderOf(),
		);
		const standby = replicas.find((r) => r !== leader) as Bot;
		expect(standby.leadership()?.isLeader()).toBe(false);
		// Only the leader reads the platform.
		expect(standby.poll).toBeUndefined();
		expect(standby.sources()).toEqual([]);
		expect((await standby.readiness.evaluate()).checks.leadership?.detail).toMatch(/^standby/);
		expect((await leader.readiness.evaluate()).checks.leadership?.detail).toMatch(
			/^leader \(epoch \d+\)/,
		);

		const drives = sim.fleet
			.assets()
			.filter((a) => a.assetType === 'Drive' && a.level !== 'expired');
		const first = sim.control.raiseEvent(drives[0].id, { eventType: 'Fault' });
		await pollOnce(leader);
		const message = await waitFor('the fault message', () => topMessagesOf(slack, first.id)[0]);
		await drain(leader, 10_000);

		// Someone presses Acknowledge, and Slack hands it to the standby: the leader sends the update.
		const alert = (await standby.state.alerts.openAlerts()).find(
			(a) => a.eventId === String(first.id),
		);
		if (!alert) throw new Error('the standby does not see the open alert in the shared store');
		expect(await standby.oncall.acknowledge([alert.key], 'U0ALICE')).toMatch(/^You acknowledged/);
		await waitFor('the acknowledged message', () =>
			JSON.stringify(message.blocks).includes('Acknowledged by <@U0ALICE>'),
		);

		// The leader stops (a deploy); the standby takes over and goes on where it stopped.
		await leader.stop();
		replicas.splice(replicas.indexOf(leader), 1);
		await waitFor(
			'the standby leading',
			() => standby.leadership()?.isLeader() && standby.poll,
			20_000,
		);
		const second = sim.control.raiseEvent(drives[1].id, { eventType: 'Fault' });
		sim.control.closeEvent(drives[0].id, Number(first.id), 'Fan replaced');
		await pollOnce(standby);
		await waitFor('the second fault', () => topMessagesOf(slack, second.id)[0]);
		await waitFor('the close of the first, in its message', () =>
			message.text.includes('Resolved'),
		);
		await drain(standby, 10_000);
		for (const event of [first, second]) expect(topMessagesOf(slack, event.id)).toHaveLength(1);
		expect(slack.problems).toEqual([]);
	}, 120_000);
});

describe('schedules on two replicas', () => {
	const f = useFixture(botToken, { push: false });
	const replicas: Bot[] = [];
	afterAll(async () => {
		f.sim?.faults.clear();
		await Promise.allSettled(replicas.map((r) => r.stop()));
	});

	test('reports still Creating are checked by the leader only; the standby takes them over when it leads', async () => {
		const { sim, slack, state } = f;
		// A database of its own: nothing left by the other replicas of this file.
		const admin = await pg.connect();
		await admin.query('CREATE DATABASE report_checks');
		const database = databaseSettings({
			DRIVE_BOT_DATABASE_URL: pg
				.server()
				.url()
				.replace(/\/[^/]+$/, '/report_checks'),
		});
		// One logger per replica: what each one did with the platform shows in its own lines.
		const [first, second] = [capturingLogger(), capturingLogger()];
		const start = (logger: typeof first.logger) =>
			startTestBot({
				sim,
				slackApiUrl: slack.apiUrl,
				botToken,
				stateFile: state.file,
				logger,
				database,
				leadershipTimings: TIMINGS,
			});
		const leader = await start(first.logger);
		replicas.push(leader);
		await waitFor(
			'the first replica leading',
			() => leader.leadership()?.isLeader() && leader.poll,
		);
		const standby = await start(second.logger);
		replicas.push(standby);
		expect(standby.leadership()?.isLeader()).toBe(false);

		// Someone asks the standby for a report (it answers Slack); the report list then fails on the platform,
		// so each replica that reads it says so in its own log.
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
		const answer = await standby.commands.handle(
			`report "${drive.serialNumber}" 7d Standby report`,
			{ channel: '#reports', user: 'U0ALICE' },
		);
		expect(answer.kind).toBe('report_started');
		sim.faults.set({ paths: [/\/assetdata\/\d+\/report$/], errorRate: 1 });
		const notRead = (lines: string[]) =>
			lines.filter((l) => /reports: status of report \d+ not read/.test(l));
		// Two periodic checks of the leader: a timer of the standby, started after the leader's with the same
		// period, would have fired in between.
		await waitFor('two checks by the leader', () => notRead(first.lines).length >= 2, 90_000);
		expect(notRead(second.lines)).toEqual([]);

		// The leader stops: the standby leads, and checks the report at once.
		await leader.stop();
		replicas.splice(replicas.indexOf(leader), 1);
		await waitFor(
			'the standby leading',
			() => standby.leadership()?.isLeader() && standby.poll,
			20_000,
		);
		await waitFor(
			'the new leader checking the report',
			() => notRead(second.lines).length >= 1,
			30_000,
		);
		sim.faults.clear();
	}, 180_000);
});
