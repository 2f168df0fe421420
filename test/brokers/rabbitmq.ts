/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// A private RabbitMQ (Debian's rabbitmq-server 3.x) for one test suite: its own node name, Mnesia
// directory, config, enabled plugins (AMQP 1.0 and MQTT), Erlang cookie and epmd port, listening
// on free ports of 127.0.0.1 only, run as the current user and stopped after the suite.
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- a test starts its own broker: running it is the point; this is not node code */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePorts, waitForPort } from './ports';

const run = promisify(execFile);
const BIN = '/usr/lib/rabbitmq/bin';

export interface RabbitMq {
	amqpUrl: string;
	mqttUrl: string;
	adminUser: string;
	adminPassword: string;
	ctl(...args: string[]): Promise<string>;
	/** A durable classic queue, declared as the admin (the platform creates the user's queue). */
	declareQueue(name: string): Promise<void>;
	/** A user with configure, write and read patterns on vhost "/". */
	addUser(
		name: string,
		password: string,
		permissions: { configure: string; write: string; read: string },
	): Promise<void>;
	restart(): Promise<void>;
	stop(): Promise<void>;
}

export async function startRabbitMq(): Promise<RabbitMq> {
	const dir = mkdtempSync(join(tmpdir(), 'dm-rabbitmq-'));
	const [amqpPort, mqttPort, distPort, epmdPort] = await freePorts(4);
	const nodeName = `dm${process.pid}x${amqpPort}@localhost`;
	const adminUser = 'dm-admin';
	const adminPassword = `admin-${amqpPort}`;
	mkdirSync(join(dir, 'home'));
	writeFileSync(
		join(dir, 'rabbitmq.conf'),
		[
			`listeners.tcp.default = 127.0.0.1:${amqpPort}`,
			`mqtt.listeners.tcp.default = 127.0.0.1:${mqttPort}`,
			'mqtt.allow_anonymous = false',
			'distribution.listener.interface = 127.0.0.1',
			'loopback_users = none',
			`default_user = ${adminUser}`,
			`default_pass = ${adminPassword}`,
			// Keep a burst in memory rather than paging it out on a small CI disk.
			'disk_free_limit.absolute = 50MB',
			'',
		].join('\n'),
	);
	writeFileSync(join(dir, 'enabled_plugins'), '[rabbitmq_amqp1_0,rabbitmq_mqtt].\n');
	writeFileSync(join(dir, 'advanced.config'), '[].\n');
	const env: NodeJS.ProcessEnv = {
		...process.env,
		HOME: join(dir, 'home'),
		RABBITMQ_NODENAME: nodeName,
		RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
		RABBITMQ_NODE_PORT: String(amqpPort),
		RABBITMQ_DIST_PORT: String(distPort),
		ERL_EPMD_PORT: String(epmdPort),
		ERL_EPMD_ADDRESS: '127.0.0.1',
		RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
		RABBITMQ_LOG_BASE: join(dir, 'log'),
		RABBITMQ_LOGS: join(dir, 'log', 'rabbit.log'),
		RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
		RABBITMQ_ADVANCED_CONFIG_FILE: join(dir, 'advanced.config'),
		RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
		RABBITMQ_CONF_ENV_FILE: join(dir, 'rabbitmq-env.conf'),
		RABBITMQ_PID_FILE: join(dir, 'rabbit.pid'),
	};
	const ctl = async (...args: string[]): Promise<string> =>
		(await run(`${BIN}/rabbitmqctl`, ['-q', ...args], { env, timeout: 120_000 })).stdout;

	let server: ChildProcess | undefined;
	const boot = async (): Promise<void> => {
		server = spawn(`${BIN}/rabbitmq-server`, [], { env, stdio: 'ignore' });
		await ctl('wait', '--timeout', '120', env.RABBITMQ_PID_FILE!);
		await waitForPort(amqpPort, 'RabbitMQ AMQP');
		await waitForPort(mqttPort, 'RabbitMQ MQTT');
	};
	const halt = async (): Promise<void> => {
		await ctl('stop', env.RABBITMQ_PID_FILE!).catch(() => undefined);
		const child = server;
		if (child && child.exitCode === null)
			await new Promise((resolve) => child.once('exit', resolve));
	};
	await boot();
	return {
		amqpUrl: `amqp://127.0.0.1:${amqpPort}`,
		mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
		adminUser,
		adminPassword,
		ctl,
		declareQueue: async (name) => {
			await ctl(
				'eval',
				`rabbit_amqqueue:declare(rabbit_misc:r(<<"/">>, queue, <<"${name}">>), true, false, [], none, <<"${adminUser}">>).`,
			);
		},
		addUser: async (name, password, permissions) => {
			await ctl('add_user', name, password);
			await ctl(
				'set_permissions',
				'-p',
				'/',
				name,
				permissions.configure,
				permissions.write,
				permissions.read,
			);
		},
		restart: async () => {
			await halt();
			await boot();
		},
		stop: async () => {
			await halt();
			await run('epmd', ['-port', String(epmdPort), '-kill']).catch(() => undefined);
			rmSync(dir, { recursive: true, force: true });
		},
	};
}
