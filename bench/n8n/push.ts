/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a benchmark program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Emptying the data-subscription user's queues between push runs. Each variant consumes the same
// user's data: the AMQP queue keeps what nobody took (assumption P5) and our MQTT trigger's session
// is persistent (a client id per workflow and node, clean: false), so one variant's burst would
// otherwise wait for the next variant as a backlog.
import { randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import { create_container, type EventContext } from 'rhea';

import { DEFAULT_ADDRESS_TEMPLATES, fillAddressTemplate } from '../../shared/push';

export interface PushUser {
	userName: string;
	password: string;
	topic: string;
}

/** Resolves once nothing arrived for `quietMs`; returns how many messages were taken. */
function untilQuiet(quietMs: number, subscribe: (arrived: () => void) => void): Promise<number> {
	return new Promise((resolve) => {
		let taken = 0;
		let timer = setTimeout(() => resolve(taken), quietMs);
		subscribe(() => {
			taken++;
			clearTimeout(timer);
			timer = setTimeout(() => resolve(taken), quietMs);
		});
	});
}

export async function drainAmqp(url: string, user: PushUser, quietMs = 1500): Promise<number> {
	const target = new URL(url);
	const connection = create_container({ id: `bench-drain-${randomUUID()}` }).connect({
		host: target.hostname,
		port: Number(target.port),
		username: user.userName,
		password: user.password,
		reconnect: false,
	});
	const receiver = connection.open_receiver({
		source: { address: fillAddressTemplate(DEFAULT_ADDRESS_TEMPLATES.amqp, user) },
		credit_window: 500,
		autoaccept: true,
	});
	await new Promise<void>((resolve, reject) => {
		receiver.once('receiver_open', () => resolve());
		connection.once('connection_error', (context: EventContext) =>
			reject(new Error(String(context.connection.error))),
		);
	});
	const taken = await untilQuiet(quietMs, (arrived) => receiver.on('message', arrived));
	await new Promise<void>((resolve) => {
		connection.once('connection_close', () => resolve());
		connection.close();
	});
	return taken;
}

/**
 * Empties the persistent session of our trigger's MQTT client in one workflow (its id is the
 * workflow's, see triggerClientId): a clean connect with that id makes the broker drop the session
 * and what it queued; the trigger's next connect starts a new one.
 */
export async function drainMqtt(url: string, user: PushUser, clientId: string): Promise<void> {
	const client = await mqtt.connectAsync(url, {
		username: user.userName,
		password: user.password,
		clientId,
		clean: true,
		reconnectPeriod: 0,
	});
	await client.endAsync();
}
