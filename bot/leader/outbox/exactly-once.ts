import type { Outbox, PendingCall } from '../../features/alerts/outbox';
import type { MessageRef } from '../../features/alerts/store';
import {
	type Notice,
	type Notifier,
	type Posted,
	PermanentSlackError,
	SlackRateLimitedError,
} from '../../kernel/notice';
import { type BotLogger, errorText } from '../../log';
import * as metrics from '../../ops/metrics';
import type { DispatchStats } from './stats';

/**
 * Slack calls made at most once (assumption B12). Each call's intent is recorded before it is made and Slack's
 * answer right after, before anything else is called; a call whose answer was lost (a crash, a timeout, a leader
 * frozen mid-call) is looked for in Slack by its tag (the message metadata names it) before it is made again.
 */
export class ExactlyOnce {
	constructor(
		private readonly notifier: Notifier,
		private readonly outbox: Outbox,
		private readonly stats: DispatchStats,
		private readonly logger: BotLogger,
		/** A message went to `channel`: its rate applies from now. */
		private readonly posted: (channel: string) => void,
	) {}

	/**
	 * A post made at most once. `threadTs`: a reply in that thread; `ids` freezes the outbox calls a digest covers, so
	 * its retry is the same digest; `made` runs once the post was made by this very call (not when it was found, or
	 * recorded before), after Slack's answer is recorded.
	 */
	async post(
		call: PendingCall,
		step: string,
		channel: string,
		notice: Notice,
		options: { threadTs?: string; ids?: number[]; made?: (posted: Posted) => Promise<void> } = {},
	): Promise<Posted> {
		const { threadTs, ids } = options;
		const done = call.progress[step] as Posted | undefined;
		if (done) return done;
		const tag = `${call.id}:${step}`;
		if (call.intent?.step === step && this.notifier.find) {
			const found = await this.find(channel, tag, threadTs, call.intent.at);
			if (found) {
				await this.record(call, step, channel, found);
				this.stats.reconciled++;
				this.logger.info(
					`slack: ${call.item.kind} to ${channel} had reached Slack before the answer was lost (${found.ts}); not posted again`,
				);
				return found;
			}
		}
		const intent = { step, at: Date.now(), ids };
		await this.outbox.setIntent(call.id, intent);
		call.intent = intent;
		const posted = await this.notifier
			.post(channel, notice, threadTs, tag)
			.catch(async (error: unknown) => {
				// Slack refused it: nothing to look for next time.
				if (error instanceof SlackRateLimitedError || error instanceof PermanentSlackError) {
					await this.outbox.setIntent(call.id, undefined);
					call.intent = undefined;
				}
				return Promise.reject(error as Error);
			});
		this.stats.posts++;
		this.posted(channel);
		await this.record(call, step, channel, posted);
		metrics.alertPosted(threadTs ? 'reply' : notice.kind);
		await options.made?.(posted);
		return posted;
	}

	/** An update made at most once, as a post is; nothing to do when the message shows nothing any more. */
	async update(
		call: PendingCall,
		step: string,
		ref: MessageRef,
		notice: Notice | undefined,
	): Promise<void> {
		if (call.progress[step] || notice === undefined) return;
		const tag = `${call.id}:${step}`;
		if (call.intent?.step === step && this.notifier.updated && (await this.updateFound(ref, tag))) {
			await this.record(call, step, ref.channel, true);
			this.stats.reconciled++;
			this.logger.info(
				`slack: update of ${ref.channel} ${ref.ts} had reached Slack before the answer was lost; not made again`,
			);
			return;
		}
		const intent = { step, at: Date.now() };
		await this.outbox.setIntent(call.id, intent);
		call.intent = intent;
		await this.notifier.update(ref.channelId, ref.ts, notice, tag);
		this.stats.updates++;
		await this.record(call, step, ref.channel, true);
		metrics.alertUpdated();
	}

	private async updateFound(ref: MessageRef, tag: string): Promise<boolean> {
		return (this.notifier.updated?.(ref.channelId, ref.ts, tag) ?? Promise.resolve(false)).catch(
			(error: unknown) => {
				if (!(error instanceof PermanentSlackError)) return Promise.reject(error as Error);
				// Without history access the update is made again: the same content, at least once.
				this.logger.warn(
					`slack: cannot look for an unconfirmed update in ${ref.channel} (${errorText(error)}); updating again`,
				);
				return false;
			},
		);
	}

	private async find(
		channel: string,
		tag: string,
		threadTs: string | undefined,
		since: number,
	): Promise<Posted | undefined> {
		const lookup =
			this.notifier.find?.(
				channel,
				await this.outbox.getChannelId(channel),
				tag,
				threadTs,
				since,
			) ?? Promise.resolve(undefined);
		return lookup.catch((error: unknown) => {
			if (!(error instanceof PermanentSlackError)) return Promise.reject(error as Error);
			// Without history access (scope, not a member) the post is made again: at-least-once.
			this.logger.warn(
				`slack: cannot look for an unconfirmed post in ${channel} (${errorText(error)}); posting it again`,
			);
			return undefined;
		});
	}

	/** Slack accepted this sub-step: recorded before the next call, so no retry repeats it. */
	private async record(
		call: PendingCall,
		step: string,
		channel: string,
		result: Posted | true,
	): Promise<void> {
		await this.outbox.markStep(call.id, step, result);
		call.progress[step] = result;
		call.intent = undefined;
		if (result !== true) await this.outbox.putChannelId(channel, result.channelId);
	}
}
