/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: it starts a private PostgreSQL with initdb and pg_ctl as an operator would; n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The private PostgreSQL itself, without jest's hooks: the tests (through postgres.ts) and the compiled benchmarks use it.

/** Debian's PostgreSQL 15, the version the high-availability guide names as tested. */
const BIN = process.env.DRIVE_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PrivatePostgres {
	readonly port: number;
	readonly user: string;
	readonly password: string;
	readonly database: string;
	url(): string;
	/** Stops the server, keeping its data, as an outage or a restart of PostgreSQL would. */
	stopServer(): void;
	/** Starts it again on the same port with the same data. */
	startServer(): void;
	stop(): void;
}

const freePort = async (): Promise<number> =>
	new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() =>
				typeof address === 'object' && address
					? resolve(address.port)
					: reject(new Error('no port')),
			);
		});
	});

/** PostgreSQL refuses to run as root: CI runs as root, so the server runs as the `postgres` account there. */
const asServerUser = (command: string, args: string[]): [string, string[]] =>
	process.getuid?.() === 0
		? ['runuser', ['-u', 'postgres', '--', command, ...args]]
		: [command, args];

const run = (command: string, args: string[]): void => {
	const [file, argv] = asServerUser(command, args);
	execFileSync(file, argv, { stdio: 'pipe', timeout: 60_000 });
};

/**
 * Starts a private server on 127.0.0.1 and a free port in a temporary directory, with a password-protected,
 * non-superuser role that owns its database (as production's role should be; CREATEDB only so the bot suite can make a database per test state, the bot needs no more than its own database).
 */
export async function startPostgres(): Promise<PrivatePostgres> {
	const dir = mkdtempSync(join(tmpdir(), 'drive-pg-'));
	chmodSync(dir, 0o777);
	const data = join(dir, 'data');
	const superPassword = 'super-' + Math.random().toString(36).slice(2);
	const pwfile = join(dir, 'pw');
	writeFileSync(pwfile, superPassword, { mode: 0o644 });
	if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres', dir]);
	run(join(BIN, 'initdb'), [
		'-D',
		data,
		'-U',
		'postgres',
		'--auth=scram-sha-256',
		`--pwfile=${pwfile}`,
		'-E',
		'UTF8',
		'--no-sync',
	]);
	const port = await freePort();
	const startServer = (): void =>
		run(join(BIN, 'pg_ctl'), [
			'-D',
			data,
			'-l',
			join(dir, 'log'),
			'-w',
			'-t',
			'60',
			'-o',
			`-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=300`,
			'start',
		]);
	const stopServer = (): void => {
		const [file, argv] = asServerUser(join(BIN, 'pg_ctl'), [
			'-D',
			data,
			'-m',
			'fast',
			'-w',
			'stop',
		]);
		const result = spawnSync(file, argv, { stdio: 'pipe', timeout: 60_000 });
		if (result.status !== 0)
			throw new Error(
				`pg_ctl stop failed (${result.error?.message ?? `status ${result.status}`}): ${String(result.stderr)}`,
			);
	};
	startServer();
	const stop = (): void => {
		try {
			stopServer();
		} catch {
			// Already stopped (a test stopped it and failed before starting it again).
		}
		rmSync(dir, { recursive: true, force: true });
	};
	const user = 'drive_bot';
	const password = 'p@ss/' + Math.random().toString(36).slice(2);
	const database = 'drive_bot';
	try {
		const { Client } = await import('pg');
		const admin = new Client({
			host: '127.0.0.1',
			port,
			user: 'postgres',
			password: superPassword,
			database: 'postgres',
		});
		await admin.connect();
		await admin.query(
			`CREATE ROLE ${user} LOGIN CREATEDB PASSWORD '${password.replace(/'/g, "''")}'`,
		);
		await admin.query(`CREATE DATABASE ${database} OWNER ${user}`);
		await admin.end();
	} catch (error) {
		stop();
		throw error;
	}
	return {
		port,
		user,
		password,
		database,
		url: () => `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
		stopServer,
		startServer,
		stop,
	};
}
