/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a build script, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Debian's redis-server for n8n's queue mode: on 127.0.0.1, a free port, no persistence, in its
// own process group; stopped by the test that started it.
import fs from 'node:fs';
import net from 'node:net';

import { freePort } from './instance';
import { startDetached, stop } from './process';

export interface RedisServer {
	port: number;
	stop(): Promise<void>;
}

export const REDIS_SERVER = '/usr/bin/redis-server';

export async function startRedis(timeoutMs = 30_000): Promise<RedisServer> {
	if (!fs.existsSync(REDIS_SERVER))
		throw new Error(`${REDIS_SERVER} is missing: apt-get install redis-server (.ci/run does)`);
	const port = await freePort();
	const child = startDetached(REDIS_SERVER, [
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--save',
		'',
		'--appendonly',
		'no',
		'--protected-mode',
		'yes',
	]);
	child.stdout?.resume();
	child.stderr?.resume();
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
		const pong = await new Promise<boolean>((resolve) => {
			const socket = net.connect(port, '127.0.0.1');
			socket.once('connect', () => socket.write('PING\r\n'));
			socket.once('data', (data) => {
				socket.destroy();
				resolve(data.toString().startsWith('+PONG'));
			});
			socket.once('error', () => resolve(false));
		});
		if (pong) return { port, stop: () => stop(child) };
		if (Date.now() > deadline) {
			await stop(child);
			throw new Error(`redis-server did not answer PING within ${timeoutMs} ms`);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
