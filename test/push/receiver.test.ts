/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import {
	createPushReceiver,
	PushAuthError,
	type PushMessage,
	type PushReceiver,
} from '../../shared/push';
import { startRelay, startTestPlatform, waitFor, type TestPlatform } from './platform';

let platform: TestPlatform;
const open: PushReceiver[] = [];

beforeAll(async () => {
	platform = await startTestPlatform();
});
afterEach(async () => {
	await Promise.all(open.splice(0).map((r) => r.close()));
});
afterAll(async () => {
	await platform.close();
});

function receiverFor(
	protocol: 'amqp' | 'mqtt',
	user: { userName: string; password: string; topic: string },
	extra: object = {},
	on: TestPlatform = platform,
): PushReceiver {
	const receiver = createPushReceiver({
		url: on.channel.urls[protocol],
		...user,
		reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
		...extra,
	});
	open.push(receiver);
	return receiver;
}

describe.each(['amqp', 'mqtt'] as const)('%s adapter', (protocol) => {
	test('receives each data type, normalized', async () => {
		const user = platform.createUser(11);
		const got: PushMessage[] = [];
		await receiverFor(protocol, user).start((m) => void got.push(m));
		platform.raiseEvent(11, 101, 1);
		platform.bus.emit('state.hourly', {
			orgId: 11,
			states: [{ assetId: 101, online: false, time: '2026-01-01T01:00:00Z' }],
		});
		platform.bus.emit('report.finished', {
			orgId: 11,
			assetIds: [101],
			report: {
				id: 7,
				title: 'Weekly',
				reportType: 'UserDriveReport',
				status: 'Created',
				createdOn: '2026-01-02T00:00:00Z',
			},
		});
		platform.bus.emit('cbm.daily', {
			orgId: 11,
			assetId: 101,
			results: [
				{ deviceUnitType: 'Fan', deviceUnitStatus: 'Yellow', predictedRunPlanDate: '2026-03-01' },
			],
		});
		platform.raiseEvent(12, 999, 2); // another organization: never delivered here
		await waitFor(() => got.length >= 4, 'four messages');
		const byType = Object.fromEntries(got.map((m) => [m.dataType, m]));
		expect(Object.keys(byType).sort()).toEqual([
			'AssetCBM',
			'AssetEvent',
			'AssetReport',
			'AssetState',
		]);
		expect(byType.AssetEvent).toMatchObject({
			assetId: 101,
			orgId: 11,
			record: { id: 1, eventType: 'Fault', eventStatus: 'Open' },
		});
		expect(byType.AssetState).toMatchObject({ assetId: 101, record: { online: false } });
		expect(byType.AssetReport).toMatchObject({ record: { id: 7, status: 'Created' } });
		expect(byType.AssetCBM.record).toEqual([
			expect.objectContaining({ deviceUnitType: 'Fan', deviceUnitStatus: 'Yellow' }),
		]);
		await new Promise((r) => setTimeout(r, 100));
		expect(got).toHaveLength(4);
	});

	test('two CBM results of one asset made at the same instant both arrive (their ids differ by content)', async () => {
		const frozen = await startTestPlatform({ now: () => new Date('2026-05-01T00:00:00.000Z') });
		try {
			const user = frozen.createUser(21, [4]);
			const got: PushMessage[] = [];
			const receiver = receiverFor(protocol, user, {}, frozen);
			await receiver.start((m) => void got.push(m));
			for (const status of ['Red', 'Good']) {
				frozen.bus.emit('cbm.daily', {
					orgId: 21,
					assetId: 201,
					results: [{ deviceUnitType: 'Fan', deviceUnitStatus: status }],
				});
			}
			await waitFor(() => got.length >= 2, 'both CBM results');
			expect(
				got.map((m) => (m.record as Array<{ deviceUnitStatus: string }>)[0].deviceUnitStatus),
			).toEqual(['Red', 'Good']);
			expect(new Set(got.map((m) => m.id)).size).toBe(2);
			expect(receiver.stats.duplicates).toBe(0);
		} finally {
			await Promise.all(open.splice(0).map((r) => r.close()));
			await frozen.close();
		}
	});

	test('a wrong password is refused with the terminal message and no secret', async () => {
		const user = platform.createUser(13);
		const receiver = receiverFor(protocol, { ...user, password: 'not-the-password' });
		const error = await receiver.start(() => undefined).catch((e: unknown) => e);
		expect(String(error)).toContain('credentials rejected');
		expect(error).toBeInstanceOf(PushAuthError);
		expect((error as Error).message).toContain(
			'credentials rejected: was the password reset or the user deleted?',
		);
		expect((error as Error).message).not.toContain('not-the-password');
	});

	test('a reset password (E30) drops the connection and ends the stream with the terminal message', async () => {
		const user = platform.createUser(14);
		const receiver = receiverFor(protocol, user);
		const ended = new Promise<{ error?: Error }>((resolve) => receiver.once('end', resolve));
		await receiver.start(() => undefined);
		const newPassword = platform.resetPassword(user.userName);
		const end = await ended;
		expect(end.error).toBeInstanceOf(PushAuthError);
		expect(end.error!.message).not.toContain(user.password);
		expect(end.error!.message).not.toContain(newPassword);
		const again = await receiverFor(protocol, user)
			.start(() => undefined)
			.catch((e: unknown) => e);
		expect(again).toBeInstanceOf(PushAuthError);
	});

	test('only subscribed types arrive (E28)', async () => {
		const user = platform.createUser(15, [4]);
		const got: PushMessage[] = [];
		await receiverFor(protocol, user).start((m) => void got.push(m));
		platform.raiseEvent(15, 151, 3);
		platform.bus.emit('state.hourly', {
			orgId: 15,
			states: [{ assetId: 151, online: true, time: '2026-01-01T02:00:00Z' }],
		});
		platform.bus.emit('cbm.daily', {
			orgId: 15,
			assetId: 151,
			results: [{ deviceUnitType: 'IGBT', deviceUnitStatus: 'Red' }],
		});
		await waitFor(() => got.length >= 1, 'the CBM message');
		platform.setTypes(user.userName, [1, 4]);
		platform.raiseEvent(15, 151, 4);
		await waitFor(() => got.length >= 2, 'the event after E28');
		await new Promise((r) => setTimeout(r, 100));
		expect(got.map((m) => m.dataType)).toEqual(['AssetCBM', 'AssetEvent']);
		expect(got[1].record).toMatchObject({ id: 4 });
	});

	test('a connection dropped mid-stream loses nothing and duplicates nothing', async () => {
		const user = platform.createUser(16, [1]);
		const relay = await startRelay(platform.channel.urls[protocol]);
		const seen: number[] = [];
		let failOnce = true;
		const receiver = createPushReceiver({
			url: relay.url,
			...user,
			reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
		});
		open.push(receiver);
		await receiver.start(async (m) => {
			const id = (m.record as { id: number }).id;
			// A handler that fails leaves the delivery unacknowledged: it must come again.
			if (id === 20 && failOnce) {
				failOnce = false;
				throw new Error('downstream busy');
			}
			await new Promise((r) => setTimeout(r, 1));
			seen.push(id);
		});
		for (let i = 1; i <= 100; i++) platform.raiseEvent(16, 161, i);
		await waitFor(() => seen.length >= 40, '40 events');
		relay.cut(); // the socket dies mid-stream, unacknowledged deliveries in flight
		for (let i = 101; i <= 150; i++) platform.raiseEvent(16, 161, i);
		await waitFor(() => seen.length >= 150, '150 events', 30_000);
		await new Promise((r) => setTimeout(r, 200));
		await relay.close();
		expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
		expect(receiver.stats.failed).toBe(1);
		expect(receiver.stats.reconnects).toBeGreaterThanOrEqual(1);
	});

	test('a lost connection is not made again while mayReconnect says no (a replica that no longer leads)', async () => {
		const user = platform.createUser(18, [1]);
		const relay = await startRelay(platform.channel.urls[protocol]);
		const seen: number[] = [];
		let leads = true;
		let asked = 0;
		const mayReconnect = () => {
			asked++;
			return leads;
		};
		const receiver = createPushReceiver({
			url: relay.url,
			...user,
			reconnect: { initialDelayMs: 20, maxDelayMs: 50 },
			mayReconnect,
		});
		open.push(receiver);
		await receiver.start((m) => void seen.push((m.record as { id: number }).id));
		platform.raiseEvent(18, 181, 1);
		await waitFor(() => seen.length === 1, 'the first event');
		leads = false;
		relay.cut();
		for (let i = 2; i <= 5; i++) platform.raiseEvent(18, 181, i);
		await waitFor(() => asked >= 5, 'five reconnect attempts refused');
		expect(receiver.stats.reconnects).toBe(0);
		expect(seen).toEqual([1]);
		leads = true;
		await waitFor(() => seen.length === 5, 'what waited at the broker, once reconnected');
		await relay.close();
		expect(seen).toEqual([1, 2, 3, 4, 5]);
		expect(receiver.stats.reconnects).toBe(1);
	});

	test('deleting the user (E29) ends the stream cleanly', async () => {
		const user = platform.createUser(17, [1]);
		const got: PushMessage[] = [];
		const receiver = receiverFor(protocol, user);
		const ended = new Promise<{ reason: string; error?: Error }>((resolve) =>
			receiver.once('end', resolve),
		);
		await receiver.start((m) => void got.push(m));
		platform.raiseEvent(17, 171, 1);
		await waitFor(() => got.length === 1, 'the event before E29');
		platform.deleteUser(user.userName);
		const end = await ended;
		expect(end.reason).toBe('error');
		expect(end.error!.message).toMatch(
			protocol === 'amqp' ? /deleted \(E29\)/ : /credentials rejected/,
		);
		platform.raiseEvent(17, 171, 2);
		await new Promise((r) => setTimeout(r, 100));
		expect(got).toHaveLength(1);
	});
});
