// Bot replicas on one PostgreSQL reading the push channel from a real Mosquitto 2.0: every replica
// connects with the same MQTT client id and a persistent session, so what the broker receives while no
// replica is connected waits for the next leader, and a leader that steps down leaves at once.
import { drain } from '../bot/leader';
import { Client } from 'pg';
import type { Bot } from '../../bot/app/start';
import { databaseSettings } from '../../bot/state/database-url';
import { botClientId, type PushEnd } from '../../shared/push';
import { capturingLogger, fakeSlackToken, waitFor } from '../bot/helpers';
import { startTestBot, topMessagesOf } from '../bot/harness';
import { useFixture } from '../bot/use-fixture';
import { usePrivatePostgres } from '../helpers/postgres';
import { startMosquitto, type Mosquitto } from './mosquitto';
import { provision, type BrokerTarget } from './targets';

jest.setTimeout(180_000);

const botToken = fakeSlackToken('b');
const pg = usePrivatePostgres();
// Shorter than production (2 s renewals, 10 s TTL) so a take-over fits a test; the same mechanism.
const TIMINGS = { renewEveryMs: 300, ttlMs: 2_000, marginMs: 600, tryEveryMs: 200 };
const f = useFixture(botToken, { push: false });
let mosquitto: Mosquitto;
const replicas: Bot[] = [];

beforeAll(async () => {
	mosquitto = await startMosquitto({ log: true });
}, 60_000);
afterEach(async () => {
	await Promise.allSettled(replicas.splice(0).map((r) => r.stop()));
});
afterAll(async () => {
	await mosquitto?.stop();
});

let databases = 0;
/** Replicas of one installation: one database, one data-subscription user, the same configuration. */
async function installation(): Promise<{
	target: BrokerTarget;
	start(): Promise<Bot>;
	url: string;
}> {
	const { sim, slack, state } = f;
	const admin = await pg.connect();
	const name = `failover_${++databases}`;
	await admin.query(`CREATE DATABASE ${name}`);
	const url = pg
		.server()
		.url()
		.replace(/\/[^/]+$/, `/${name}`);
	const database = databaseSettings({ DRIVE_BOT_DATABASE_URL: url });
	const drive = sim.fleet
		.assets()
		.find((a) => a.assetType === 'Drive' && a.powerTrainId === null && !a.unsubscribed);
	if (!drive) throw new Error('no subscribed drive in the simulated fleet');
	const target = await provision({ mosquitto }, 'mosquitto', {
		orgId: drive.orgId,
		assetId: drive.id,
	});
	const start = async () => {
		const bot = await startTestBot({
			sim,
			slackApiUrl: slack.apiUrl,
			botToken,
			stateFile: state.file,
			logger: capturingLogger().logger,
			database,
			leadershipTimings: TIMINGS,
			push: target.settings,
			orgId: drive.orgId,
		});
		replicas.push(bot);
		return bot;
	};
	return { target, start, url };
}

const leading = (bot: Bot) => bot.leadership()?.isLeader() === true && bot.push.length === 1;

/** Each event posted exactly once (a repeat would be a second top-level message). */
async function postedOnce(ids: number[]): Promise<void> {
	await waitFor(
		`posts of events ${ids.join(', ')}`,
		() => ids.every((id) => topMessagesOf(f.slack, id).length >= 1),
		60_000,
	);
	for (const id of ids) expect(topMessagesOf(f.slack, id)).toHaveLength(1);
}

test('what is published while no replica is connected reaches the next leader, once: same client id, persistent session', async () => {
	const { target, start } = await installation();
	const a = await start();
	await waitFor('replica A leading, connected to Mosquitto', () => leading(a));
	await target.publish([91_001, 91_002]);
	await postedOnce([91_001, 91_002]);
	await drain(a, 10_000);

	// A stops (a deploy): nobody is connected while these arrive.
	await a.stop();
	replicas.splice(replicas.indexOf(a), 1);
	await target.publish([91_003, 91_004, 91_005]);

	const b = await start();
	await waitFor('replica B leading, connected to Mosquitto', () => leading(b));
	await postedOnce([91_003, 91_004, 91_005]);
	await drain(b, 10_000);
	// B received what was kept for the session, and nothing A had acknowledged.
	expect(b.push[0].stats).toMatchObject({ delivered: 3, duplicates: 0, failed: 0 });
	expect(topMessagesOf(f.slack, 91_001)).toHaveLength(1);

	// Mosquitto saw both replicas under one client id, each with clean session off (c0), and kept the session.
	const clientId = botClientId(target.settings.userName);
	const connects = mosquitto
		.log()
		.split('\n')
		.filter((line) => line.includes(` as ${clientId} (`));
	expect(connects).toHaveLength(2);
	for (const line of connects) expect(line).toMatch(/ \(p2, c0, k60, /);
});

test('a leader that steps down closes its connection at once, and the next leader takes the session over', async () => {
	const { target, start, url } = await installation();
	const a = await start();
	await waitFor('replica A leading, connected to Mosquitto', () => leading(a));
	const b = await start();
	// The standby reads nothing from the platform: no connection of its own to the broker.
	expect(b.leadership()?.isLeader()).toBe(false);
	expect(b.push).toEqual([]);
	await target.publish([92_001]);
	await postedOnce([92_001]);

	// A loses its leadership connection (as in a database restart or a partition) and steps down in-process.
	const receiverOfA = a.push[0];
	const ended = new Promise<PushEnd>((resolve) => receiverOfA.once('end', resolve));
	const admin = new Client({ connectionString: url });
	await admin.connect();
	try {
		const { rows } = await admin.query<{ holder_pid: number }>(
			'SELECT holder_pid FROM leader_lease',
		);
		await admin.query('SELECT pg_terminate_backend($1)', [rows[0].holder_pid]);
	} finally {
		await admin.end();
	}
	// Closed by A itself (reason "closed"), not dropped by the broker: A let go of the session.
	expect(await ended).toEqual({ reason: 'closed' });
	expect(a.push).toEqual([]);

	// Usually the standby; A itself may win the election again. Either way the same client id and session.
	const next = await waitFor(
		'a replica leading again, connected to Mosquitto',
		() => [b, a].find(leading),
		30_000,
	);
	await target.publish([92_002, 92_003]);
	await postedOnce([92_001, 92_002, 92_003]);
	expect(next.push[0].stats.duplicates).toBe(0);
});
