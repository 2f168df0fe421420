/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { drain } from './leader';
import { PushMerge } from '../../bot/leader/sources/push';
import { parseConfig } from '../../bot/config/load';
import { createPlatformClient } from '../../bot/platform/client';
import { configuredPushUsers, createPushUsers, pushPasswords } from '../../bot/platform/push-user';
import { type Bot, startBot } from '../../bot/app/start';
import { createNotifierClient, SlackNotifier } from '../../bot/slack/notifier';
import { createPushReceiver, type PushMessage } from '../../shared/push';
import { startSimulator, type Simulator } from '../../simulator';
import { capturingLogger, fakeSlackToken, tempStateFile, waitFor } from './helpers';
import { shutdown } from './harness';
import { SlackApiServer } from './slack-server';
import type { PushSettings } from '../../bot/config/push-settings';

// Push for service providers (P6, B49): a CP's user receives its customers' data, the bot takes
// several users and merges them, and `--create-push-user` makes one per configured organization.
const botToken = fakeSlackToken('b');
const { logger, lines } = capturingLogger();
const state = tempStateFile();
let sim: Simulator;
let slack: SlackApiServer;
let bot: Bot;
let users: Record<string, PushSettings>;
let env: NodeJS.ProcessEnv;

const orgOf = (
	type: string,
	pick: (o: ReturnType<Simulator['fleet']['orgs']>[number]) => boolean = () => true,
) => sim.fleet.orgs().find((o) => o.orgType === type && pick(o))!;
const credential = (orgId: number) => sim.info.credentials.find((c) => c.orgId === orgId)!;
const base = () => ({
	baseUrl: sim.info.baseUrl,
	authUrl: sim.info.authUrl,
	tenantId: sim.info.tenantId,
	apiScopeId: sim.info.apiScopeId,
});
const assetOf = (orgId: number) =>
	sim.fleet
		.assets()
		.find((a) => a.orgId === orgId && a.assetType === 'Drive' && a.level !== 'expired')!;
const postsOf = (eventId: unknown) =>
	slack
		.posts()
		.filter((m) => !m.threadTs && JSON.stringify(m.blocks).includes(`event ${String(eventId)}`));

beforeAll(async () => {
	sim = await startSimulator();
	slack = await new SlackApiServer({ token: botToken }).start();
	const cp = orgOf('CP', (o) => sim.fleet.orgs().some((eu) => eu.authorizedCpIds.includes(o.id)));
	const customer = orgOf('EU', (o) => o.authorizedCpIds.includes(cp.id));
	env = {
		CP_KEY: credential(cp.id).apiKey,
		CP_SECRET: credential(cp.id).apiSecret,
		EU_KEY: credential(customer.id).apiKey,
		EU_SECRET: credential(customer.id).apiSecret,
	};
	const config = parseConfig({
		source: {
			kind: 'push',
			pushUsers: [
				{
					name: `CP ${cp.id}`,
					passwordEnv: 'CP_PUSH_PASSWORD',
					apiKeyEnv: 'CP_KEY',
					apiSecretEnv: 'CP_SECRET',
				},
				{
					name: `EU ${customer.id}`,
					passwordEnv: 'EU_PUSH_PASSWORD',
					apiKeyEnv: 'EU_KEY',
					apiSecretEnv: 'EU_SECRET',
				},
			],
		},
	});
	// What `--create-push-user <url>` prints: the entries to complete, each password as its environment line.
	const printed = await createPushUsers(
		config,
		env,
		{ ...base(), ...credential(1) },
		sim.info.pushUrls.amqp,
		logger,
	);
	const value = (key: string, entry: number) =>
		[...printed.matchAll(new RegExp(`#   ${key}: (.+)`, 'g'))][entry][1];
	env.CP_PUSH_PASSWORD = /^CP_PUSH_PASSWORD=(.+)$/m.exec(printed)![1];
	env.EU_PUSH_PASSWORD = /^EU_PUSH_PASSWORD=(.+)$/m.exec(printed)![1];
	const completed = parseConfig({
		stateFile: state.file,
		source: {
			kind: 'push',
			pushUsers: config.source.pushUsers.map((entry, n) => ({
				...entry,
				url: value('url', n),
				userName: value('userName', n),
				topic: value('topic', n),
			})),
		},
	});
	const [cpUser, euUser] = configuredPushUsers(completed, env, undefined);
	users = { cp: cpUser, eu: euUser };
	bot = await startBot({
		config: completed,
		platform: createPlatformClient(
			{ ...base(), apiKey: env.CP_KEY!, apiSecret: env.CP_SECRET! },
			logger,
		),
		notifier: new SlackNotifier(createNotifierClient(botToken, slack.apiUrl), completed.timeZone),
		logger,
		push: [cpUser, euUser],
	});
});

afterAll(() => shutdown({ bot, slack, sim, state }));

test("a customer's fault reaches both the CP's and the customer's user, and is posted once", async () => {
	const customer = orgOf('EU', (o) => credential(o.id).apiKey === env.EU_KEY);
	const event = sim.control.raiseEvent(assetOf(customer.id).id, { eventType: 'Fault' });
	await waitFor('the alert', () => postsOf(event.id).length > 0);
	await drain(bot, 10_000);
	await new Promise((resolve) => setTimeout(resolve, 500));
	expect(postsOf(event.id)).toHaveLength(1);
	// Both users delivered it: the second delivery was merged away.
	await waitFor('the second delivery', () => (bot.sources()[0].merged?.duplicates ?? 0) >= 1);
	expect(bot.sources()[0]).toMatchObject({
		kind: 'push',
		receivers: { connected: 2, configured: 2 },
	});
});

test("the CP's user receives the customers that authorized it, not the others", async () => {
	const cpId = Number(/^dm-(\d+)-/.exec(users.cp.userName)![1]);
	const other = orgOf('EU', (o) => !o.authorizedCpIds.includes(cpId));
	const served = sim.fleet
		.orgs()
		.filter(
			(o) =>
				o.orgType === 'EU' &&
				o.authorizedCpIds.includes(cpId) &&
				credential(o.id).apiKey !== env.EU_KEY,
		)[0];
	const outside = sim.control.raiseEvent(assetOf(other.id).id, { eventType: 'Fault' });
	const inside = sim.control.raiseEvent(assetOf(served.id).id, { eventType: 'Fault' });
	await waitFor('the served customer alert', () => postsOf(inside.id).length > 0);
	await drain(bot, 10_000);
	expect(postsOf(outside.id)).toEqual([]);
});

test("a VENDOR's user receives every organization's data", async () => {
	const vendor = orgOf('VENDOR');
	const client = createPlatformClient({ ...base(), ...credential(vendor.id) }, logger);
	const user = await client.dataSubscription.createUser();
	await client.dataSubscription.setDataTypes({
		subCustomerId: user.id,
		topicName: 'vendor-all',
		subDataTypes: ['AssetEvent'],
	});
	const seen: string[] = [];
	const receiver = createPushReceiver({
		url: sim.info.pushUrls.amqp,
		userName: user.userName!,
		password: user.password!,
		topic: 'vendor-all',
		dataTypes: ['AssetEvent'],
	});
	await receiver.start((m) => {
		seen.push(`${m.dataType}:${m.orgId}`);
	});
	const eus = sim.fleet.orgs().filter((o) => o.orgType === 'EU');
	for (const eu of eus) sim.control.raiseEvent(assetOf(eu.id).id, { eventType: 'Fault' });
	await waitFor('every organization', () =>
		eus.every((eu) => seen.includes(`AssetEvent:${eu.id}`)),
	);
	await receiver.close();
	await client.close();
});

test('push passwords come from the environment, are redacted, and a missing one names its variable only', () => {
	const config = parseConfig({
		source: {
			kind: 'push',
			pushUsers: [
				{
					name: 'Site A',
					url: 'amqp://127.0.0.1:5672',
					userName: 'dm-11-abc',
					topic: 't',
					passwordEnv: 'SITE_A_PASSWORD',
				},
			],
		},
	});
	expect(() => configuredPushUsers(config, {}, undefined)).toThrow(
		'source.pushUsers "Site A": set the environment variable SITE_A_PASSWORD',
	);
	expect(pushPasswords(config, { SITE_A_PASSWORD: 's3cret-value' })).toEqual(['s3cret-value']);
	expect(() =>
		parseConfig({ source: { pushUsers: [{ name: 'x', passwordEnv: 'lower case' }] } }),
	).toThrow('environment variable name');
	expect(lines.join('\n')).not.toContain(env.CP_PUSH_PASSWORD!);
	expect(lines.join('\n')).not.toContain(env.EU_PUSH_PASSWORD!);
});

test('--create-push-user again: an organization that has its user is reported, not changed', async () => {
	const config = parseConfig({
		source: {
			pushUsers: [
				{
					name: 'again',
					passwordEnv: 'X_PASSWORD',
					apiKeyEnv: 'CP_KEY',
					apiSecretEnv: 'CP_SECRET',
				},
			],
		},
	});
	const printed = await createPushUsers(
		config,
		env,
		{ ...base(), ...credential(1) },
		sim.info.pushUrls.amqp,
		logger,
	);
	expect(printed).toMatch(
		/^# again: not created \(the organization already has a data-subscription user/,
	);
	expect(printed).not.toContain('X_PASSWORD=');
});

test('a push lag above the threshold is reported once, until it is back under', async () => {
	const late: string[] = [];
	const caughtUp: number[] = [];
	const merge = new PushMerge({
		thresholdSeconds: 60,
		late: (text) => late.push(text),
		caughtUp: (s) => caughtUp.push(s),
	});
	const message = (id: string, ageMs: number) =>
		({
			id,
			dataType: 'AssetEvent',
			assetId: 1,
			time: new Date(Date.now() - ageMs).toISOString(),
			record: {},
			raw: {},
		}) as unknown as PushMessage;
	let handled = 0;
	const handle = async () => {
		handled++;
	};
	await merge.once(message('a', 10 * 60_000), handle);
	await merge.once(message('b', 11 * 60_000), handle);
	await merge.once(message('b', 11 * 60_000), handle); // another user's delivery of the same message
	expect(late).toEqual([
		'pushed data arrives 10 min after the platform produced it (threshold 1 min): the queue is behind or the broker delivers late.',
	]);
	await merge.once(message('c', 1000), handle);
	expect(caughtUp).toEqual([1]);
	expect({ handled, duplicates: merge.duplicates, lagSeconds: merge.lagSeconds() }).toEqual({
		handled: 3,
		duplicates: 1,
		lagSeconds: 1,
	});
});
