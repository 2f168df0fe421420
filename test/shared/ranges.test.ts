// Long ranges: split into the windows the API serves whole (E14 7 days, E17 30 days), fetched
// with bounded concurrency, merged in order without duplicates, checked against the level.
import {
	DriveMonitoringApiError,
	levelOfSubscriptions,
	splitWindows,
	ValidationError,
	type DriveMonitoringClient,
	type Event,
} from '../../shared';
import { startHarness, type Harness } from './harness';

const DAY = 86_400_000;
let h: Harness;
let client: DriveMonitoringClient;

beforeAll(async () => {
	h = await startHarness();
	client = h.client();
	await client.organization.get();
});

afterAll(async () => {
	await h.close();
});

beforeEach(() => {
	h.sim.faults.clear();
	h.sim.requests.clear();
});

function asset(levels: string[]) {
	const { orgId } = h.credentials();
	const found = h.sim.fleet
		.assets()
		.find((a) => a.orgId === orgId && a.assetType === 'Drive' && levels.includes(a.level));
	if (!found) throw new Error(`no ${levels.join('/')} drive in the seeded fleet`);
	return found;
}

describe('splitWindows', () => {
	test('consecutive windows of at most the given length, covering the range exactly', () => {
		const start = new Date('2024-01-01T00:00:00Z');
		const end = new Date('2024-12-31T00:00:00Z');
		const windows = splitWindows(start, end, 7 * DAY);
		expect(windows).toHaveLength(Math.ceil((end.getTime() - start.getTime()) / (7 * DAY)));
		expect(windows[0].start).toEqual(start);
		expect(windows[windows.length - 1].end).toEqual(end);
		windows.slice(1).forEach((w, i) => expect(w.start).toEqual(windows[i].end));
		expect(windows.every((w) => w.end.getTime() - w.start.getTime() <= 7 * DAY)).toBe(true);
	});

	test('a short last series window starts earlier, so it is aggregated like the others', () => {
		const start = new Date('2024-01-01T00:00:00Z');
		const end = new Date(start.getTime() + 60 * DAY + 30 * 60_000);
		const windows = splitWindows(start, end, 30 * DAY, 60 * 60_000);
		expect(windows).toHaveLength(3);
		expect(windows[2].end.getTime() - windows[2].start.getTime()).toBeGreaterThan(60 * 60_000);
	});
});

describe('client.ranges.events', () => {
	test('a year of events equals the union of the 7-day windows, ordered, each event once', async () => {
		const drive = asset(['Premium', 'Standard']);
		const end = new Date(h.sim.clock.now());
		const start = new Date(end.getTime() - 365 * DAY);
		const merged = await client.ranges.events({
			assetId: drive.id,
			startTime: start,
			endTime: end,
			level: drive.level,
		});

		const rangeCalls = h.sim.requests.api('E14');
		expect(rangeCalls.length).toBe(53);
		for (const call of rangeCalls) {
			expect(Date.parse(call.query.endTime) - Date.parse(call.query.startTime)).toBeLessThanOrEqual(
				7 * DAY,
			);
			expect(call.status).toBe(200);
		}

		// The union of the same windows fetched one by one, by hand.
		const byId = new Map<number, Event>();
		for (const call of rangeCalls) {
			const batch = await client.assetData.listEvents({
				assetId: drive.id,
				startTime: call.query.startTime,
				endTime: call.query.endTime,
			});
			for (const e of batch) byId.set(e.id, e);
		}
		expect(merged.length).toBeGreaterThan(10);
		expect(new Set(merged.map((e) => e.id))).toEqual(new Set(byId.keys()));
		expect(merged).toHaveLength(byId.size);
		const times = merged.map((e) => Date.parse(e.eventDateTime!));
		expect(times).toEqual([...times].sort((a, b) => a - b));
	});

	test('an end of "now" includes what happened earlier in the same second (the wire has whole seconds)', async () => {
		const drive = asset(['Premium', 'Standard']);
		// 100 ms into a second, so the event and the end below share their second.
		h.sim.clock.advance(1100 - (h.sim.clock.now() % 1000));
		const raised = h.sim.control.raiseEvent(drive.id, { eventType: 'Fault' });
		const now = new Date(h.sim.clock.now() + 1);
		expect(Math.floor(now.getTime() / 1000)).toBe(
			Math.floor(Date.parse(String(raised.eventDateTime)) / 1000),
		);
		const start = new Date(now.getTime() - DAY);
		const events = await client.ranges.events({
			assetId: drive.id,
			startTime: start,
			endTime: now,
		});
		expect(events.map((e) => e.id)).toContain(raised.id);
		const calls = h.sim.requests.api('E14');
		expect(calls).toHaveLength(1);
		expect(Date.parse(calls[0].query.endTime)).toBe(Math.ceil(now.getTime() / 1000) * 1000);
		// The windows the client reports are the ones it sends.
		const [window] = client.ranges.windows('events', start, now);
		expect([window.start.getTime(), window.end.getTime()]).toEqual([
			Date.parse(calls[0].query.startTime),
			Date.parse(calls[0].query.endTime),
		]);
	});

	test('clip: true starts at the earliest instant a Basic asset allows', async () => {
		const basic = asset(['Basic']);
		const now = h.sim.clock.now();
		const warnings: string[] = [];
		const logged = h.client({ logger: { warn: (m: string) => warnings.push(m) } });
		await logged.ranges.events({
			assetId: basic.id,
			startTime: new Date(now - 200 * DAY),
			endTime: new Date(now),
			level: 'Basic',
			clip: true,
		});
		expect(warnings).toEqual([
			expect.stringMatching(
				/^E14 range for asset \d+ starts at .* instead of .*: the history range of a Basic asset ends there$/,
			),
		]);
		const calls = h.sim.requests.api('E14');
		expect(calls.every((c) => c.status === 200)).toBe(true);
		const first = Math.min(...calls.map((c) => Date.parse(c.query.startTime)));
		expect(first).toBeGreaterThanOrEqual(now - 90 * DAY);
		expect(first).toBeLessThan(now - 89 * DAY);
	});

	test("level 'auto' reads the level from the asset's subscriptions (E9) and refuses before any E14", async () => {
		const basic = asset(['Basic']);
		const now = h.sim.clock.now();
		const error = await client.ranges
			.events({
				assetId: basic.id,
				startTime: new Date(now - 200 * DAY),
				endTime: new Date(now),
				level: 'auto',
			})
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ValidationError);
		expect((error as ValidationError).rule).toMatch(/history range of a Basic asset/);
		expect(h.sim.requests.api('E9').length).toBeLessThanOrEqual(1);
		expect(h.sim.requests.api('E14')).toHaveLength(0);
	});

	test('levelOfSubscriptions: the best active level, Entry when never subscribed, none when all ended', () => {
		expect(levelOfSubscriptions([])).toBe('Entry');
		expect(
			levelOfSubscriptions([
				{ level: 'Basic', status: 'Activated' },
				{ level: 'Premium', status: 'Activated' },
				{ level: 'Standard', status: 'Nonactivated' },
			]),
		).toBe('Premium');
		expect(levelOfSubscriptions([{ level: 'Premium', status: 'Expired' }])).toBeUndefined();
	});

	test('without a level, a range past the history is reported by the platform with the level explanation', async () => {
		const basic = asset(['Basic']);
		const now = h.sim.clock.now();
		h.sim.requests.clear();
		const error = await client.ranges
			.events({ assetId: basic.id, startTime: new Date(now - 200 * DAY), endTime: new Date(now) })
			.catch((e: unknown) => e);
		expect(h.sim.requests.api('E9').length).toBeLessThanOrEqual(1);
		expect(error).toBeInstanceOf(DriveMonitoringApiError);
		expect(error).toMatchObject({ code: 102403, endpoint: { id: 'E14' } });
		// The level held is read once (E9) and named beside the levels that keep more history.
		expect(error).toMatchObject({
			kind: 'subscription',
			levelHeld: 'Basic',
			levelsNeeded: ['Standard', 'Premium'],
		});
		expect((error as Error).message).toMatch(
			/^The asset's subscription level does not allow this\. Event history reaches back 90 days at Basic; older data needs Standard or Premium\./,
		);
		expect((error as Error).message).toMatch(
			/Bind a subscription code of a higher level to the asset, or start later\.$/,
		);
		expect((error as Error).message).not.toMatch(/\bE\d{1,2}\b/);
	});
});

describe('client.ranges.trendSignalData', () => {
	test('65 days in three 30-day windows, one continuous series per parameter', async () => {
		const drive = asset(['Premium', 'Standard']);
		const config = await client.assetData.getTrendSignalConfig({ assetId: drive.id });
		const codes = [config.trends[0].code];
		const end = new Date(h.sim.clock.now());
		const start = new Date(end.getTime() - 65 * DAY);
		h.sim.requests.clear();
		const merged = await client.ranges.trendSignalData({
			assetId: drive.id,
			parameters: codes,
			startTime: start,
			endTime: end,
			level: drive.level,
		});
		expect(h.sim.requests.api('E17')).toHaveLength(3);
		expect(merged.paramDatas.map((p) => p.config.code).sort()).toEqual([...codes].sort());
		for (const series of merged.paramDatas) {
			const ts = series.timestamp;
			expect(ts.length).toBeGreaterThan(1000);
			expect(ts.every((t, i) => i === 0 || t > ts[i - 1])).toBe(true);
			expect(series.avg).toHaveLength(ts.length);
		}
	});
});
