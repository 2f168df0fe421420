import { createHash } from 'node:crypto';
import { camelizeKeys } from './casing';
import { parseDataType } from './envelope';
import { PushMessageError } from './errors';
import { recordSchemas } from './records';
import type { PushDataType, PushMessage } from './types';

/** What the transport knows beside the body: AMQP properties, the MQTT topic. */
export interface DeliveryHints {
	messageId?: string;
	/** A data type named by the transport (AMQP subject or property, last MQTT topic level). */
	dataType?: string;
}

const DATA_KEYS = ['data', 'payload', 'record', 'body', 'content'] as const;
const TYPE_KEYS = ['dataType', 'subDataType', 'type', 'messageType'] as const;
const ID_KEYS = ['messageId', 'msgId'] as const;
const TIME_KEYS = ['time', 'timestamp', 'publishedAt', 'createdOn'] as const;

/** Turns any delivery (JSON text or bytes, either casing, enveloped or bare) into a PushMessage. */
export function normalizeDelivery(body: unknown, hints: DeliveryHints = {}): PushMessage {
	const raw = decodeBody(body);
	if (raw === null || typeof raw !== 'object') {
		throw new PushMessageError(
			`pushed message is not a JSON object: ${excerpt(JSON.stringify(raw))}`,
		);
	}
	const top = camelizeKeys(raw) as Record<string, unknown>;
	const dataKey = DATA_KEYS.find((k) => top[k] !== undefined && typeof top[k] === 'object');
	const enveloped = dataKey !== undefined && TYPE_KEYS.some((k) => top[k] !== undefined);
	const content = enveloped ? top[dataKey] : top;

	const typeSource = enveloped
		? TYPE_KEYS.map((k) => top[k]).find((v) => v !== undefined)
		: hints.dataType;
	const dataType =
		parseDataType(typeSource) ?? parseDataType(hints.dataType) ?? inferDataType(content);
	if (!dataType) {
		throw new PushMessageError(
			`pushed message names no known data type (dataType "${String(typeSource ?? '')}"; expected AssetEvent, AssetState, AssetReport or AssetCBM)`,
		);
	}

	const record = parseRecord(dataType, content);
	const envelope = enveloped ? top : {};
	const assetId = toInt(envelope.assetId) ?? toInt((record as { assetId?: unknown }).assetId);
	const orgId = toInt(envelope.orgId);
	const time =
		firstString(envelope, TIME_KEYS) ?? recordTime(dataType, record) ?? new Date().toISOString();
	const id =
		firstString(envelope, ID_KEYS) ??
		(typeof envelope.id === 'string' || typeof envelope.id === 'number'
			? String(envelope.id)
			: undefined) ??
		hints.messageId ??
		contentKey(dataType, assetId, record);
	return { id, dataType, assetId, orgId, time, record, raw } as PushMessage;
}

function decodeBody(body: unknown): unknown {
	// rhea hands a data section over as { typecode: 117, content: Buffer }.
	if (body && typeof body === 'object' && 'typecode' in body && 'content' in body)
		return decodeBody(body.content);
	if (body instanceof Uint8Array)
		body = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
	if (typeof body !== 'string') return body;
	const parsed = parseJson(body);
	if (!parsed.ok) throw new PushMessageError(`pushed message is not JSON: ${excerpt(body)}`);
	return parsed.value;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch {
		return { ok: false };
	}
}

function parseRecord(dataType: PushDataType, content: unknown): PushMessage['record'] {
	// CBM results come as a list, or as an object holding it.
	let value = content;
	if (dataType === 'AssetCBM' && value && !Array.isArray(value) && typeof value === 'object') {
		const holder = value as Record<string, unknown>;
		value = holder.results ?? holder.cbm ?? holder.units ?? [value];
	}
	const parsed = recordSchemas[dataType].safeParse(value);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new PushMessageError(
			`pushed ${dataType} record is invalid: field "${issue.path.join('.') || '(record)'}": ${issue.message}`,
		);
	}
	return parsed.data as PushMessage['record'];
}

function inferDataType(content: unknown): PushDataType | undefined {
	if (Array.isArray(content))
		return content.some((u) => u && typeof u === 'object' && 'deviceUnitType' in u)
			? 'AssetCBM'
			: undefined;
	if (!content || typeof content !== 'object') return undefined;
	if ('eventType' in content || 'eventCode' in content) return 'AssetEvent';
	if ('online' in content) return 'AssetState';
	if ('reportType' in content || ('title' in content && 'status' in content)) return 'AssetReport';
	if ('deviceUnitType' in content) return 'AssetCBM';
	return undefined;
}

function recordTime(dataType: PushDataType, record: PushMessage['record']): string | undefined {
	const r = record as Record<string, unknown>;
	const candidates: Record<PushDataType, unknown> = {
		AssetEvent: r.eventStatus === 'Close' ? (r.closeAt ?? r.eventDateTime) : r.eventDateTime,
		AssetState: r.time,
		AssetReport: r.createdOn,
		AssetCBM: undefined,
	};
	const value = candidates[dataType];
	return typeof value === 'string' && value ? value : undefined;
}

/** Same content, same key: a redelivery without an id is still recognized (assumption P4). */
export function contentKey(
	dataType: PushDataType,
	assetId: number | undefined,
	record: unknown,
): string {
	return `${dataType}:${assetId ?? '-'}:${recordDigest(record)}`;
}

/** A digest of a record that ignores key order: equal content, equal digest. */
export function recordDigest(record: unknown): string {
	return createHash('sha256').update(stableJson(record)).digest('hex').slice(0, 32);
}

function stableJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const keys = Object.keys(value).sort();
		return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

function firstString(obj: Record<string, unknown>, keys: readonly string[]): string | undefined {
	for (const key of keys) {
		const v = obj[key];
		if (typeof v === 'string' && v) return v;
	}
	return undefined;
}

function toInt(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isInteger(value)) return value;
	if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
	return undefined;
}

function excerpt(text: string | undefined): string {
	const t = text ?? '';
	return JSON.stringify(t.length > 80 ? `${t.slice(0, 80)}...` : t);
}
