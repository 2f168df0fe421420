/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// A platform that answers everything with the same refusal (102403, "level too low"), its own
// subscription lookup included: every public call of the core must still settle within its
// deadline with a typed error. Before issue 31, E14, E15, E18, E19 and E21 waited for ever: the
// subscription lookup explained its own 102403 with itself.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, DriveMonitoringError, LevelDeniedError, type DriveMonitoringClient } from '../../shared';
import { TokenCache } from '../../shared/auth/cache';
import { CODE_SERVER_CREDENTIALS } from './codeServer';

const TIMEOUT_MS = 500;
const DEADLINE_MS = 1500;
/** Scheduling slack on a shared machine; a hang is unbounded, so this cannot hide one. */
const MARGIN_MS = 1500;

const ISSUED = ['eyJhbGciOiJub25lIn0', Buffer.from('{"sub":"hostile"}').toString('base64url'), 'unsigned'].join('.');

let server: ReturnType<typeof createServer>;
let client: DriveMonitoringClient;
const paths: string[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      res.writeHead(200, { 'content-type': 'application/json' });
      if (path.includes('/oauth2/v2.0/token')) {
        res.end(JSON.stringify({ token_type: 'Bearer', expires_in: 3600, ext_expires_in: 3600, access_token: ISSUED }));
        return;
      }
      paths.push(`${req.method} ${path}`);
      res.end(JSON.stringify({ payload: null, message: 'no permission', success: false, code: 102403 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = createClient({
    ...CODE_SERVER_CREDENTIALS,
    baseUrl,
    authUrl: baseUrl,
    tokenCache: new TokenCache(),
    timeoutMs: TIMEOUT_MS,
    deadlineMs: DEADLINE_MS,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
});

afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const uuid = '3f2b6c1e-8d4a-4e2b-9c1f-2a7b5d9e0c11';
const drive = { name: 'Drive', assetGroupId: 1, plantId: 1, serialNumber: 'S1', gatewayType: 'NETA21' as const, assetReference: { gatewaySN: 'G1', deviceNodeId: '1' } };
const report = { assetIds: [7], title: 'T', subTitle: 'S', reportType: 'UserDriveReport' as const, startDate: '2024-11-01', endDate: '2024-11-15' };
const day = (back: number) => new Date(Date.now() - back * 86_400_000);

const EVERY_ENDPOINT: Array<[string, (c: DriveMonitoringClient) => Promise<unknown>]> = [
  ['E1', (c) => c.organization.get()],
  ['E2', (c) => c.organization.getNodes()],
  ['E3', (c) => c.organization.listAssets({ orgId: 1 })],
  ['E4', (c) => c.organization.listGroupAssets({ orgId: 1, assetGroupId: 2 })],
  ['E5', (c) => c.organization.createAssetGroup({ orgId: 1, name: 'Pumps' })],
  ['E6', (c) => c.organization.getAssetStatistics({ orgId: 1 })],
  ['E7', (c) => c.subscription.bind({ assetId: 7, subscriptionCode: 'SUB-1' })],
  ['E8', (c) => c.assets.get({ id: 7 })],
  ['E9', (c) => c.assets.listSubscriptions({ assetId: 7 })],
  ['E10', (c) => c.assets.createDrive(drive)],
  ['E11', (c) => c.assets.rename({ id: 7, name: 'Pump 3' })],
  ['E12', (c) => c.assets.move({ assetId: 7, assetGroupId: 2 })],
  ['E13', (c) => c.assets.delete({ id: 7 })],
  ['E14', (c) => c.assetData.listEvents({ assetId: 7, startTime: day(2), endTime: day(1) })],
  ['E15', (c) => c.assetData.getEventLoggerFiles({ assetId: 7, eventId: 11 })],
  ['E16', (c) => c.assetData.getTrendSignalConfig({ assetId: 7 })],
  ['E17', (c) => c.assetData.queryTrendSignalData({ assetId: 7, parameters: ['P1'], startTime: day(2), endTime: day(1) })],
  ['E18', (c) => c.assetData.getConditions({ assetId: 7 })],
  ['E19', (c) => c.assetData.getCbm({ assetId: 7 })],
  ['E20', (c) => c.assetData.setCommissioningDate({ assetId: 7, deviceUnitType: 'Fan', commissioningDate: '2024-11-01' })],
  ['E21', (c) => c.assetData.createReport(report)],
  ['E22', (c) => c.assetData.listReports({ assetId: 7 })],
  ['E23', (c) => c.assetData.getReportDownload({ assetId: 7, reportId: 3 })],
  ['E24', (c) => c.assetData.listParameterBackups({ assetId: 7, startTime: day(30), endTime: day(1) })],
  ['E25', (c) => c.assetData.getParameterBackup({ assetId: 7, parameterSetId: 'set-1' })],
  ['E26', (c) => c.dataSubscription.createUser()],
  ['E27', (c) => c.dataSubscription.getUsers()],
  ['E28', (c) => c.dataSubscription.setDataTypes({ subCustomerId: uuid, topicName: 't', subDataTypes: [] })],
  ['E29', (c) => c.dataSubscription.deleteUser({ subCustomerId: uuid })],
  ['E30', (c) => c.dataSubscription.resetPassword({ subCustomerId: uuid })],
];

/** Settles the call or, when it has not settled within the limit, says it hung. */
async function settle(call: Promise<unknown>, limitMs: number): Promise<{ outcome: unknown; ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<{ hung: true }>((resolve) => (timer = setTimeout(resolve, limitMs, { hung: true })));
  try {
    const outcome = await Promise.race([call.then(() => ({ resolved: true }), (error: unknown) => error), hung]);
    return { outcome, ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

describe('every endpoint answered 102403 (the subscription lookup too)', () => {
  test('the walk covers E1 to E30', () => {
    expect(EVERY_ENDPOINT.map(([id]) => id)).toEqual(Array.from({ length: 30 }, (_, i) => `E${i + 1}`));
  });

  test.each(EVERY_ENDPOINT)('%s settles within its deadline with a typed error', async (_id, call) => {
    const { outcome, ms } = await settle(call(client), DEADLINE_MS + MARGIN_MS);
    expect(outcome).not.toEqual({ hung: true });
    expect(outcome).toBeInstanceOf(DriveMonitoringError);
    expect(ms).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
  });

  // The calls that lead to more requests: the level read first ('auto'), then split windows.
  test.each<[string, (c: DriveMonitoringClient) => Promise<unknown>]>([
    ['events over a range, level read first', (c) => c.ranges.events({ assetId: 7, startTime: day(200), endTime: day(1), level: 'auto' })],
    ['events over a range in 29 windows', (c) => c.ranges.events({ assetId: 7, startTime: day(200), endTime: day(1), level: 'Premium' })],
    ['trend and signal data over a range, level read first', (c) => c.ranges.trendSignalData({ assetId: 7, parameters: ['P1'], startTime: day(200), endTime: day(1), level: 'auto' })],
  ])('%s settles within its deadline with a typed error', async (_name, call) => {
    const { outcome, ms } = await settle(call(client), DEADLINE_MS + MARGIN_MS);
    expect(outcome).not.toEqual({ hung: true });
    expect(outcome).toBeInstanceOf(DriveMonitoringError);
    expect(ms).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
  });

  test('E19 gives the original 102403, without a level it could not read', async () => {
    paths.length = 0;
    const { outcome } = await settle(client.assetData.getCbm({ assetId: 8 }), DEADLINE_MS + MARGIN_MS);
    expect(outcome).toBeInstanceOf(LevelDeniedError);
    expect(outcome).toMatchObject({ code: 102403, endpoint: { id: 'E19' }, levelHeld: undefined });
    // One E19, one E9 lookup, and the lookup's own refusal is not explained by another lookup.
    expect(paths.filter((p) => p.includes('/assetmanagement/subscription/8'))).toHaveLength(1);
  });
});

describe('a platform that never finishes', () => {
  let slow: ReturnType<typeof createServer>;
  let slowClient: DriveMonitoringClient;
  const open = new Set<ServerResponse>();

  beforeAll(async () => {
    // The token endpoint never answers; API requests get their headers and a body that never ends.
    slow = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      open.add(res);
      if ((req.url ?? '').includes('/oauth2/v2.0/token')) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"payload":[');
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    slowClient = createClient({ ...CODE_SERVER_CREDENTIALS, baseUrl, authUrl: baseUrl, tokenCache: new TokenCache(), timeoutMs: TIMEOUT_MS, deadlineMs: DEADLINE_MS });
  });

  afterAll(async () => {
    await slowClient.close();
    for (const res of open) res.destroy();
    slow.closeAllConnections();
    await new Promise<void>((resolve) => slow.close(() => resolve()));
  });

  test('a token endpoint that never answers: the call ends at its deadline with a typed error', async () => {
    const { outcome, ms } = await settle(slowClient.organization.get(), DEADLINE_MS + MARGIN_MS);
    expect(outcome).not.toEqual({ hung: true });
    expect(outcome).toBeInstanceOf(DriveMonitoringError);
    expect(ms).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
  });

  test('a body that never ends: the call ends within its deadline with a typed error', async () => {
    // Tokens from the first platform, answers from this one.
    const tokens = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const baseUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    const bodyClient = createClient({ ...CODE_SERVER_CREDENTIALS, baseUrl, authUrl: tokens, tokenCache: new TokenCache(), timeoutMs: TIMEOUT_MS, deadlineMs: DEADLINE_MS });
    try {
      const { outcome, ms } = await settle(bodyClient.assets.get({ id: 7 }), DEADLINE_MS + MARGIN_MS);
      expect(outcome).not.toEqual({ hung: true });
      expect(outcome).toBeInstanceOf(DriveMonitoringError);
      expect(ms).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
    } finally {
      await bodyClient.close();
    }
  });
});
