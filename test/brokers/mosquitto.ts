/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// A private Mosquitto 2.0 for one test suite: its own config with one listener on 127.0.0.1, a
// password file and an ACL, run as the current user, stopped after the suite.
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- a test starts its own broker: running it is the point; this is not node code */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
	appendFileSync,
	existsSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePorts, waitForPort } from './ports';

const run = promisify(execFile);

/** Mosquitto's default of 1000 queued messages per client drops a 10,000 burst (P5). */
export const MAX_QUEUED_MESSAGES = 100_000;

export interface Mosquitto {
	url: string;
	adminUser: string;
	adminPassword: string;
	/** A user allowed to read `readPattern` (an ACL topic pattern), or nothing. */
	addUser(name: string, password: string, readPattern?: string): Promise<void>;
	/** What the broker logged (notices and up), when started with `{ log: true }`. */
	log(): string;
	/** Stopped (SIGTERM: the session store is saved) and started again on the same port. */
	restart(): Promise<void>;
	stop(): Promise<void>;
}

export async function startMosquitto(options: { log?: boolean } = {}): Promise<Mosquitto> {
	const dir = mkdtempSync(join(tmpdir(), 'dm-mosquitto-'));
	const [port] = await freePorts(1);
	const adminUser = 'dm-admin';
	const adminPassword = `admin-${port}`;
	const passwords = join(dir, 'passwd');
	const acl = join(dir, 'acl');
	writeFileSync(passwords, '');
	writeFileSync(acl, `user ${adminUser}\ntopic readwrite #\n`);
	await run('mosquitto_passwd', ['-b', passwords, adminUser, adminPassword]);
	writeFileSync(
		join(dir, 'mosquitto.conf'),
		[
			// Started as root, Mosquitto would switch to user "mosquitto", who cannot read this directory.
			`user ${userInfo().username}`,
			`listener ${port} 127.0.0.1`,
			'allow_anonymous false',
			`password_file ${passwords}`,
			`acl_file ${acl}`,
			`max_queued_messages ${MAX_QUEUED_MESSAGES}`,
			'max_inflight_messages 20',
			// Sessions and queued messages survive a restart (P5).
			'persistence true',
			`persistence_location ${dir}/`,
			'autosave_interval 1',
			...(options.log
				? [
						`log_dest file ${join(dir, 'mosquitto.log')}`,
						'log_type notice',
						'log_type information',
						'log_type warning',
						'log_type error',
					]
				: ['log_dest none']),
			'',
		].join('\n'),
	);
	let server!: ChildProcess;
	const boot = async (): Promise<void> => {
		server = spawn('/usr/sbin/mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
		await waitForPort(port, 'Mosquitto');
	};
	const halt = async (): Promise<void> => {
		if (server.exitCode !== null || server.signalCode !== null) return;
		const exited = new Promise((resolve) => server.once('exit', resolve));
		server.kill('SIGTERM');
		await exited;
	};
	await boot();
	return {
		url: `mqtt://127.0.0.1:${port}`,
		adminUser,
		adminPassword,
		addUser: async (name, password, readPattern) => {
			await run('mosquitto_passwd', ['-b', passwords, name, password]);
			appendFileSync(acl, `\nuser ${name}\n${readPattern ? `topic read ${readPattern}\n` : ''}`);
			server.kill('SIGHUP');
			await new Promise((r) => setTimeout(r, 300));
		},
		log: () =>
			existsSync(join(dir, 'mosquitto.log'))
				? readFileSync(join(dir, 'mosquitto.log'), 'utf8')
				: '',
		restart: async () => {
			await halt();
			await boot();
		},
		stop: async () => {
			await halt();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}
