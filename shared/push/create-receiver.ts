import type { PushAdapter } from './adapter';
import { createAmqpAdapter } from './amqp';
import { botClientId } from './client-id';
import { DEFAULT_ADDRESS_TEMPLATES, fillAddressTemplate } from './envelope';
import { PushError } from './errors';
import { createMqttAdapter } from './mqtt';
import { Receiver } from './receiver';
import { PUSH_DATA_TYPES, type PushReceiver, type PushReceiverOptions } from './types';

const ADAPTERS = {
	'amqp:': { protocol: 'amqp', create: createAmqpAdapter },
	'amqps:': { protocol: 'amqp', create: createAmqpAdapter },
	'mqtt:': { protocol: 'mqtt', create: createMqttAdapter },
	'mqtts:': { protocol: 'mqtt', create: createMqttAdapter },
} as const;

/** A receiver for the data-subscription user's pushed data; the URL scheme picks the protocol. */
export function createPushReceiver(options: PushReceiverOptions): PushReceiver {
	const url = parseBrokerUrl(options.url);
	const scheme = url.protocol as keyof typeof ADAPTERS;
	const { protocol, create } = ADAPTERS[scheme];
	for (const field of ['userName', 'password', 'topic'] as const) {
		if (typeof options[field] !== 'string' || options[field].trim() === '') {
			throw new PushError(
				`push receiver option "${field}" is empty: the data-subscription user's ${field} is required (E26/E28)`,
				true,
			);
		}
	}
	const unknownTypes = (options.dataTypes ?? []).filter((t) => !PUSH_DATA_TYPES.includes(t));
	if (unknownTypes.length > 0) {
		throw new PushError(
			`push receiver option "dataTypes" has ${JSON.stringify(unknownTypes)}: allowed are ${PUSH_DATA_TYPES.join(', ')}`,
			true,
		);
	}
	const prefetch = options.prefetch ?? 10;
	if (!Number.isInteger(prefetch) || prefetch < 1) {
		throw new PushError(
			`push receiver option "prefetch" is ${String(prefetch)}: it must be a whole number of at least 1`,
			true,
		);
	}
	// AMQP without a template: the form the broker's open frame asks for (P2).
	const template =
		options.addressTemplate?.trim() ||
		(protocol === 'mqtt' ? DEFAULT_ADDRESS_TEMPLATES.mqtt : undefined);
	const adapter: PushAdapter = create({
		url,
		userName: options.userName,
		password: options.password,
		topic: options.topic,
		address:
			template === undefined
				? undefined
				: fillAddressTemplate(template, { topic: options.topic, userName: options.userName }),
		clientId: options.clientId ?? botClientId(options.userName),
		persistentSession: options.persistentSession ?? true,
		prefetch,
		connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
		allowUnauthorizedCerts: options.allowUnauthorizedCerts ?? false,
	});
	const receiver = new Receiver(adapter, {
		dataTypes: options.dataTypes,
		dedupSize: options.dedupSize ?? 10_000,
		initialDelayMs: options.reconnect?.initialDelayMs ?? 250,
		maxDelayMs: options.reconnect?.maxDelayMs ?? 30_000,
		mayReconnect: options.mayReconnect,
		logger: options.logger,
		signal: options.signal,
	});
	// The class is an EventEmitter; the interface narrows its events to the ones it emits.
	return receiver as unknown as PushReceiver;
}

function parseBrokerUrl(value: string): URL {
	if (!URL.canParse(value)) {
		throw new PushError(
			`push broker URL "${value.replace(/\/\/[^@/]*@/, '//***@')}" is not a URL: expected amqp://, amqps://, mqtt:// or mqtts://host:port`,
			true,
		);
	}
	const url = new URL(value);
	if (!(url.protocol in ADAPTERS)) {
		throw new PushError(
			`push broker URL scheme "${url.protocol}" is not supported: use amqp:, amqps:, mqtt: or mqtts: (the scheme picks the protocol, it is never guessed)`,
			true,
		);
	}
	return url;
}
