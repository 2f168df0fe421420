/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a build script, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// One n8n user folder (its own SQLite database, encryption key and installed community nodes)
// and the ways to use it: n8n's command line, and `n8n start` as a server on 127.0.0.1.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';

import { node24Env, run, startDetached, stop, type RunResult } from './process';
import type { N8nRuntime } from './runtime';

export interface N8nInstance {
	runtime: N8nRuntime;
	/** N8N_USER_FOLDER: n8n keeps its data in <userFolder>/.n8n */
	userFolder: string;
	encryptionKey: string;
}

/** n8n's environment: this user folder, no telemetry or calls home, everything on 127.0.0.1. */
export function n8nEnv(instance: N8nInstance, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	return node24Env({
		// As users run it. Jest sets NODE_ENV=test, in which n8n's logger stays silent.
		NODE_ENV: 'production',
		N8N_USER_FOLDER: instance.userFolder,
		N8N_ENCRYPTION_KEY: instance.encryptionKey,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_SECURE_COOKIE: 'false',
		DB_SQLITE_POOL_SIZE: '2',
		...extra,
	});
}

/** Runs one n8n command (`import:workflow`, `execute`, ...) to completion. */
export async function n8nCommand(
	instance: N8nInstance,
	args: string[],
	options: { allowFailure?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<RunResult> {
	const port = await freePort();
	return run(process.execPath, [instance.runtime.bin, ...args], {
		cwd: instance.userFolder,
		// Each command starts its own task runner broker: give it a port nobody else holds.
		env: n8nEnv(instance, { N8N_RUNNERS_BROKER_PORT: String(port), ...options.env }),
		allowFailure: options.allowFailure,
		timeoutMs: 5 * 60_000,
	});
}

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

export interface N8nServer {
	url: string;
	process: ChildProcess;
	stop(): Promise<void>;
}

/** `n8n start` on a free port of 127.0.0.1; resolves once /healthz/readiness answers 200. */
export async function startN8nServer(
	instance: N8nInstance,
	logFile: string,
	timeoutMs = 180_000,
	extraEnv: NodeJS.ProcessEnv = {},
): Promise<N8nServer> {
	const [port, brokerPort] = [await freePort(), await freePort()];
	const url = `http://127.0.0.1:${port}`;
	// N8N_CPU_PROF_DIR: a V8 CPU profile of the n8n main process, written there when it stops
	// (how the bench:n8n figures were profiled; Node refuses --cpu-prof in NODE_OPTIONS).
	const profile = process.env.N8N_CPU_PROF_DIR
		? ['--cpu-prof', `--cpu-prof-dir=${process.env.N8N_CPU_PROF_DIR}`]
		: [];
	const child = startDetached(process.execPath, [...profile, instance.runtime.bin, 'start'], {
		cwd: instance.userFolder,
		env: n8nEnv(instance, {
			N8N_PORT: String(port),
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			N8N_EDITOR_BASE_URL: url,
			WEBHOOK_URL: `${url}/`,
			...extraEnv,
		}),
	});
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const log = fs.createWriteStream(logFile);
	child.stdout?.pipe(log);
	child.stderr?.pipe(log);
	const server: N8nServer = { url, process: child, stop: () => stop(child) };

	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null)
			throw new Error(`n8n start exited with ${child.exitCode}; see ${logFile}`);
		try {
			const response = await fetch(`${url}/healthz/readiness`);
			if (response.ok) return server;
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	await server.stop();
	throw new Error(`n8n did not become ready within ${timeoutMs} ms; see ${logFile}`);
}

/** n8n's queue mode on a Redis at 127.0.0.1:port (the main process and every worker use it). */
export function queueModeEnv(redisPort: number): NodeJS.ProcessEnv {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
	};
}

export interface N8nWorker {
	process: ChildProcess;
	log(): string;
	stop(): Promise<void>;
}

/** `n8n worker` in queue mode; resolves once it says it is ready for jobs. */
export async function startN8nWorker(
	instance: N8nInstance,
	logFile: string,
	env: NodeJS.ProcessEnv,
	timeoutMs = 180_000,
): Promise<N8nWorker> {
	const brokerPort = await freePort();
	const child = startDetached(
		process.execPath,
		[instance.runtime.bin, 'worker', '--concurrency=10'],
		{
			cwd: instance.userFolder,
			env: n8nEnv(instance, {
				N8N_RUNNERS_BROKER_PORT: String(brokerPort),
				QUEUE_HEALTH_CHECK_ACTIVE: 'false',
				...env,
			}),
		},
	);
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const log = fs.createWriteStream(logFile);
	let text = '';
	for (const stream of [child.stdout, child.stderr]) {
		stream?.on('data', (chunk: Buffer) => {
			text += chunk.toString();
			log.write(chunk);
		});
	}
	const worker: N8nWorker = { process: child, log: () => text, stop: () => stop(child) };
	const deadline = Date.now() + timeoutMs;
	while (!/n8n worker is now ready|Worker ready|ready for jobs/i.test(text)) {
		if (child.exitCode !== null)
			throw new Error(`n8n worker exited with ${child.exitCode}; see ${logFile}`);
		if (Date.now() > deadline) {
			await worker.stop();
			throw new Error(`n8n worker did not become ready within ${timeoutMs} ms; see ${logFile}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	return worker;
}
