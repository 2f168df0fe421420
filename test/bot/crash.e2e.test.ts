import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { METADATA_TYPE } from '../../bot/alerts/sink';
import { startSimulator, type Simulator } from '../../simulator';
import { credentialsOf, pushUserFor, type SimAsset } from './harness';
import { capturingLogger, fakeSlackToken, tempStateFile, waitFor } from './helpers';
import { SlackApiServer, type StoredMessage } from './slack-server';

// Exactly once in Slack across kill -9: the compiled bot (as `npm start` runs it, Slack tokens set,
// platform and push at the simulator) is killed with SIGKILL at random instants while faults are
// raised and closed, with a slow Slack (400 ms per answer), and restarted on the same state file.
// Every fault must end in exactly one message, showing its final state.
const cli = path.resolve(__dirname, '..', '..', 'dist', 'bot', 'cli.js');
const KILLS = 12;
const botToken = fakeSlackToken('b');
const { logger } = capturingLogger();
const state = tempStateFile();
let sim: Simulator;
let slack: SlackApiServer;
let child: ChildProcess | undefined;
let stderr = '';
let reconciled = 0;

async function startChild(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  // eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- the bot's own CLI, run as an operator would
  const started = spawn(process.execPath, [cli], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  started.stderr?.on('data', (d: Buffer) => {
    reconciled += d.toString().split('had reached Slack before the answer was lost').length - 1;
    stderr = (stderr + d.toString()).slice(-20_000);
  });
  return started;
}

async function kill(target: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (target.exitCode !== null || target.signalCode !== null) return;
  const exited = new Promise((resolve) => target.once('exit', resolve));
  target.kill(signal);
  await exited;
}

afterAll(async () => {
  if (child) await kill(child, 'SIGKILL');
  await slack?.close();
  await sim?.close();
  state.cleanup();
});

/** Top-level messages whose metadata says they carry this event (not a close line about it). */
function carriers(eventId: string): StoredMessage[] {
  return slack
    .posts()
    .filter((m) => !m.threadTs && m.metadata?.event_type === METADATA_TYPE && String(m.metadata.event_payload.alerts ?? '').split(',').includes(eventId));
}

function showsFinalState(message: StoredMessage, eventId: string, closed: boolean): boolean {
  const json = JSON.stringify(message.blocks);
  const resolved = new RegExp(`Resolved [^"]*· event ${eventId}\\b|event ${eventId} :white_check_mark: resolved`).test(json);
  return closed ? resolved : !resolved && json.includes(`event ${eventId}`);
}

test(`${KILLS} SIGKILLs at random instants with a slow Slack: every fault in exactly one message, in its final state`, async () => {
  sim = await startSimulator();
  slack = await new SlackApiServer({ token: botToken, latencyMs: 400 }).start();
  const assets = sim.fleet.assets().filter((a) => a.assetType !== 'PowerTrain' && a.level !== 'expired');
  const orgId = assets[0].orgId;
  const mine: SimAsset[] = assets.filter((a) => a.orgId === orgId);
  const push = await pushUserFor(sim, orgId, logger);
  const credentials = credentialsOf(sim, 'EU', orgId);
  const configFile = path.join(path.dirname(state.file), 'bot.json');
  writeFileSync(configFile, JSON.stringify({ source: { kind: 'push' }, cbm: { enabled: false }, alerts: { defaultChannel: '#crash-test', digestBacklog: 8 } }));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LOG_LEVEL: 'info',
    SLACK_BOT_TOKEN: botToken,
    SLACK_SIGNING_SECRET: 'crash-test-signing-secret',
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    DRIVE_MONITORING_BASE_URL: credentials.baseUrl,
    DRIVE_MONITORING_AUTH_URL: credentials.authUrl,
    DRIVE_MONITORING_TENANT_ID: credentials.tenantId,
    DRIVE_MONITORING_API_KEY: credentials.apiKey,
    DRIVE_MONITORING_API_SECRET: credentials.apiSecret,
    DRIVE_MONITORING_API_SCOPE_ID: credentials.apiScopeId,
    DRIVE_MONITORING_PUSH_URL: push.url,
    DRIVE_MONITORING_PUSH_USER: push.userName,
    DRIVE_MONITORING_PUSH_PASSWORD: push.password,
    DRIVE_MONITORING_PUSH_TOPIC: push.topic,
    DRIVE_BOT_CONFIG: configFile,
    DRIVE_BOT_STATE: state.file,
  };
  child = await startChild(env);

  const raised: string[] = [];
  const closed = new Set<string>();
  const assetOf = new Map<string, number>();
  let kills = 0;
  const killer = (async () => {
    while (kills < KILLS) {
      await sleep(800 + Math.random() * 2500);
      await kill(child as ChildProcess, 'SIGKILL');
      kills++;
      child = await startChild(env);
    }
  })();
  while (kills < KILLS) {
    const asset = mine[Math.floor(Math.random() * mine.length)];
    const event = sim.control.raiseEvent(asset.id, { eventType: 'Fault' });
    raised.push(String(event.id));
    assetOf.set(String(event.id), asset.id);
    // Close about a third of the faults, some at once, some later.
    const open = raised.filter((id) => !closed.has(id));
    if (Math.random() < 0.35 && open.length > 0) {
      const id = open[Math.floor(Math.random() * open.length)];
      sim.control.closeEvent(assetOf.get(id) as number, Number(id), 'Reset by the crash test');
      closed.add(id);
    }
    await sleep(300 + Math.random() * 600);
  }
  await killer;

  const settled = () => raised.every((id) => carriers(id).length === 1 && showsFinalState(carriers(id)[0], id, closed.has(id)));
  await waitFor('every fault in one message, in its final state', settled, 180_000).catch(() => undefined);
  const duplicates = raised.filter((id) => carriers(id).length > 1);
  const lost = raised.filter((id) => carriers(id).length === 0);
  const stale = raised.filter((id) => carriers(id).length === 1 && !showsFinalState(carriers(id)[0], id, closed.has(id)));
  if (duplicates.length + lost.length + stale.length > 0) process.stderr.write(`bot stderr:\n${stderr}\n`);
  process.stderr.write(`crash test: ${raised.length} faults, ${closed.size} closed, ${kills} kills, ${reconciled} posts found already in Slack after a kill, ${slack.posts().filter((m) => !m.threadTs).length} top-level messages\n`);
  expect(kills).toBeGreaterThanOrEqual(KILLS);
  expect(raised.length).toBeGreaterThan(10);
  expect({ duplicates, lost, stale }).toEqual({ duplicates: [], lost: [], stale: [] });
  expect(slack.problems).toEqual([]);
}, 420_000);
