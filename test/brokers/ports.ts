/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { createServer, type AddressInfo } from 'node:net';

/** Ports free on 127.0.0.1 right now, all different (the OS picks them). */
export async function freePorts(count: number): Promise<number[]> {
	const servers = await Promise.all(
		Array.from(
			{ length: count },
			() =>
				new Promise<import('node:net').Server>((resolve) => {
					const server = createServer();
					server.listen(0, '127.0.0.1', () => resolve(server));
				}),
		),
	);
	const ports = servers.map((s) => (s.address() as AddressInfo).port);
	await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
	return ports;
}

/** Resolves once something accepts TCP connections on the port. */
export async function waitForPort(port: number, what: string, ms = 60_000): Promise<void> {
	const { connect } = await import('node:net');
	const until = Date.now() + ms;
	for (;;) {
		const open = await new Promise<boolean>((resolve) => {
			const socket = connect(port, '127.0.0.1');
			socket.once('connect', () => {
				socket.destroy();
				resolve(true);
			});
			socket.once('error', () => resolve(false));
		});
		if (open) return;
		if (Date.now() > until)
			throw new Error(`${what} did not listen on 127.0.0.1:${port} within ${ms} ms`);
		await new Promise((r) => setTimeout(r, 100));
	}
}
