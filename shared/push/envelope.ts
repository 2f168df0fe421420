// The envelope the platform is assumed to push (assumption P3). The simulator writes it; the
// normalizer reads it and tolerates variations (either casing, a bare record, type numbers).
import { SUB_DATA_TYPES } from '../spec';
import type { PushDataType } from './types';

export interface PushEnvelope {
	messageId: string;
	dataType: PushDataType;
	orgId?: number;
	assetId?: number;
	/** ISO 8601 UTC. */
	time: string;
	/** An Event, an asset state, a Report, or the list of CBM results. */
	data: unknown;
}

/**
 * Where each protocol finds a user's data (assumption P2). `{topic}` and `{userName}` are replaced.
 * AMQP's is the simulator's form; without a template the receiver picks the broker's form.
 */
export const DEFAULT_ADDRESS_TEMPLATES = { amqp: '{topic}', mqtt: 'dm/{topic}/#' } as const;

/** The MQTT topic a message of `dataType` is published on for the user's Topic. */
export function mqttTopicOf(topic: string, dataType: PushDataType): string {
	return `dm/${topic}/${dataType}`;
}

export function fillAddressTemplate(
	template: string,
	values: { topic: string; userName: string },
): string {
	return template.replace(/\{(topic|userName)\}/g, (_m, key: 'topic' | 'userName') => values[key]);
}

const TYPE_BY_NUMBER = new Map<number, PushDataType>(
	Object.entries(SUB_DATA_TYPES).map(([name, number]) => [number, name as PushDataType]),
);

/** `AssetEvent`, `assetevent`, `1` or `"1"` -> `AssetEvent`; undefined when it names no type. */
export function parseDataType(value: unknown): PushDataType | undefined {
	if (typeof value === 'number') return TYPE_BY_NUMBER.get(value);
	if (typeof value !== 'string') return undefined;
	const trimmed = value.trim();
	if (/^\d+$/.test(trimmed)) return TYPE_BY_NUMBER.get(Number(trimmed));
	return (Object.keys(SUB_DATA_TYPES) as PushDataType[]).find(
		(name) => name.toLowerCase() === trimmed.toLowerCase(),
	);
}
