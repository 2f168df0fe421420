/* eslint-disable @n8n/community-nodes/no-restricted-globals -- Node-only core code: the bot and the self-hosted push companion load it, the n8n Cloud pack does not, and n8n Cloud's rules govern the pack */
import type { PushMessage } from './types';

interface WaitLogger {
	warn(message: string): void;
	debug(message: string): void;
}

/** How often the trigger's state goes to the debug log while executions are waiting. */
const STATE_LOG_INTERVAL_MS = 60_000;

interface Waiting {
	messages: readonly PushMessage[];
	startedAt: number;
	stop(): void;
}

export class ExecutionTimeoutError extends Error {}

/**
 * The executions (handlers) a push consumer started and waits for. Each wait ends at the Execution Timeout:
 * an execution that never reports back (in n8n: a queue-mode worker killed mid-run, a lost Redis message)
 * would otherwise hold its message, and its slot of Parallel Messages, for good.
 */
export class ExecutionWaits {
	private readonly waiting = new Set<Waiting>();
	private readonly stateTimer: ReturnType<typeof setInterval>;

	constructor(
		private readonly timeoutMs: number,
		private readonly logger: WaitLogger,
		/** Who waits, for the log: the trigger of which workflow. */
		private readonly who: string,
		/** Where a user sees the execution, and what to check. */
		private readonly whatToCheck: string,
	) {
		this.stateTimer = setInterval(() => {
			if (this.waiting.size > 0) this.logger.debug(this.state());
		}, STATE_LOG_INTERVAL_MS);
		this.stateTimer.unref?.();
	}

	/** The run, or an ExecutionTimeoutError once the timeout passed (its messages are then released). */
	async wait<T>(messages: readonly PushMessage[], done: Promise<T>): Promise<T> {
		let timer: ReturnType<typeof setTimeout> | undefined;
		let closed!: (error: Error) => void;
		const entry: Waiting = {
			messages,
			startedAt: Date.now(),
			stop: () => closed(new Error('the trigger was deactivated')),
		};
		this.waiting.add(entry);
		try {
			return await Promise.race([
				done,
				new Promise<never>((_, reject) => {
					closed = reject;
					timer = setTimeout(() => reject(this.timedOut(entry)), this.timeoutMs);
				}),
			]);
		} finally {
			clearTimeout(timer);
			this.waiting.delete(entry);
		}
	}

	/** Deactivation: no wait outlives the trigger. */
	close(): void {
		clearInterval(this.stateTimer);
		for (const entry of [...this.waiting]) entry.stop();
	}

	state(): string {
		const oldest = Math.min(...[...this.waiting].map((w) => w.startedAt));
		const age = this.waiting.size > 0 ? `, oldest held ${seconds(Date.now() - oldest)}` : '';
		const held = [...this.waiting].reduce((sum, w) => sum + w.messages.length, 0);
		return `${this.who}: ${held} message(s) held${age}, ${this.waiting.size} execution(s) waiting to report back (Execution Timeout ${seconds(this.timeoutMs)})`;
	}

	private timedOut(entry: Waiting): ExecutionTimeoutError {
		const started = new Date(entry.startedAt).toISOString();
		const text =
			`${this.who}: the execution started at ${started} for ${describeMessages(entry.messages)} did not report back within the Execution Timeout (${seconds(this.timeoutMs)}): ` +
			`${entry.messages.length === 1 ? 'its message is' : `its ${entry.messages.length} messages are`} released to the broker and will be delivered again, and the trigger goes on. ` +
			this.whatToCheck;
		this.logger.warn(text);
		this.logger.debug(this.state());
		return new ExecutionTimeoutError(text);
	}
}

function describeMessages(messages: readonly PushMessage[]): string {
	const [first] = messages;
	return messages.length === 1
		? `${first.dataType} ${first.id}`
		: `${messages.length} messages (the first ${first.dataType} ${first.id})`;
}

function seconds(ms: number): string {
	return ms >= 60_000 && ms % 60_000 === 0
		? `${ms / 60_000} min`
		: `${Math.round(ms / 100) / 10} s`;
}
