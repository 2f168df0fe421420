/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { setTimeout as sleep } from 'node:timers/promises';
import { DIGEST_MAX_LINES } from '../../blocks/digest';
import type { PendingCall } from '../../features/alerts/outbox';
import type { AlertState } from '../../features/alerts/state';
import type { MessageRef } from '../../features/alerts/store';
import type { AlertRecord } from '../../kernel/alert';
import type { Notifier } from '../../kernel/notice';
import type { Publisher } from '../../kernel/publisher';
import { type BotLogger, errorText } from '../../log';
import { sendDigest } from './digest';
import { ExactlyOnce } from './exactly-once';
import { handleFailure } from './failures';
import { type CallContext, send } from './handlers';
import { Pacing, type PacingOptions } from './pacing';
import { type DispatchStats, emptyStats } from './stats';
import { AlertViews } from './views';

export type { DispatchStats } from './stats';

/** Where the outbox's calls go: notices to Slack (or the terminal), and the files some carry (KPI charts). */
export interface OutboxDelivery {
	notifier: Notifier;
	publisher?: Publisher;
}

export interface DispatcherOptions extends PacingOptions {
	logger: BotLogger;
	/**
	 * Whether this process may call Slack now (only the leading replica sends, and only while its lease is valid).
	 * When it says no, the calls stay in the outbox for the replica that leads. Default: always.
	 */
	maySend?: () => boolean;
	/** An alert as messages show it now: on-call state (acknowledged, muted) and link buttons. */
	present?: (alert: AlertRecord) => Promise<AlertRecord>;
	/** The open message of a sibling (drive or motor of the same PowerTrain) this alert joins. */
	inhibit?: (alert: AlertRecord, channel: string) => Promise<MessageRef | undefined>;
	/** Whether a reminder still has a reason to go out (open, not acknowledged, not muted). */
	stillDue?: (alert: AlertRecord) => Promise<boolean>;
}

/**
 * Empties the outbox into Slack (or the terminal), one worker per channel so that a channel waiting out a 429 or a
 * storm never holds up another. Each call goes through the same stages: pacing (rate and storm control: one by one,
 * or a digest), the handler of its kind (bot/leader/outbox/handlers) whose Slack calls are made exactly once, and
 * failure handling. A call is removed from the outbox only after Slack accepted it, in the same transaction that
 * records the message's ts.
 */
export class Dispatcher {
	readonly stats: DispatchStats = emptyStats();
	private readonly workers = new Map<string, Promise<void>>();
	private readonly abort = new AbortController();
	private readonly pacing: Pacing;
	private readonly once: ExactlyOnce;
	private readonly views: AlertViews;

	constructor(
		private readonly state: AlertState,
		private readonly delivery: OutboxDelivery,
		private readonly options: DispatcherOptions,
	) {
		this.pacing = new Pacing(options);
		this.once = new ExactlyOnce(
			delivery.notifier,
			state.outbox,
			this.stats,
			options.logger,
			(channel) => this.pacing.posted(channel),
		);
		this.views = new AlertViews(state, options.present);
	}

	/** Starts a worker for every channel with pending calls that has none (in the background). */
	kick(): void {
		if (this.abort.signal.aborted || this.options.maySend?.() === false) return;
		this.startWorkers().catch((error: unknown) =>
			this.options.logger.warn(
				`slack: cannot read the outbox (${errorText(error)}); retrying with the next change`,
			),
		);
	}

	/** Whether no channel is being sent to now (the outbox may still hold calls the next kick sends). */
	get idle(): boolean {
		return this.workers.size === 0;
	}

	private async startWorkers(): Promise<void> {
		for (const channel of await this.state.outbox.channelsWithPending()) {
			if (!this.workers.has(channel) && !this.abort.signal.aborted)
				this.workers.set(channel, this.work(channel));
		}
	}

	async stop(): Promise<void> {
		this.abort.abort();
		await Promise.allSettled([...this.workers.values()]);
	}

	private async pause(ms: number): Promise<void> {
		if (ms <= 0) return;
		await sleep(ms, undefined, { signal: this.abort.signal }).catch(() => undefined);
	}

	private async work(channel: string): Promise<void> {
		try {
			for (;;) {
				const calls = await this.state.outbox.pending(channel, DIGEST_MAX_LINES);
				if (calls.length === 0 || this.abort.signal.aborted) break;
				await this.pause(this.pacing.waitMs(channel));
				// Checked right before the call: a leader that lost its lease while it waited must not post.
				if (this.abort.signal.aborted || this.options.maySend?.() === false) break;
				try {
					await this.step(channel, calls);
				} catch (error) {
					await handleFailure(
						{ outbox: this.state.outbox, pacing: this.pacing, stats: this.stats, ...this.options },
						channel,
						calls[0],
						error,
					);
				}
			}
		} catch (error) {
			// The outbox could not be read (the database is away): the next change or drain starts it again.
			this.options.logger.warn(
				`slack: ${channel} paused, cannot read the outbox (${errorText(error)})`,
			);
		} finally {
			this.workers.delete(channel);
		}
		// A call enqueued between the last read and the delete above still gets a worker.
		if (!this.abort.signal.aborted) this.kick();
	}

	private context(channel: string): Omit<CallContext, 'call'> {
		return {
			channel,
			state: this.state,
			once: this.once,
			views: this.views,
			pacing: this.pacing,
			stats: this.stats,
			publisher: this.delivery.publisher,
			logger: this.options.logger,
			inhibit: this.options.inhibit,
			stillDue: this.options.stillDue,
		};
	}

	private async step(channel: string, calls: PendingCall[]): Promise<void> {
		const context = this.context(channel);
		const intent = calls[0].intent;
		if (intent) {
			// A call whose answer was lost is retried as the same call (found in Slack, or made).
			const frozen = intent.ids;
			if (frozen)
				await sendDigest(
					context,
					calls.filter((c) => frozen.includes(c.id)),
				);
			else await this.sendOne(context, calls[0]);
			return;
		}
		const next = this.pacing.next(channel, calls);
		if (next.kind === 'wait') await this.pause(next.ms);
		else if (next.kind === 'digest') await sendDigest(context, next.batch);
		else {
			await this.sendOne(context, next.call);
			await this.completeCoveredRefreshes(calls);
		}
	}

	private async sendOne(context: Omit<CallContext, 'call'>, call: PendingCall): Promise<void> {
		const completion = await send({ ...context, call }, call.item);
		if (completion !== 'completed') await this.state.outbox.complete([call.id]);
	}

	/**
	 * Refreshes of the same alert queued behind the one just sent (Acknowledge, then Take over a
	 * moment later) are done too: the message was drawn from the alert as it is now, after every
	 * change that queued them was committed (each change queues its refresh in its own transaction,
	 * and they were read before the drawing). One update instead of one per change.
	 */
	private async completeCoveredRefreshes(calls: PendingCall[]): Promise<void> {
		const sent = calls[0].item;
		if (sent.kind !== 'refresh') return;
		const covered = calls
			.slice(1)
			.filter((c) => !c.intent && c.item.kind === 'refresh' && c.item.key === sent.key)
			.map((c) => c.id);
		if (covered.length > 0) await this.state.outbox.complete(covered);
	}
}
