/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// MQTT QoS 1 acknowledgements on the wire: with several messages handled at once, each PUBACK
// still waits for its handler, and PUBACKs leave in the order the PUBLISHes arrived (MQTT 3.1.1
// and 5, section 4.6). A TCP tap between the receiver and the simulator's broker reads both
// directions with mqtt-packet, the parser mqtt.js and aedes use.
import { once } from 'node:events';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import mqttPacket from 'mqtt-packet';
import { createPushReceiver, type PushMessage, type PushReceiver } from '../../shared/push';
import { startTestPlatform, waitFor, type TestPlatform } from './platform';

let platform: TestPlatform;
let tap: {
	url: string;
	published: number[];
	acked: number[];
	server: Server;
	sockets: Set<Socket>;
};
let receiver: PushReceiver | undefined;

/** A TCP relay to `target` that records PUBLISH ids (broker to client) and PUBACK ids (client to broker). */
async function startTap(target: URL): Promise<typeof tap> {
	const published: number[] = [];
	const acked: number[] = [];
	const sockets = new Set<Socket>();
	const server = createServer((client) => {
		const upstream = connect(Number(target.port), target.hostname);
		const fromClient = mqttPacket.parser({ protocolVersion: 4 });
		const fromBroker = mqttPacket.parser({ protocolVersion: 4 });
		fromClient.on('packet', (packet) => packet.cmd === 'puback' && acked.push(packet.messageId!));
		fromBroker.on(
			'packet',
			(packet) => packet.cmd === 'publish' && packet.qos === 1 && published.push(packet.messageId!),
		);
		client.on('data', (chunk) => (fromClient.parse(chunk), upstream.write(chunk)));
		upstream.on('data', (chunk) => (fromBroker.parse(chunk), client.write(chunk)));
		for (const socket of [client, upstream]) {
			sockets.add(socket);
			socket.on('error', () => undefined);
			socket.on('close', () => (sockets.delete(socket), client.destroy(), upstream.destroy()));
		}
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	return {
		url: `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`,
		published,
		acked,
		server,
		sockets,
	};
}

beforeAll(async () => {
	platform = await startTestPlatform();
	tap = await startTap(new URL(platform.channel.urls.mqtt));
});
afterEach(async () => {
	await receiver?.close();
});
afterAll(async () => {
	for (const socket of tap.sockets) socket.destroy();
	await new Promise((resolve) => tap.server.close(resolve));
	await platform.close();
});

test('ten handled at once, finishing in reverse order: each PUBACK after its handler, all in arrival order', async () => {
	const user = platform.createUser(61, [1]);
	const count = 10;
	let running = 0;
	let peak = 0;
	const finishedAt = new Map<number, number>();
	const release: Array<() => void> = [];
	receiver = createPushReceiver({
		url: tap.url,
		...user,
		prefetch: count,
		reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
	});
	await receiver.start(async (message: PushMessage) => {
		running++;
		peak = Math.max(peak, running);
		await new Promise<void>((resolve) => release.push(resolve));
		running--;
		finishedAt.set((message.record as { id: number }).id, tap.acked.length);
	});
	for (let id = 1; id <= count; id++) platform.raiseEvent(61, 961, id);
	await waitFor(() => release.length === count, 'every handler to start');
	expect(peak).toBe(count);
	// The last to arrive finishes first: nothing may be acknowledged before the first finished.
	for (const resolve of release.reverse().slice(0, count - 1)) {
		resolve();
		await new Promise((r) => setTimeout(r, 20));
	}
	expect(tap.acked).toEqual([]);
	release[count - 1]();
	await waitFor(() => tap.acked.length === count, 'every PUBACK');
	expect(tap.acked).toEqual(tap.published.slice(0, count));
	expect([...finishedAt.values()].every((acks) => acks === 0)).toBe(true);
});
