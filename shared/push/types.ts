import type { z } from 'zod/v4';
import type { assetStateSchema, cbmResultSchema, eventSchema, reportSchema } from './records';

/** The spec's SubDataTypes (Events table), by name; numbers in `SUB_DATA_TYPES`. */
export const PUSH_DATA_TYPES = ['AssetEvent', 'AssetState', 'AssetReport', 'AssetCBM'] as const;
export type PushDataType = (typeof PUSH_DATA_TYPES)[number];

export type PushEvent = z.infer<typeof eventSchema>;
export type PushAssetState = z.infer<typeof assetStateSchema>;
export type PushReport = z.infer<typeof reportSchema>;
export type PushCbmResult = z.infer<typeof cbmResultSchema>;

export interface PushRecordByType {
	AssetEvent: PushEvent;
	AssetState: PushAssetState;
	AssetReport: PushReport;
	AssetCBM: PushCbmResult[];
}

interface PushMessageOf<T extends PushDataType> {
	/** The envelope's message id, or a content key when the delivery carries none (assumption P4). */
	id: string;
	dataType: T;
	assetId?: number;
	orgId?: number;
	/** ISO 8601 UTC instant the platform produced the data. */
	time: string;
	record: PushRecordByType[T];
	/** The delivery as received (parsed JSON, or the text when it was not an object). */
	raw: unknown;
}

/** A normalized pushed message; `dataType` narrows `record`. */
export type PushMessage = { [T in PushDataType]: PushMessageOf<T> }[PushDataType];

export type PushHandler = (message: PushMessage) => Promise<void> | void;

export interface PushLogger {
	debug?(message: string, meta?: Record<string, unknown>): void;
	info?(message: string, meta?: Record<string, unknown>): void;
	warn?(message: string, meta?: Record<string, unknown>): void;
	error?(message: string, meta?: Record<string, unknown>): void;
}

export interface PushReconnectOptions {
	/** First delay after a dropped connection, in ms (default 250). */
	initialDelayMs?: number;
	/** Upper bound of the delay, in ms (default 30,000). */
	maxDelayMs?: number;
}

export interface PushReceiverOptions {
	/** `amqp://`, `amqps://`, `mqtt://` or `mqtts://`: picks the adapter, never guessed. */
	url: string;
	/** The data-subscription user (E26/E30). */
	userName: string;
	password: string;
	/** The user's Topic (E28). */
	topic: string;
	/** `{topic}` and `{userName}` are replaced. Defaults: AMQP the broker's form of the queue (RabbitMQ 3 `/amq/queue/{topic}`, RabbitMQ 4 `/queues/{topic}`, others `{topic}`), MQTT `dm/{topic}/#` (assumption P2). */
	addressTemplate?: string;
	/** Only these types reach the handler; others are acknowledged and dropped. */
	dataTypes?: readonly PushDataType[];
	/** MQTT client id of the persistent session (default `dm-<userName>`), AMQP container id and link name; the trigger passes `triggerClientId`. */
	clientId?: string;
	/** MQTT clean: false (default true); a short-lived listener uses false so no session stays behind. */
	persistentSession?: boolean;
	/** Messages handled at once, never more (default 10): AMQP link credit, MQTT QoS 1 PUBACKs held. */
	prefetch?: number;
	/** Message ids remembered for deduplication (default 10,000). */
	dedupSize?: number;
	reconnect?: PushReconnectOptions;
	/**
	 * Asked before each reconnect: while it says false, the receiver waits out its backoff again instead of
	 * connecting. A bot replica that no longer knows it leads must not take a persistent session (one client id for
	 * every replica) back from the replica that leads now.
	 */
	mayReconnect?: () => boolean;
	/** Connection and subscription timeout in ms (default 10,000). */
	connectTimeoutMs?: number;
	/** Accept self-signed broker certificates on amqps:/mqtts: (default false). */
	allowUnauthorizedCerts?: boolean;
	logger?: PushLogger;
	signal?: AbortSignal;
}

/** Why the stream ended for good: closed by us, or a terminal error from the broker. */
export interface PushEnd {
	reason: 'closed' | 'error';
	error?: Error;
}

export interface PushReceiver {
	/** Connects, subscribes and hands each delivery to the handler; rejects when the first connection fails. */
	start(handler: PushHandler): Promise<void>;
	close(): Promise<void>;
	readonly stats: PushReceiverStats;
	on(event: 'error', listener: (error: Error) => void): this;
	on(event: 'end', listener: (end: PushEnd) => void): this;
	on(event: 'connected', listener: () => void): this;
	on(event: 'disconnected', listener: (error?: Error) => void): this;
	on(event: 'invalid', listener: (error: Error) => void): this;
	once(event: 'end', listener: (end: PushEnd) => void): this;
	off(event: string, listener: (...args: never[]) => void): this;
}

export interface PushReceiverStats {
	delivered: number;
	duplicates: number;
	filtered: number;
	invalid: number;
	failed: number;
	reconnects: number;
}
