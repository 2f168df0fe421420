/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { storeEnvironment } from './store-under-test';
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { METADATA_TYPE } from '../../bot/alerts/sink';
import type { BotLogger } from '../../bot/log';
import { startSimulator } from '../../simulator';
import { credentialsOf, pushUserFor, type SimAsset } from './harness';
import { fakeSlackToken, tempStateFile, waitFor } from './helpers';
import { SlackApiServer, type StoredMessage } from './slack-server';

// The crash scenario shared by the crash test and the benchmark: the compiled bot (as `npm start`
// runs it with Slack tokens, platform and push at the simulator) is killed with SIGKILL at random
// instants while faults are raised and closed, with a slow Slack, and restarted on the same state.
// From test/bot under jest, or dist/test/bot when the compiled benchmark imports this file.
const ROOT = path.resolve(__dirname, '..', '..', ...(path.basename(path.resolve(__dirname, '..', '..')) === 'dist' ? ['..'] : []));
const CLI = path.join(ROOT, 'dist', 'bot', 'cli.js');

export interface CrashOutcome {
  faults: number;
  closed: number;
  kills: number;
  /** Faults carried by more than one message. */
  duplicates: string[];
  /** Faults in no message. */
  lost: string[];
  /** Faults whose one message does not show their final state (open or resolved). */
  stale: string[];
  /** Posts found already in Slack after a kill (not made again). */
  reconciled: number;
  topLevelMessages: number;
  blockKitProblems: number;
  /** The bot's last log lines, for a failure's explanation. */
  stderr: string;
}

/** Top-level messages whose metadata says they carry this event (not a close line about it). */
export function carriers(slack: SlackApiServer, eventId: string): StoredMessage[] {
  return slack
    .posts()
    .filter((m) => !m.threadTs && m.metadata?.event_type === METADATA_TYPE && String(m.metadata.event_payload.alerts ?? '').split(',').includes(eventId));
}

/** Whether a fault's one message shows it open, or resolved once closed. */
export function showsFinalState(message: StoredMessage, eventId: string, closed: boolean): boolean {
  const json = JSON.stringify(message.blocks);
  const resolved = new RegExp(`Resolved [^"]*· event ${eventId}\\b|event ${eventId} :white_check_mark: resolved`).test(json);
  return closed ? resolved : !resolved && json.includes(`event ${eventId}`);
}

export async function runCrashScenario(options: { kills: number; slackLatencyMs: number; logger: BotLogger; settleMs?: number }): Promise<CrashOutcome> {
  const sim = await startSimulator();
  const botToken = fakeSlackToken('b');
  const slack = await new SlackApiServer({ token: botToken, latencyMs: options.slackLatencyMs }).start();
  const state = tempStateFile();
  let child: ChildProcess | undefined;
  let stderr = '';
  let reconciled = 0;
  const start = (env: NodeJS.ProcessEnv) => {
    // eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- the bot's own CLI, run as an operator would
    const started = spawn(process.execPath, [CLI], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    started.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-20_000);
      reconciled += d.toString().split('had reached Slack before the answer was lost').length - 1;
    });
    return started;
  };
  const kill = async (target: ChildProcess | undefined, signal: NodeJS.Signals) => {
    if (!target || target.exitCode !== null || target.signalCode !== null) return;
    const exited = new Promise((resolve) => target.once('exit', resolve));
    target.kill(signal);
    await exited;
  };
  try {
    const assets = sim.fleet.assets().filter((a) => a.assetType !== 'PowerTrain' && a.level !== 'expired');
    const orgId = assets[0].orgId;
    const mine: SimAsset[] = assets.filter((a) => a.orgId === orgId);
    const push = await pushUserFor(sim, orgId, options.logger);
    const credentials = credentialsOf(sim, 'EU', orgId);
    const configFile = path.join(path.dirname(state.file), 'bot.json');
    // A backlog of 8 before digests: more single posts, so more kills land inside one.
    writeFileSync(configFile, JSON.stringify({ source: { kind: 'push' }, cbm: { enabled: false }, alerts: { defaultChannel: '#crash-test', digestBacklog: 8 } }));
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      LOG_LEVEL: 'info',
      SLACK_BOT_TOKEN: botToken,
      SLACK_SIGNING_SECRET: `crash-${Math.random().toString(36).slice(2)}`,
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
      ...(await storeEnvironment(state.file)),
    };
    child = start(env);
    const raised: string[] = [];
    const closed = new Set<string>();
    const assetOf = new Map<string, number>();
    let kills = 0;
    const killer = (async () => {
      while (kills < options.kills) {
        await sleep(800 + Math.random() * 2500);
        await kill(child, 'SIGKILL');
        kills++;
        child = start(env);
      }
    })();
    while (kills < options.kills) {
      const asset = mine[Math.floor(Math.random() * mine.length)];
      const event = sim.control.raiseEvent(asset.id, { eventType: 'Fault' });
      raised.push(String(event.id));
      assetOf.set(String(event.id), asset.id);
      // Close about a third of the faults, some at once, some later.
      const open = raised.filter((id) => !closed.has(id));
      if (Math.random() < 0.35 && open.length > 0) {
        const id = open[Math.floor(Math.random() * open.length)];
        sim.control.closeEvent(assetOf.get(id) as number, Number(id), 'Reset during the crash run');
        closed.add(id);
      }
      await sleep(300 + Math.random() * 600);
    }
    await killer;
    const settled = () => raised.every((id) => carriers(slack, id).length === 1 && showsFinalState(carriers(slack, id)[0], id, closed.has(id)));
    await waitFor('every fault in one message, in its final state', settled, options.settleMs ?? 180_000).catch(() => undefined);
    return {
      faults: raised.length,
      closed: closed.size,
      kills,
      duplicates: raised.filter((id) => carriers(slack, id).length > 1),
      lost: raised.filter((id) => carriers(slack, id).length === 0),
      stale: raised.filter((id) => carriers(slack, id).length === 1 && !showsFinalState(carriers(slack, id)[0], id, closed.has(id))),
      reconciled,
      topLevelMessages: slack.posts().filter((m) => !m.threadTs).length,
      blockKitProblems: slack.problems.length,
      stderr,
    };
  } finally {
    await kill(child, 'SIGKILL');
    await slack.close();
    await sim.close();
    state.cleanup();
  }
}
