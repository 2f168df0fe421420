import type { Bot } from '../../bot/runtime';
import { databaseSettings } from '../../bot/state/database-url';
import { usePrivatePostgres } from '../helpers/postgres';
import { fakeSlackToken, waitFor } from './helpers';
import { startTestBot, topMessagesOf } from './harness';
import { useFixture } from './use-fixture';

// Two replicas of the bot on one PostgreSQL (issue 26): one leads (reads the platform, posts), the other answers
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
    const start = () => startTestBot({ sim, slackApiUrl: slack.apiUrl, botToken, stateFile: state.file, logger, database, leadershipTimings: TIMINGS });
    replicas.push(...(await Promise.all([start(), start()])));
    const leaderOf = () => replicas.filter((r) => r.leadership()?.isLeader() && r.poll);
    const [leader] = await waitFor('one replica leading', () => leaderOf().length === 1 && leaderOf());
    const standby = replicas.find((r) => r !== leader) as Bot;
    expect(standby.leadership()?.isLeader()).toBe(false);
    // Only the leader reads the platform.
    expect(standby.poll).toBeUndefined();
    expect(standby.sources()).toEqual([]);
    expect((await standby.readiness.evaluate()).checks.leadership?.detail).toMatch(/^standby/);
    expect((await leader.readiness.evaluate()).checks.leadership?.detail).toMatch(/^leader \(epoch \d+\)/);

    const drives = sim.fleet.assets().filter((a) => a.assetType === 'Drive' && a.level !== 'expired');
    const first = sim.control.raiseEvent(drives[0].id, { eventType: 'Fault' });
    await leader.poll?.pollOnce();
    const message = await waitFor('the fault message', () => topMessagesOf(slack, first.id)[0]);
    expect(await leader.dispatcher.drain(10_000)).toBe(true);

    // Someone presses Acknowledge, and Slack hands it to the standby: the leader sends the update.
    const alert = (await standby.store.openAlerts()).find((a) => a.eventId === String(first.id));
    if (!alert) throw new Error('the standby does not see the open alert in the shared store');
    expect(await standby.oncall.acknowledge([alert.key], 'U0ALICE')).toMatch(/^You acknowledged/);
    await waitFor('the acknowledged message', () => JSON.stringify(message.blocks).includes('Acknowledged by <@U0ALICE>'));

    // The leader stops (a deploy); the standby takes over and goes on where it stopped.
    await leader.stop();
    replicas.splice(replicas.indexOf(leader), 1);
    await waitFor('the standby leading', () => standby.leadership()?.isLeader() && standby.poll, 20_000);
    const second = sim.control.raiseEvent(drives[1].id, { eventType: 'Fault' });
    sim.control.closeEvent(drives[0].id, Number(first.id), 'Fan replaced');
    await standby.poll?.pollOnce();
    await waitFor('the second fault', () => topMessagesOf(slack, second.id)[0]);
    await waitFor('the close of the first, in its message', () => message.text.includes('Resolved'));
    expect(await standby.dispatcher.drain(10_000)).toBe(true);
    for (const event of [first, second]) expect(topMessagesOf(slack, event.id)).toHaveLength(1);
    expect(slack.problems).toEqual([]);
  }, 120_000);
});
