/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { drain, pollOnce } from './leader';
import type { App } from '@slack/bolt';
import { randomUUID } from 'node:crypto';
import { type WebSocket, WebSocketServer } from 'ws';
import { ACK_ACTION } from '../../bot/blocks/alert';
import { parseConfig } from '../../bot/config/load';
import type { BotLogger } from '../../bot/log';
import type { Bot } from '../../bot/app/start';
import { createSlackApp } from '../../bot/slack/app';
import { databaseSettings } from '../../bot/state/database-url';
import { startSimulator, type Simulator } from '../../simulator';
import { usePrivatePostgres } from '../helpers/postgres';
import { type SimAsset, startAppFor, startTestBot, topMessagesOf } from './harness';
import {
	buttonClickBody,
	capturingLogger,
	fakeSlackToken,
	postToSlackApp,
	slashCommandBody,
	tempStateFile,
	waitFor,
} from './helpers';
import { SlackApiServer, type StoredMessage } from './slack-server';

// Slack on two replicas of the bot on one PostgreSQL: any replica answers Slack, over HTTP behind a load
// balancer or in Socket Mode, and a payload delivered twice (to both replicas, or again as Slack's retry) acts once;
// two people pressing the alert's button at the same moment on two replicas end in one consistent state and message.
const botToken = fakeSlackToken('b');
const appToken = fakeSlackToken('app');
const signingSecret = `sign-${randomUUID()}`;
const pg = usePrivatePostgres();
const TIMINGS = { renewEveryMs: 300, ttlMs: 2_000, marginMs: 600, tryEveryMs: 200 };

interface Replica {
	bot: Bot;
	/** Its Bolt app in HTTP mode (a load balancer in front of the replicas) and the app's URL. */
	http: App;
	url: string;
	/** Its Bolt app in Socket Mode and the socket Slack opened for it. */
	socket: App;
	ws: WebSocket;
	logger: BotLogger;
	lines: string[];
}

describe('Slack on two replicas on one PostgreSQL', () => {
	const state = tempStateFile();
	let sim: Simulator;
	let slack: SlackApiServer;
	let sockets: WebSocketServer;
	let drives: SimAsset[];
	const replicas: Replica[] = [];
	let leader: Replica;
	let standby: Replica;
	/** Socket Mode acknowledgements received, by envelope id. */
	const socketAcks = new Set<string>();

	beforeAll(async () => {
		sim = await startSimulator({ push: false });
		// Slack's side of Socket Mode: apps.connections.open hands out this socket, which says hello.
		sockets = new WebSocketServer({ host: '127.0.0.1', port: 0 });
		await new Promise<void>((resolve) => sockets.once('listening', () => resolve()));
		const opened: WebSocket[] = [];
		sockets.on('connection', (ws) => {
			opened.push(ws);
			ws.on('message', (data: Buffer) => {
				const { envelope_id: id } = JSON.parse(data.toString()) as { envelope_id?: string };
				if (id) socketAcks.add(id);
			});
			ws.send(
				JSON.stringify({
					type: 'hello',
					num_connections: opened.length,
					connection_info: { app_id: 'A0DRIVE' },
					debug_info: { host: 'stand-in' },
				}),
			);
		});
		const socketUrl = `ws://127.0.0.1:${(sockets.address() as { port: number }).port}/`;
		slack = await new SlackApiServer({
			token: botToken,
			socketMode: { appToken, url: socketUrl },
		}).start();
		drives = sim.fleet.assets().filter((a) => a.assetType === 'Drive' && a.level !== 'expired');
		const database = databaseSettings({ DRIVE_BOT_DATABASE_URL: pg.server().url() });
		const config = parseConfig({});
		const start = async (): Promise<Omit<Replica, 'socket' | 'ws'>> => {
			const { logger, lines } = capturingLogger();
			const bot = await startTestBot({
				sim,
				slackApiUrl: slack.apiUrl,
				botToken,
				stateFile: state.file,
				logger,
				database,
				leadershipTimings: TIMINGS,
			});
			const { app, url } = await startAppFor(bot, {
				botToken,
				slackApiUrl: slack.apiUrl,
				logger,
				signingSecret,
			});
			return { bot, http: app, url, logger, lines };
		};
		// Both replicas start at the same instant on an empty database.
		for (const r of await Promise.all([start(), start()])) {
			const { bot, logger } = r;
			const socket = createSlackApp({
				botToken,
				mode: { kind: 'socket', appToken },
				slackApiUrl: slack.apiUrl,
				commands: bot.commands,
				config,
				logger,
				oncall: bot.oncall,
				alerts: bot.state.alerts,
				database: bot.database,
				directory: bot.directory,
			});
			// One socket at a time, so each replica's socket is known.
			const before = opened.length;
			await socket.start();
			const ws = await waitFor(
				"the replica's socket",
				() => opened.length > before && opened[opened.length - 1],
			);
			replicas.push({ ...r, socket, ws });
		}
		await waitFor(
			'one replica leading',
			() => replicas.filter((r) => r.bot.leadership()?.isLeader() && r.bot.poll).length === 1,
		);
		leader = replicas.find((r) => r.bot.leadership()?.isLeader()) as Replica;
		standby = replicas.find((r) => r !== leader) as Replica;
	}, 120_000);

	afterAll(async () => {
		for (const r of replicas) {
			await r.socket.stop().catch(() => undefined);
			await r.http.stop();
		}
		await Promise.allSettled(replicas.map((r) => r.bot.stop()));
		for (const client of sockets?.clients ?? []) client.terminate();
		await new Promise((resolve) => sockets?.close(resolve));
		await slack?.close();
		await sim?.close();
		state.cleanup();
	});

	/** A fault posted by the leader, its message recorded in the shared store. */
	async function faultMessage(drive: SimAsset): Promise<{ key: string; message: StoredMessage }> {
		const event = sim.control.raiseEvent(drive.id, { eventType: 'Fault' });
		await pollOnce(leader.bot);
		const [message] = await waitFor(
			'the fault message',
			() => topMessagesOf(slack, event.id).length > 0 && topMessagesOf(slack, event.id),
		);
		await drain(leader.bot, 10_000);
		return { key: `${drive.id}:${String(event.id)}`, message };
	}

	const ackValue = (message: StoredMessage) =>
		(message.blocks as Array<{ elements?: Array<{ action_id?: string; value?: string }> }>)
			.flatMap((b) => b.elements ?? [])
			.find((e) => e.action_id === ACK_ACTION)?.value as string;
	const holderLines = (message: StoredMessage): string[] =>
		JSON.stringify(message.blocks).match(/Acknowledged by <@U0[A-Z]+>/g) ?? [];
	const answers = (id: string) =>
		slack.responses.filter((r) => r.id === id).map((r) => String(r.body.text));
	const skipped = (kind: string) =>
		replicas
			.flatMap((r) => r.lines)
			.filter((l) => l.includes(`slack: ${kind}`) && l.includes('not acted on again')).length;

	/** Every update of the leader sent, and the outbox empty. */
	const settled = async () => {
		await drain(leader.bot, 10_000);
	};

	test("the same signed press reaching both replicas at once, then as Slack's retry, acts once: one change, one message update, one answer", async () => {
		const { key, message } = await faultMessage(drives[0]);
		const updatesBefore = message.updates;
		const skippedBefore = skipped('block_actions');
		const body = buttonClickBody({
			actionId: ACK_ACTION,
			value: ackValue(message),
			responseUrl: slack.responseUrl('same-press'),
			user: 'U0ALICE',
			text: 'Acknowledge',
		});
		// One request, byte for byte (the same timestamp, so the same signature), to each replica at the same moment.
		const timestamp = Math.floor(Date.now() / 1000);
		const delivered = await Promise.all(
			replicas.map((r) => postToSlackApp(r.url, signingSecret, body, { timestamp })),
		);
		expect(delivered.map((d) => d.status)).toEqual([200, 200]);
		// Slack's retry of it, to each replica.
		const retry = { headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' } };
		expect(
			(
				await Promise.all(replicas.map((r) => postToSlackApp(r.url, signingSecret, body, retry)))
			).map((d) => d.status),
		).toEqual([200, 200]);
		await waitFor(
			'every copy but one acknowledged and left',
			() => skipped('block_actions') - skippedBefore === 3,
		);
		await waitFor('the answer', () => answers('same-press').length > 0);
		await waitFor('the acknowledged message', () =>
			JSON.stringify(message.blocks).includes('Acknowledged by <@U0ALICE>'),
		);
		await settled();
		expect(await leader.bot.oncall.store.getAck(key)).toMatchObject({
			userId: 'U0ALICE',
			previous: [],
		});
		expect(message.updates - updatesBefore).toBe(1);
		expect(answers('same-press')).toEqual([expect.stringMatching(/^You acknowledged/)]);
		expect(topMessagesOf(slack, key.split(':')[1])).toHaveLength(1);
	});

	test('a slash command delivered to both replicas and again as a retry acts once: one silence, one answer', async () => {
		const drive = drives[1];
		const skippedBefore = skipped('command /drive');
		const body = slashCommandBody({
			command: '/drive',
			text: `mute ${drive.serialNumber} 1h pump swap`,
			responseUrl: slack.responseUrl('same-mute'),
			user: 'U0BOB',
		});
		const timestamp = Math.floor(Date.now() / 1000);
		await Promise.all(
			replicas.map((r) => postToSlackApp(r.url, signingSecret, body, { timestamp })),
		);
		await postToSlackApp(standby.url, signingSecret, body, {
			headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
		});
		await waitFor(
			'every copy but one acknowledged and left',
			() => skipped('command /drive') - skippedBefore === 2,
		);
		await waitFor('the answer', () => answers('same-mute').length > 0);
		const silences = (await standby.bot.oncall.mutes()).filter((s) => s.value === String(drive.id));
		expect(silences).toHaveLength(1);
		expect(silences[0]).toMatchObject({ createdBy: 'U0BOB', reason: 'pump swap' });
		expect(answers('same-mute')).toEqual([expect.stringMatching(/^Muted .* for 1 h/)]);
	});

	test('two people pressing Acknowledge at the same moment on two replicas: the first to commit holds it, the other is told; one message update', async () => {
		const { key, message } = await faultMessage(drives[2]);
		const updatesBefore = message.updates;
		const value = ackValue(message);
		await Promise.all([
			postToSlackApp(
				leader.url,
				signingSecret,
				buttonClickBody({
					actionId: ACK_ACTION,
					value,
					responseUrl: slack.responseUrl('both-alice'),
					user: 'U0ALICE',
					text: 'Acknowledge',
				}),
			),
			postToSlackApp(
				standby.url,
				signingSecret,
				buttonClickBody({
					actionId: ACK_ACTION,
					value,
					responseUrl: slack.responseUrl('both-bob'),
					user: 'U0BOB',
					text: 'Acknowledge',
				}),
			),
		]);
		await waitFor(
			'both answers',
			() => answers('both-alice').length > 0 && answers('both-bob').length > 0,
		);
		await settled();
		const ack = await leader.bot.oncall.store.getAck(key);
		expect(ack?.previous).toEqual([]);
		const [winner, loser] = ack?.userId === 'U0ALICE' ? ['alice', 'bob'] : ['bob', 'alice'];
		expect(answers(`both-${winner}`)).toEqual([expect.stringMatching(/^You acknowledged/)]);
		expect(answers(`both-${loser}`)).toEqual([
			expect.stringMatching(new RegExp(`^<@${ack?.userId}> holds .* already`)),
		]);
		await waitFor('the message showing the holder', () => holderLines(message).length > 0);
		await settled();
		expect(holderLines(message)).toEqual([`Acknowledged by <@${ack?.userId}>`]);
		expect(JSON.stringify(message.blocks)).not.toContain('took over');
		expect(message.updates - updatesBefore).toBe(1);
	});

	test('Acknowledge and Take over pressed at the same moment on two replicas: Take over wins in either order, and the message shows it', async () => {
		// A few rounds, so both orders of commit are likely met; each must end the same way.
		for (const drive of drives.slice(3, 6)) {
			const { key, message } = await faultMessage(drive);
			const updatesBefore = message.updates;
			const value = ackValue(message);
			const id = `${drive.id}`;
			await Promise.all([
				postToSlackApp(
					leader.url,
					signingSecret,
					buttonClickBody({
						actionId: ACK_ACTION,
						value,
						responseUrl: slack.responseUrl(`ack-${id}`),
						user: 'U0ALICE',
						text: 'Acknowledge',
					}),
				),
				postToSlackApp(
					standby.url,
					signingSecret,
					buttonClickBody({
						actionId: ACK_ACTION,
						value,
						responseUrl: slack.responseUrl(`take-${id}`),
						user: 'U0BOB',
						text: 'Take over',
					}),
				),
			]);
			await waitFor(
				'both answers',
				() => answers(`ack-${id}`).length > 0 && answers(`take-${id}`).length > 0,
			);
			await settled();
			const ack = await leader.bot.oncall.store.getAck(key);
			expect(ack?.userId).toBe('U0BOB');
			const aliceFirst = ack?.previous.length === 1;
			// The history is one of the two serial orders, and each person was told what happened to them.
			expect(ack?.previous.map((p) => p.userId)).toEqual(aliceFirst ? ['U0ALICE'] : []);
			expect(answers(`ack-${id}`)).toEqual([
				aliceFirst
					? expect.stringMatching(/^You acknowledged/)
					: expect.stringMatching(/^<@U0BOB> holds .* already/),
			]);
			expect(answers(`take-${id}`)).toEqual([
				aliceFirst
					? expect.stringMatching(/^You took over .* from <@U0ALICE>/)
					: expect.stringMatching(/^You acknowledged/),
			]);
			await waitFor('the message showing Bob', () =>
				holderLines(message).includes('Acknowledged by <@U0BOB>'),
			);
			await settled();
			expect(holderLines(message)).toEqual(['Acknowledged by <@U0BOB>']);
			expect(JSON.stringify(message.blocks).includes('took over from <@U0ALICE>')).toBe(aliceFirst);
			// One update per change at most (a change committed before the leader sent the first is shown by it).
			expect(message.updates - updatesBefore).toBeGreaterThanOrEqual(1);
			expect(message.updates - updatesBefore).toBeLessThanOrEqual(aliceFirst ? 2 : 1);
			expect(topMessagesOf(slack, key.split(':')[1])).toHaveLength(1);
		}
	});

	test("Socket Mode: a press handed to both replicas' sockets and an event redelivered as a retry act once", async () => {
		const { key, message } = await faultMessage(drives[6]);
		const updatesBefore = message.updates;
		const payload = JSON.parse(
			new URLSearchParams(
				buttonClickBody({
					actionId: ACK_ACTION,
					value: ackValue(message),
					responseUrl: slack.responseUrl('socket-press'),
					user: 'U0CAROL',
					text: 'Acknowledge',
				}),
			).get('payload') as string,
		) as Record<string, unknown>;
		const envelopes = replicas.map(() => randomUUID());
		replicas.forEach((r, i) =>
			r.ws.send(
				JSON.stringify({
					envelope_id: envelopes[i],
					type: 'interactive',
					payload,
					accepts_response_payload: false,
				}),
			),
		);
		// An app mention, delivered to one replica and again, as Slack's retry, to the other.
		const mention = {
			token: 'legacy-verification-token',
			team_id: 'T0001',
			api_app_id: 'A0DRIVE',
			type: 'event_callback',
			event_id: `Ev${randomUUID().slice(0, 8).toUpperCase()}`,
			event_time: Math.floor(Date.now() / 1000),
			event: {
				type: 'app_mention',
				user: 'U0CAROL',
				text: '<@U0BOT> help',
				ts: '1700000000.000900',
				channel: 'C0MAINT01',
				event_ts: '1700000000.000900',
			},
		};
		const events = [randomUUID(), randomUUID()];
		standby.ws.send(
			JSON.stringify({
				envelope_id: events[0],
				type: 'events_api',
				payload: mention,
				accepts_response_payload: false,
				retry_attempt: 0,
				retry_reason: '',
			}),
		);
		await waitFor('the threaded reply', () =>
			slack.posts().some((m) => m.threadTs === '1700000000.000900'),
		);
		leader.ws.send(
			JSON.stringify({
				envelope_id: events[1],
				type: 'events_api',
				payload: mention,
				accepts_response_payload: false,
				retry_attempt: 1,
				retry_reason: 'timeout',
			}),
		);
		await waitFor('every envelope acknowledged', () =>
			[...envelopes, ...events].every((id) => socketAcks.has(id)),
		);
		await waitFor('the retry left', () =>
			leader.lines.some((l) =>
				l.includes("event app_mention (Slack's retry 1, timeout) already taken"),
			),
		);
		await waitFor('the answer', () => answers('socket-press').length > 0);
		await waitFor('the acknowledged message', () =>
			JSON.stringify(message.blocks).includes('Acknowledged by <@U0CAROL>'),
		);
		await settled();
		expect(await leader.bot.oncall.store.getAck(key)).toMatchObject({
			userId: 'U0CAROL',
			previous: [],
		});
		expect(message.updates - updatesBefore).toBe(1);
		expect(answers('socket-press')).toEqual([expect.stringMatching(/^You acknowledged/)]);
		expect(slack.posts().filter((m) => m.threadTs === '1700000000.000900')).toHaveLength(1);
		expect(slack.problems).toEqual([]);
	});
});
