/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- Node-only core code: the bot and the self-hosted push companion load it, the n8n Cloud pack does not, and n8n Cloud's rules govern the pack */
import { EventEmitter } from 'node:events';
import type { AdapterDelivery, AdapterSession, PushAdapter } from './adapter';
import { backoffDelay } from './backoff';
import { RecentKeys } from './dedup';
import { PushBatchError, PushError } from './errors';
import { normalizeDelivery } from './normalize';
import type {
	PushDataType,
	PushEnd,
	PushHandler,
	PushLogger,
	PushMessage,
	PushReceiver,
	PushReceiverStats,
} from './types';

export interface ReceiverSettings {
	dataTypes?: readonly PushDataType[];
	dedupSize: number;
	initialDelayMs: number;
	maxDelayMs: number;
	mayReconnect?: () => boolean;
	logger?: PushLogger;
	signal?: AbortSignal;
}

/**
 * What both adapters share: normalizing, filtering, deduplicating, acknowledging after the
 * handler, and reconnecting with backoff until closed or a terminal error.
 */
export class Receiver extends EventEmitter implements Omit<PushReceiver, 'on' | 'once' | 'off'> {
	readonly stats: PushReceiverStats = {
		delivered: 0,
		duplicates: 0,
		filtered: 0,
		invalid: 0,
		failed: 0,
		reconnects: 0,
	};
	private readonly seen: RecentKeys;
	/** Handlers running, by message id: a redelivery waits for the first outcome instead of running twice. */
	private readonly running = new Map<string, Promise<boolean>>();
	private handler?: PushHandler;
	private session?: AdapterSession;
	private state: 'idle' | 'running' | 'ended' = 'idle';
	private retryTimer?: NodeJS.Timeout;
	private wakeRetry?: () => void;
	private loop?: Promise<void>;
	/** Batch failures already told: every message of a batch rejects with the same error. */
	private readonly toldBatches = new WeakSet<PushBatchError>();

	constructor(
		private readonly adapter: PushAdapter,
		private readonly settings: ReceiverSettings,
	) {
		super();
		this.seen = new RecentKeys(settings.dedupSize);
		settings.signal?.addEventListener('abort', () => void this.close(), { once: true });
	}

	async start(handler: PushHandler): Promise<void> {
		if (this.state !== 'idle') throw new PushError('push receiver already started', true);
		if (this.settings.signal?.aborted)
			throw new PushError('push receiver aborted before start', true);
		this.handler = handler;
		this.state = 'running';
		this.session = await this.adapter
			.connect((d) => void this.receive(d))
			.catch((error: unknown) => {
				this.state = 'ended';
				return Promise.reject(error);
			});
		this.emit('connected');
		this.loop = this.keepConnected();
	}

	async close(): Promise<void> {
		if (this.state === 'ended') return;
		this.state = 'ended';
		clearTimeout(this.retryTimer);
		this.wakeRetry?.();
		await this.session?.close();
		await this.loop;
		this.emit('end', { reason: 'closed' } satisfies PushEnd);
	}

	private async keepConnected(): Promise<void> {
		let attempt = 0;
		while (this.state === 'running' && this.session) {
			const error = await this.session.ended;
			this.session = undefined;
			if (this.state !== 'running') return;
			if (error?.terminal) return this.endWith(error);
			this.settings.logger?.warn?.(
				`push connection lost, reconnecting: ${error?.message ?? 'closed by the broker'}`,
			);
			this.emit('disconnected', error);
			while (this.state === 'running' && !this.session) {
				await this.sleep(
					backoffDelay(attempt++, this.settings.initialDelayMs, this.settings.maxDelayMs),
				);
				if (this.state !== 'running') return;
				if (this.settings.mayReconnect && !this.settings.mayReconnect()) continue;
				try {
					this.session = await this.adapter.connect((d) => void this.receive(d));
					attempt = 0;
					this.stats.reconnects++;
					this.emit('connected');
				} catch (connectError) {
					const pushError =
						connectError instanceof PushError
							? connectError
							: new PushError(String(connectError), false);
					if (pushError.terminal) return this.endWith(pushError);
					this.settings.logger?.warn?.(`push reconnect failed: ${pushError.message}`);
				}
			}
			if (this.state !== 'running') await this.session?.close();
		}
	}

	private endWith(error: PushError): void {
		this.state = 'ended';
		this.settings.logger?.error?.(error.message);
		// An unheard 'error' event would crash the process; the 'end' event always carries it.
		if (this.listenerCount('error') > 0) this.emit('error', error);
		this.emit('end', { reason: 'error', error } satisfies PushEnd);
	}

	private sleep(ms: number): Promise<void> {
		return new Promise((resolve) => {
			this.wakeRetry = resolve;
			this.retryTimer = setTimeout(resolve, ms);
		});
	}

	private async receive(delivery: AdapterDelivery): Promise<void> {
		let message: PushMessage;
		try {
			message = normalizeDelivery(delivery.body, delivery.hints);
		} catch (error) {
			this.stats.invalid++;
			const reason = error instanceof Error ? error.message : String(error);
			this.settings.logger?.warn?.(`push delivery rejected: ${reason}`);
			delivery.reject(reason);
			this.emit('invalid', error);
			return;
		}
		if (this.settings.dataTypes && !this.settings.dataTypes.includes(message.dataType)) {
			this.stats.filtered++;
			return delivery.accept();
		}
		if (this.seen.has(message.id)) {
			this.stats.duplicates++;
			return delivery.accept();
		}
		const inFlight = this.running.get(message.id);
		if (inFlight) {
			this.stats.duplicates++;
			return (await inFlight) ? delivery.accept() : delivery.release();
		}
		const outcome = this.handle(message);
		this.running.set(message.id, outcome);
		const handled = await outcome;
		this.running.delete(message.id);
		if (handled) {
			this.seen.add(message.id);
			this.stats.delivered++;
			delivery.accept();
		} else {
			this.stats.failed++;
			delivery.release();
		}
	}

	private async handle(message: PushMessage): Promise<boolean> {
		try {
			await this.handler!(message);
			return true;
		} catch (error) {
			this.warnFailed(message, error);
			return false;
		}
	}

	/** One warning per failure: a batch's messages share one error, told once with how many they are. */
	private warnFailed(message: PushMessage, error: unknown): void {
		const reason = error instanceof Error ? error.message : String(error);
		if (!(error instanceof PushBatchError) || error.size <= 1) {
			this.settings.logger?.warn?.(
				`push handler failed for ${message.dataType} ${message.id}; it stays with the broker and is delivered again: ${reason}`,
			);
			return;
		}
		if (this.toldBatches.has(error)) return;
		this.toldBatches.add(error);
		this.settings.logger?.warn?.(
			`push handler failed for a batch of ${error.size} messages (from ${message.dataType} ${message.id}); all ${error.size} stay with the broker and are delivered again: ${reason}`,
		);
	}
}
