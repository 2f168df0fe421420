/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// A platform that answers everything with the same refusal (102403, "level too low"), its own
// subscription lookup included: every public call of the core must still settle within its
// deadline with a typed error. E14, E15, E18, E19 and E21 are the ones at risk: the subscription
// lookup that explains a 102403 gets a 102403 itself.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	AuthenticationError,
	createClient,
	DeadlineError,
	DriveMonitoringError,
	LevelDeniedError,
	NotFoundError,
	TransportError,
	type DriveMonitoringClient,
} from '../../shared';
import { TokenCache } from '../../shared/auth/cache';
import { CODE_SERVER_CREDENTIALS } from './codeServer';

const TIMEOUT_MS = 500;
const DEADLINE_MS = 1500;
/** Scheduling slack on a shared machine; a hang is unbounded, so this cannot hide one. */
const MARGIN_MS = 1500;

const ISSUED = [
	'eyJhbGciOiJub25lIn0',
	Buffer.from('{"sub":"hostile"}').toString('base64url'),
	'unsigned',
].join('.');

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
				res.end(
					JSON.stringify({
						token_type: 'Bearer',
						expires_in: 3600,
						ext_expires_in: 3600,
						access_token: ISSUED,
					}),
				);
				return;
			}
			paths.push(`${req.method} ${path}`);
			res.end(
				JSON.stringify({ payload: null, message: 'no permission', success: false, code: 102403 }),
			);
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
const drive = {
	name: 'Drive',
	assetGroupId: 1,
	plantId: 1,
	serialNumber: 'S1',
	gatewayType: 'NETA21' as const,
	assetReference: { gatewaySN: 'G1', deviceNodeId: '1' },
};
const report = {
	assetIds: [7],
	title: 'T',
	subTitle: 'S',
	reportType: 'UserDriveReport' as const,
	startDate: '2024-11-01',
	endDate: '2024-11-15',
};
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
	[
		'E17',
		(c) =>
			c.assetData.queryTrendSignalData({
				assetId: 7,
				parameters: ['P1'],
				startTime: day(2),
				endTime: day(1),
			}),
	],
	['E18', (c) => c.assetData.getConditions({ assetId: 7 })],
	['E19', (c) => c.assetData.getCbm({ assetId: 7 })],
	[
		'E20',
		(c) =>
			c.assetData.setCommissioningDate({
				assetId: 7,
				deviceUnitType: 'Fan',
				commissioningDate: '2024-11-01',
			}),
	],
	['E21', (c) => c.assetData.createReport(report)],
	['E22', (c) => c.assetData.listReports({ assetId: 7 })],
	['E23', (c) => c.assetData.getReportDownload({ assetId: 7, reportId: 3 })],
	[
		'E24',
		(c) => c.assetData.listParameterBackups({ assetId: 7, startTime: day(30), endTime: day(1) }),
	],
	['E25', (c) => c.assetData.getParameterBackup({ assetId: 7, parameterSetId: 'set-1' })],
	['E26', (c) => c.dataSubscription.createUser()],
	['E27', (c) => c.dataSubscription.getUsers()],
	[
		'E28',
		(c) =>
			c.dataSubscription.setDataTypes({ subCustomerId: uuid, topicName: 't', subDataTypes: [] }),
	],
	['E29', (c) => c.dataSubscription.deleteUser({ subCustomerId: uuid })],
	['E30', (c) => c.dataSubscription.resetPassword({ subCustomerId: uuid })],
];

/** Settles the call or, when it has not settled within the limit, says it hung. */
async function settle(
	call: Promise<unknown>,
	limitMs: number,
): Promise<{ outcome: unknown; ms: number }> {
	const started = Date.now();
	let timer: NodeJS.Timeout | undefined;
	const hung = new Promise<{ hung: true }>(
		(resolve) => (timer = setTimeout(resolve, limitMs, { hung: true })),
	);
	try {
		const outcome = await Promise.race([
			call.then(
				() => ({ resolved: true }),
				(error: unknown) => error,
			),
			hung,
		]);
		return { outcome, ms: Date.now() - started };
	} finally {
		clearTimeout(timer);
	}
}

describe('every endpoint answered 102403 (the subscription lookup too)', () => {
	test('the walk covers E1 to E30', () => {
		expect(EVERY_ENDPOINT.map(([id]) => id)).toEqual(
			Array.from({ length: 30 }, (_, i) => `E${i + 1}`),
		);
	});

	test.each(EVERY_ENDPOINT)(
		'%s settles within its deadline with a typed error',
		async (_id, call) => {
			const { outcome, ms } = await settle(call(client), DEADLINE_MS + MARGIN_MS);
			expect(outcome).not.toEqual({ hung: true });
			expect(outcome).toBeInstanceOf(DriveMonitoringError);
			expect(ms).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
		},
	);

	// The calls that lead to more requests: the level read first ('auto'), then split windows.
	test.each<[string, (c: DriveMonitoringClient) => Promise<unknown>]>([
		[
			'events over a range, level read first',
			(c) => c.ranges.events({ assetId: 7, startTime: day(200), endTime: day(1), level: 'auto' }),
		],
		[
			'events over a range in 29 windows',
			(c) =>
				c.ranges.events({ assetId: 7, startTime: day(200), endTime: day(1), level: 'Premium' }),
		],
		[
			'trend and signal data over a range, level read first',
			(c) =>
				c.ranges.trendSignalData({
					assetId: 7,
					parameters: ['P1'],
					startTime: day(200),
					endTime: day(1),
					level: 'auto',
				}),
		],
	])('%s settles within its deadline with a typed error', async (_name, call) => {
		const { outcome, ms } = await settle(call(client), DEADLINE_MS + MARGIN_MS);
		expect(outcome).not.toEqual({ hung: true });
		expect(outcome).toBeInstanceOf(DriveMonitoringError);
		expect(ms).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
	});

	test('E19 gives the original 102403, without a level it could not read', async () => {
		paths.length = 0;
		const { outcome } = await settle(
			client.assetData.getCbm({ assetId: 8 }),
			DEADLINE_MS + MARGIN_MS,
		);
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
		slowClient = createClient({
			...CODE_SERVER_CREDENTIALS,
			baseUrl,
			authUrl: baseUrl,
			tokenCache: new TokenCache(),
			timeoutMs: TIMEOUT_MS,
			deadlineMs: DEADLINE_MS,
		});
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

	test('a temporary link (logger file, report) whose body never ends: the download ends at its deadline, saying so', async () => {
		const link = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/files/report-3.pdf?sig=abc`;
		const { outcome, ms } = await settle(slowClient.files.download(link), DEADLINE_MS + MARGIN_MS);
		expect(outcome).toBeInstanceOf(DeadlineError);
		expect(outcome).toMatchObject({
			kind: 'unavailable',
			operation: 'Downloading the file',
			deadlineMs: DEADLINE_MS,
		});
		expect((outcome as Error).message).toBe(
			'Downloading the file did not finish within 1.5 s: the Drive Monitoring platform did not answer in time, retries included.',
		);
		expect(ms).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
	});

	test('a body that never ends: the call ends within its deadline with a typed error', async () => {
		// Tokens from the first platform, answers from this one.
		const tokens = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		const baseUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
		const bodyClient = createClient({
			...CODE_SERVER_CREDENTIALS,
			baseUrl,
			authUrl: tokens,
			tokenCache: new TokenCache(),
			timeoutMs: TIMEOUT_MS,
			deadlineMs: DEADLINE_MS,
		});
		try {
			const { outcome, ms } = await settle(
				bodyClient.assets.get({ id: 7 }),
				DEADLINE_MS + MARGIN_MS,
			);
			expect(outcome).not.toEqual({ hung: true });
			expect(outcome).toBeInstanceOf(DriveMonitoringError);
			expect(ms).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
		} finally {
			await bodyClient.close();
		}
	});
});

// A platform whose behaviour each test scripts: tokens are numbered as issued, and `answer`
// decides (and may delay) each API answer, knowing which token the request carried.
interface Scripted {
	baseUrl: string;
	/** Tokens issued so far. */
	tokens: string[];
	/** API requests in arrival order: path, the token they carried, and when their answer left. */
	requests: Array<{ method: string; path: string; token: string; answeredAt?: number }>;
	close(): Promise<void>;
}

type Answer = { status?: number; body: unknown; delayMs?: number };

async function scriptedPlatform(
	answer: (request: { method: string; path: string; token: string; index: number }) => Answer,
	tokenDelayMs = 0,
): Promise<Scripted> {
	const tokens: string[] = [];
	const requests: Scripted['requests'] = [];
	const timers = new Set<NodeJS.Timeout>();
	const later = (ms: number, fn: () => void): void => {
		const timer = setTimeout(() => {
			timers.delete(timer);
			fn();
		}, ms);
		timers.add(timer);
	};
	const platform = createServer((req: IncomingMessage, res: ServerResponse) => {
		req.resume();
		req.on('end', () => {
			const path = req.url ?? '';
			if (path.includes('/oauth2/v2.0/token')) {
				const token = `${ISSUED}-${tokens.length + 1}`;
				tokens.push(token);
				later(tokenDelayMs, () => {
					if (res.destroyed) return;
					res.writeHead(200, { 'content-type': 'application/json' });
					res.end(
						JSON.stringify({
							token_type: 'Bearer',
							expires_in: 3600,
							ext_expires_in: 3600,
							access_token: token,
						}),
					);
				});
				return;
			}
			const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
			const entry: Scripted['requests'][number] = { method: req.method ?? '', path, token };
			requests.push(entry);
			const {
				status = 200,
				body,
				delayMs = 0,
			} = answer({ method: entry.method, path, token, index: requests.length - 1 });
			later(delayMs, () => {
				if (res.destroyed) return;
				entry.answeredAt = Date.now();
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(body));
			});
		});
	});
	await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `http://127.0.0.1:${(platform.address() as AddressInfo).port}`,
		tokens,
		requests,
		async close() {
			for (const timer of timers) clearTimeout(timer);
			platform.closeAllConnections();
			await new Promise<void>((resolve) => platform.close(() => resolve()));
		},
	};
}

const ok = (payload: unknown): Answer => ({
	body: { payload, message: null, success: true, code: 100200 },
});
const refused = (code: number, status = 400): Answer => ({
	status,
	body: { payload: null, message: 'refused', success: false, code },
});
const UNAUTHORIZED: Answer = {
	status: 401,
	body: { payload: null, message: 'token expired', success: false, code: 100401 },
};

/** The events of one E14 window: one event at its start, so the merge can be checked. */
function eventsOf(path: string): Answer {
	const start = new URL(path, 'http://x').searchParams.get('startTime')!;
	const id = Date.parse(start) / 1000;
	return ok([
		{
			id,
			eventType: 'Fault',
			eventCode: 'F1',
			eventDateTime: start,
			eventStatus: 'Open',
			content: 'fault',
		},
	]);
}

const isSubscriptions = (path: string): boolean => path.includes('/assetmanagement/subscription/');

describe('answers out of order, and a deadline over a whole ranged read', () => {
	let platform: Scripted | undefined;
	const clients: DriveMonitoringClient[] = [];
	const clientOf = (
		p: Scripted,
		options: Partial<Parameters<typeof createClient>[0]> = {},
	): DriveMonitoringClient => {
		const c = createClient({
			...CODE_SERVER_CREDENTIALS,
			baseUrl: p.baseUrl,
			authUrl: p.baseUrl,
			tokenCache: new TokenCache(),
			timeoutMs: 1000,
			deadlineMs: DEADLINE_MS,
			retry: { baseDelayMs: 1, maxDelayMs: 5 },
			...options,
		});
		clients.push(c);
		return c;
	};
	afterEach(async () => {
		await Promise.all(clients.splice(0).map((c) => c.close()));
		await platform?.close();
		platform = undefined;
	});

	test('windows answered last-first are merged in time order, each event once', async () => {
		// Five 7-day windows in flight together; the earliest window's answer comes last.
		const windows = 5;
		platform = await scriptedPlatform(({ path, index }) => ({
			...eventsOf(path),
			delayMs: (windows - index) * 80,
		}));
		const end = new Date(Date.UTC(2026, 10, 20));
		const start = new Date(end.getTime() - windows * 7 * 86_400_000);
		const events = await clientOf(platform).ranges.events({
			assetId: 7,
			startTime: start,
			endTime: end,
			concurrency: windows,
		});
		const answered = [...platform.requests]
			.sort((a, b) => a.answeredAt! - b.answeredAt!)
			.map((r) => platform!.requests.indexOf(r));
		expect(answered).toEqual([4, 3, 2, 1, 0]);
		expect(events.map((e) => e.eventDateTime)).toEqual(
			Array.from({ length: windows }, (_, i) =>
				new Date(start.getTime() + i * 7 * 86_400_000).toISOString().replace('.000Z', 'Z'),
			),
		);
	});

	test('a later window refused while earlier ones are still waiting: the read ends at once with the typed error', async () => {
		platform = await scriptedPlatform(({ path, index }) =>
			isSubscriptions(path)
				? ok([])
				: index === 3
					? refused(102201)
					: { ...eventsOf(path), delayMs: 5_000 },
		);
		const { outcome, ms } = await settle(
			clientOf(platform).ranges.events({
				assetId: 7,
				startTime: day(35),
				endTime: day(0),
				concurrency: 5,
			}),
			DEADLINE_MS + MARGIN_MS,
		);
		expect(outcome).toBeInstanceOf(NotFoundError);
		expect(ms).toBeLessThan(DEADLINE_MS);
	});

	test('a ranged read whose every request is in time but whose whole is not: a DeadlineError saying how far it came', async () => {
		// One window at a time, 600 ms each, under a per-attempt timeout of 1 s: eight windows would take 4.8 s.
		platform = await scriptedPlatform(({ path }) => ({ ...eventsOf(path), delayMs: 600 }));
		const end = new Date(Date.UTC(2026, 10, 20));
		const start = new Date(end.getTime() - 8 * 7 * 86_400_000);
		const { outcome, ms } = await settle(
			clientOf(platform).ranges.events({
				assetId: 7,
				startTime: start,
				endTime: end,
				concurrency: 1,
			}),
			DEADLINE_MS + MARGIN_MS,
		);
		expect(outcome).toBeInstanceOf(DeadlineError);
		expect(ms).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
		const error = outcome as DeadlineError;
		// About two windows fit in 1.5 s (one on a loaded machine): the error says how many did.
		const done = error.range?.done ?? -1;
		expect(done).toBeGreaterThanOrEqual(1);
		expect(done).toBeLessThanOrEqual(2);
		const dayOf = (n: number) =>
			new Date(start.getTime() + n * 86_400_000).toISOString().replace('.000Z', 'Z');
		expect(error).toMatchObject({
			reason: 'DEADLINE',
			kind: 'unavailable',
			deadlineMs: DEADLINE_MS,
			range: {
				start: '2026-09-25T00:00:00Z',
				end: '2026-11-20T00:00:00Z',
				total: 8,
				daysDone: 7 * done,
				pending: { start: dayOf(7 * done), end: dayOf(7 * done + 7) },
			},
		});
		expect(error.elapsedMs).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
		expect(error.summary).toBe(
			'Reading the events of asset 7 from 2026-09-25T00:00:00Z to 2026-11-20T00:00:00Z did not finish within 1.5 s',
		);
		expect(error.message).toBe(
			`${error.summary}: ${done} of 8 parts were read; the platform had not yet answered for ${dayOf(7 * done)} to ${dayOf(7 * done + 7)}.`,
		);
		expect(error.hint).toBe(
			`Ask for a shorter time range (${7 * done} days were read in 1.5 s), or allow more time: raise the client's deadlineMs option (now 1.5 s).`,
		);
		// The read stopped at its deadline: no window after the one in flight was asked for.
		expect(platform.requests.length).toBe(done + 1);
	});

	test("the level read first ('auto') counts against the read's deadline too", async () => {
		platform = await scriptedPlatform(({ path }) =>
			isSubscriptions(path) ? { ...ok([]), delayMs: 5_000 } : ok({ paramDatas: [] }),
		);
		const read = clientOf(platform, { timeoutMs: 10_000 }).ranges.trendSignalData({
			assetId: 7,
			parameters: ['P1'],
			startTime: day(60),
			endTime: day(1),
			level: 'auto',
		});
		const { outcome, ms } = await settle(read, DEADLINE_MS + MARGIN_MS);
		expect(outcome).toBeInstanceOf(DeadlineError);
		expect(ms).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
		expect((outcome as DeadlineError).message).toMatch(
			/^Reading trend and signal data of asset 7 from .* did not finish within 1\.5 s: the asset's subscription level was still being read, before any part of the range\.$/,
		);
		expect((outcome as DeadlineError).hint).toBe(
			"Ask for a shorter time range, or allow more time: raise the client's deadlineMs option (now 1.5 s).",
		);
	});

	test('the caller cancelling a ranged read is a cancellation, not a deadline', async () => {
		platform = await scriptedPlatform(({ path }) => ({ ...eventsOf(path), delayMs: 600 }));
		const controller = new AbortController();
		const read = clientOf(platform).ranges.events(
			{ assetId: 7, startTime: day(60), endTime: day(1), concurrency: 1 },
			{ signal: controller.signal },
		);
		setTimeout(() => controller.abort(), 300);
		const { outcome } = await settle(read, DEADLINE_MS + MARGIN_MS);
		expect(outcome).toBeInstanceOf(TransportError);
		expect(outcome).not.toBeInstanceOf(DeadlineError);
		expect(outcome).toMatchObject({ reason: 'ABORTED' });
	});

	test("a token answer that arrives after the call's deadline: the call ends on time, the late token serves the next call", async () => {
		platform = await scriptedPlatform(
			({ path }) => (isSubscriptions(path) ? ok([]) : refused(102201)),
			2_500,
		);
		const c = clientOf(platform, { timeoutMs: 5_000 });
		const { outcome, ms } = await settle(c.assets.get({ id: 7 }), DEADLINE_MS + MARGIN_MS);
		expect(outcome).toBeInstanceOf(DeadlineError);
		expect(outcome).toMatchObject({ operation: 'Get asset detail', endpoint: { id: 'E8' } });
		expect(ms).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
		expect(platform.requests).toHaveLength(0);
		// The token fetch went on and was kept: the next call waits for it and uses it, no second fetch.
		const next = await settle(c.assets.get({ id: 7 }), 5_000);
		expect(next.outcome).toBeInstanceOf(NotFoundError);
		expect(platform.tokens).toHaveLength(1);
		expect(platform.requests.map((r) => r.token)).toEqual([platform.tokens[0]]);
	});
});

describe('tokens that expire mid-call', () => {
	let platform: Scripted | undefined;
	let c: DriveMonitoringClient | undefined;
	afterEach(async () => {
		await c?.close();
		await platform?.close();
		platform = c = undefined;
	});
	const start = (p: Scripted): DriveMonitoringClient =>
		(c = createClient({
			...CODE_SERVER_CREDENTIALS,
			baseUrl: p.baseUrl,
			authUrl: p.baseUrl,
			tokenCache: new TokenCache(),
			timeoutMs: TIMEOUT_MS,
			deadlineMs: DEADLINE_MS,
			retry: { baseDelayMs: 1, maxDelayMs: 5 },
		}));

	test('a ranged read of 29 windows whose token expires after 10 answers: one refresh, every window read', async () => {
		let answered = 0;
		platform = await scriptedPlatform(({ path, token }) => {
			if (token === platform!.tokens[0] && answered >= 10) return UNAUTHORIZED;
			answered++;
			return { ...eventsOf(path), delayMs: 20 };
		});
		const events = await start(platform).ranges.events({
			assetId: 7,
			startTime: day(200),
			endTime: day(0),
			level: 'Premium',
		});
		expect(events).toHaveLength(29);
		expect(platform.tokens).toHaveLength(2);
		const refusedOld = platform.requests.filter((r) => r.token === platform!.tokens[0]).length - 10;
		expect(refusedOld).toBeGreaterThan(0);
		expect(platform.requests.filter((r) => r.token === platform!.tokens[1])).toHaveLength(29 - 10);
	});

	// Every endpoint: the first answer refuses the token as expired; the core fetches one new token
	// and repeats the request once with it, and reports what the platform then says.
	test.each(EVERY_ENDPOINT)(
		'%s: an expired token is refreshed once and the request repeated with the new one',
		async (_id, call) => {
			platform = await scriptedPlatform(({ token }) =>
				token === platform!.tokens[0] ? UNAUTHORIZED : refused(102201),
			);
			const client = start(platform);
			await client.accessToken();
			const { outcome, ms } = await settle(call(client), DEADLINE_MS + MARGIN_MS);
			expect(outcome).toBeInstanceOf(NotFoundError);
			expect(ms).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
			expect(platform.tokens).toHaveLength(2);
			expect(platform.requests.map((r) => r.token)).toEqual(platform.tokens);
			expect(new Set(platform.requests.map((r) => `${r.method} ${r.path}`)).size).toBe(1);
		},
	);

	test.each(EVERY_ENDPOINT)(
		'%s: a new token refused too ends the call with an AuthenticationError, after one refresh',
		async (_id, call) => {
			platform = await scriptedPlatform(() => UNAUTHORIZED);
			const client = start(platform);
			await client.accessToken();
			const { outcome, ms } = await settle(call(client), DEADLINE_MS + MARGIN_MS);
			expect(outcome).toBeInstanceOf(AuthenticationError);
			expect(outcome).toMatchObject({ kind: 'authentication', httpStatus: 401 });
			expect((outcome as AuthenticationError).hint).toMatch(
				/^It was refused even after a new token/,
			);
			expect(ms).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
			expect(platform.tokens).toHaveLength(2);
			expect(platform.requests).toHaveLength(2);
		},
	);
});
