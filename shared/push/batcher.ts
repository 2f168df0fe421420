/* eslint-disable @n8n/community-nodes/no-restricted-globals -- Node-only core code: the bot and the self-hosted push companion load it, the n8n Cloud pack does not, and n8n Cloud's rules govern the pack */
import { PushBatchError } from './errors';

interface Pending<T> {
	item: T;
	resolve(): void;
	reject(error: unknown): void;
}

/**
 * Gathers items, in the order they came, into batches of up to `size`, each handed on when full or
 * `windowMs` after its first item. Each `add` settles with its batch's outcome, so a message is
 * acknowledged (or released) with the batch it went out in. A batch that fails rejects each of its
 * messages with one shared PushBatchError (its size), so the failure is told once, not per message.
 */
export class Batcher<T> {
	private pending: Array<Pending<T>> = [];
	private timer?: ReturnType<typeof setTimeout>;
	private closed = false;

	constructor(
		private readonly size: number,
		private readonly windowMs: number,
		private readonly run: (batch: T[]) => Promise<void>,
	) {}

	add(item: T): Promise<void> {
		if (this.closed) return Promise.reject(new Error('the trigger was deactivated'));
		return new Promise<void>((resolve, reject) => {
			this.pending.push({ item, resolve, reject });
			if (this.pending.length >= this.size) this.flush();
			else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
		});
	}

	/** Deactivation: what waits for a batch is released, nothing more is handed on. */
	close(): void {
		this.closed = true;
		clearTimeout(this.timer);
		const waiting = this.pending.splice(0);
		const error = new PushBatchError(waiting.length, new Error('the trigger was deactivated'));
		for (const entry of waiting) entry.reject(error);
	}

	private flush(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
		const batch = this.pending.splice(0, this.size);
		if (batch.length === 0) return;
		this.run(batch.map((entry) => entry.item)).then(
			() => batch.forEach((entry) => entry.resolve()),
			(error: unknown) => {
				const shared = new PushBatchError(batch.length, error);
				for (const entry of batch) entry.reject(shared);
			},
		);
	}
}
