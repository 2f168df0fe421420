/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The bot's push source (real AlertEngine, real state database) against real brokers and the
// simulator's: 1,000 faults with 1% failing handlers (the asset lookup fails once), 10 in flight
// on AMQP. Every fault becomes exactly one Slack post in the outbox; a terminal broker error is
// logged as the explained sentence.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../bot/config/load';
import { AlertEngine } from '../../bot/features/alerts/engine';
import { eventKey } from '../../bot/kernel/alert';
import { startPushSource } from '../../bot/leader/sources/push';
import type { BotLogger } from '../../bot/log';
import { openTestDatabase } from '../bot/store-under-test';
import { type AlertState, alertState } from '../../bot/features/alerts/state';
import { SqlScope } from '../../bot/state/scope';
import type { PushReceiver } from '../../shared/push';
import { startTestPlatform, waitFor, type TestPlatform } from '../push/platform';
import { startMosquitto, type Mosquitto } from './mosquitto';
import { startRabbitMq, type RabbitMq } from './rabbitmq';
import { provision, type BrokerKind, type BrokerTarget } from './targets';

jest.setTimeout(300_000);

const COUNT = 1000;
const ASSET = 3400;
let rabbit: RabbitMq;
let mosquitto: Mosquitto;
let platform: TestPlatform;
let dir: string;
const cleanup: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
	[rabbit, mosquitto, platform] = await Promise.all([
		startRabbitMq(),
		startMosquitto(),
		startTestPlatform(),
	]);
	dir = mkdtempSync(join(tmpdir(), 'dm-bot-push-'));
}, 180_000);
afterEach(async () => {
	for (const step of cleanup.splice(0).reverse()) await step();
});
afterAll(async () => {
	await Promise.all([rabbit?.stop(), mosquitto?.stop(), platform?.close()]);
	rmSync(dir, { recursive: true, force: true });
}, 120_000);

const setup = (broker: BrokerKind): Promise<BrokerTarget> =>
	provision({ rabbit, mosquitto, platform }, broker, { orgId: 34, assetId: ASSET });

interface Bot {
	state: AlertState;
	receiver: PushReceiver;
	lines: string[];
	failedOnce: Set<number>;
}

async function startBot(settings: BrokerTarget['settings']): Promise<Bot> {
	const database = await openTestDatabase(join(dir, `${randomUUID()}.db`));
	const state = alertState(SqlScope.of(database));
	cleanup.push(() => database.close());
	const failedOnce = new Set<number>();
	let lookups = 0;
	// The asset lookup (a REST call in production) fails once for every 100th: the handler fails.
	const engine = new AlertEngine(
		state,
		parseConfig({}),
		async (assetId) => {
			lookups++;
			if (lookups % 100 === 0 && !failedOnce.has(lookups)) {
				failedOnce.add(lookups);
				throw new Error('asset directory unavailable');
			}
			return {
				id: assetId,
				name: `Drive ${assetId}`,
				serialNumber: `SN${assetId}`,
				organization: 'Plant org',
				group: 'Line 3',
				plant: 'Plant 1',
			};
		},
		() => undefined,
	);
	const lines: string[] = [];
	const logger: BotLogger = {
		debug: () => undefined,
		info: () => undefined,
		warn: (m) => lines.push(`warn ${m}`),
		error: (m) => lines.push(`error ${m}`),
	};
	const receiver = await startPushSource(engine, settings, logger, false);
	cleanup.push(() => receiver.close());
	return { state, receiver, lines, failedOnce };
}

test.each([
	'simulator-amqp',
	'simulator-mqtt',
	'rabbitmq-amqp',
	'rabbitmq-mqtt',
	'mosquitto',
] as const)(
	`%s: ${COUNT} faults with 1%% failing handlers become exactly ${COUNT} Slack posts`,
	async (broker) => {
		const target = await setup(broker);
		const bot = await startBot(target.settings);
		await target.publish(Array.from({ length: COUNT }, (_, i) => i + 1));
		await waitFor(
			() => bot.receiver.stats.delivered >= COUNT,
			`${COUNT} faults handled (${bot.receiver.stats.delivered} so far)`,
			240_000,
		);
		await new Promise((resolve) => setTimeout(resolve, 300));
		const missing: number[] = [];
		for (let n = 1; n <= COUNT; n++)
			if ((await bot.state.alerts.getEvent(eventKey(ASSET, n))) === undefined) missing.push(n);
		expect(missing).toEqual([]);
		// Every failed handling is one of the injected failures or, on PostgreSQL, a transaction that kept colliding with
		// the others on the same asset past its retries (redelivered by the broker, as the missing list above shows).
		const conflicts = bot.lines.filter(
			(l) => l.includes('push handler failed') && l.includes('could not serialize access'),
		).length;
		expect(bot.receiver.stats.failed).toBe(bot.failedOnce.size + conflicts);
		expect(bot.failedOnce.size).toBeGreaterThanOrEqual(COUNT / 100);
		expect(await bot.state.outbox.countPending()).toBe(COUNT);
		expect(bot.lines.filter((l) => l.startsWith('error'))).toEqual([]);
	},
);

test('RabbitMQ: the queue deleted under the bot is logged as the explained, terminal error', async () => {
	const target = await setup('rabbitmq-amqp');
	const bot = await startBot(target.settings);
	const ended = new Promise((resolve) => bot.receiver.once('end', resolve));
	await rabbit.ctl('delete_queue', target.settings.topic);
	await ended;
	const errors = bot.lines.filter((l) => l.startsWith('error'));
	expect(errors.length).toBeGreaterThanOrEqual(1);
	expect(errors[0]).toMatch(/^error push \S+: the broker (has no queue|deleted the queue)/);
	expect(errors.join('\n')).not.toContain(target.settings.password);
});
