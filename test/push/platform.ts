/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// A stand-in for the simulator around the real push channel: the real SimulatorBus and
// startPushChannel, with data-subscription users kept here (as E26 to E30 would).
import { randomUUID } from 'node:crypto';
import { SimulatorBus } from '../../simulator/bus';
import { startPushChannel, type PushChannel, type SubscriberRecord } from '../../simulator/push';

export interface TestPlatform {
	bus: SimulatorBus;
	channel: PushChannel;
	createUser(orgId: number, subDataTypes?: number[]): SubscriberRecord;
	resetPassword(userName: string): string;
	deleteUser(userName: string): void;
	setTypes(userName: string, subDataTypes: number[]): void;
	raiseEvent(
		orgId: number,
		assetId: number,
		eventId: number,
		eventType?: 'Fault' | 'Warning' | 'Notification',
	): void;
	close(): Promise<void>;
}

/** `now`: the platform's clock (default the real one), for messages made at one instant; `queueLimit`: P5's per-user AMQP limit. */
export async function startTestPlatform(
	options: { now?: () => Date; queueLimit?: number } = {},
): Promise<TestPlatform> {
	const bus = new SimulatorBus();
	const users = new Map<string, SubscriberRecord>();
	const channel = await startPushChannel(
		{
			bus,
			findSubscriber: (name) => users.get(name),
			listSubscribers: () => [...users.values()],
			now: options.now,
		},
		{ host: '127.0.0.1', queueLimit: options.queueLimit },
	);
	return {
		bus,
		channel,
		createUser: (orgId, subDataTypes = [1, 2, 3, 4]) => {
			const user: SubscriberRecord = {
				id: randomUUID(),
				orgId,
				userName: `sub-${randomUUID().slice(0, 8)}`,
				password: randomUUID(),
				topic: `org${orgId}-${randomUUID().slice(0, 6)}`,
				subDataTypes,
			};
			users.set(user.userName, user);
			bus.emit('subscriber.changed', { orgId, userName: user.userName, change: 'created' });
			return { ...user };
		},
		resetPassword: (userName) => {
			const user = users.get(userName)!;
			user.password = randomUUID();
			bus.emit('subscriber.changed', { orgId: user.orgId, userName, change: 'reset' });
			return user.password;
		},
		deleteUser: (userName) => {
			const user = users.get(userName)!;
			users.delete(userName);
			bus.emit('subscriber.changed', { orgId: user.orgId, userName, change: 'deleted' });
		},
		setTypes: (userName, subDataTypes) => {
			const user = users.get(userName)!;
			user.subDataTypes = subDataTypes;
			bus.emit('subscriber.changed', { orgId: user.orgId, userName, change: 'types' });
		},
		raiseEvent: (orgId, assetId, eventId, eventType = 'Fault') =>
			bus.emit('event.created', {
				orgId,
				assetId,
				event: {
					id: eventId,
					eventType,
					eventCode: `F${eventId}`,
					eventDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, eventId % 60)).toISOString(),
					eventStatus: 'Open',
					content: `event ${eventId}`,
					deviceWorkStatus: 1,
					isHasEventLogger: false,
				},
			}),
		close: () => channel.close(),
	};
}

/** Resolves when `predicate` holds, polling; rejects with `what` after `ms`. */
export async function waitFor(predicate: () => boolean, what: string, ms = 10_000): Promise<void> {
	const until = Date.now() + ms;
	while (!predicate()) {
		if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 10));
	}
}

/** A TCP relay in front of a broker, so a test can cut the receiver's connection mid-stream. */
export async function startRelay(
	targetUrl: string,
): Promise<{ url: string; cut(): void; close(): Promise<void> }> {
	const { createServer, connect } = await import('node:net');
	const target = new URL(targetUrl);
	const pairs = new Set<import('node:net').Socket>();
	const server = createServer((client) => {
		const upstream = connect(Number(target.port), target.hostname);
		client.pipe(upstream).pipe(client);
		for (const s of [client, upstream]) {
			pairs.add(s);
			s.on('error', () => undefined);
			s.on('close', () => {
				pairs.delete(s);
				client.destroy();
				upstream.destroy();
			});
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as import('node:net').AddressInfo).port;
	const cut = () => pairs.forEach((s) => s.destroy());
	return {
		url: `${target.protocol}//127.0.0.1:${port}`,
		cut,
		close: () => {
			cut();
			return new Promise((resolve) => server.close(() => resolve()));
		},
	};
}
