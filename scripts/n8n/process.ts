/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a build script, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Child processes for the real-n8n tests: run a command to completion, or keep a server running
// and stop it (and everything it started) afterwards.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import path from 'node:path';

/** Node 24 (the `node` devDependency) first on the PATH, so that npm and n8n run on it too. */
export function node24Env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const binDir = path.dirname(process.execPath);
	return { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`, ...extra };
}

export interface RunResult {
	stdout: string;
	stderr: string;
	code: number;
}

export class CommandFailedError extends Error {
	constructor(
		readonly command: string,
		readonly result: RunResult,
	) {
		const tail = (result.stderr || result.stdout).trim().split('\n').slice(-25).join('\n');
		super(`\`${command}\` exited with ${result.code}:\n${tail}`);
	}
}

/** Runs a command to completion; rejects with its output's tail when it fails (unless allowFailure). */
export function run(
	command: string,
	args: string[],
	options: SpawnOptions & { allowFailure?: boolean; timeoutMs?: number } = {},
): Promise<RunResult> {
	const { allowFailure, timeoutMs = 15 * 60_000, ...spawnOptions } = options;
	const shown = [path.basename(command), ...args].join(' ');
	return new Promise((resolve, reject) => {
		// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- a test harness that runs npm and n8n, not node code
		const child = spawn(command, args, {
			env: node24Env(),
			...spawnOptions,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
		child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
		const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			const result = {
				stdout: Buffer.concat(out).toString('utf8'),
				stderr: Buffer.concat(err).toString('utf8'),
				code: code ?? (signal ? 128 : 1),
			};
			if (result.code !== 0 && !allowFailure) reject(new CommandFailedError(shown, result));
			else resolve(result);
		});
	});
}

/**
 * Starts a long-running process in its own process group, so that stop() ends it and its
 * children (n8n starts task runners) by the group's id and nothing else.
 */
export function startDetached(
	command: string,
	args: string[],
	options: SpawnOptions = {},
): ChildProcess {
	// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- a test harness that runs npm and n8n, not node code
	return spawn(command, args, {
		env: node24Env(),
		...options,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
}

/** SIGTERM to the process group, SIGKILL after the grace period; resolves when the leader exited. */
export async function stop(child: ChildProcess, graceMs = 10_000): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const signalGroup = (signal: NodeJS.Signals) => {
		try {
			process.kill(-child.pid!, signal);
		} catch {
			// already gone
		}
	};
	signalGroup('SIGTERM');
	const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
	await exited;
	clearTimeout(timer);
	// Children of the group (task runners) may outlive the leader by a moment.
	signalGroup('SIGKILL');
}
