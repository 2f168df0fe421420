/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { setTimeout as sleep } from 'node:timers/promises';
import { DIGEST_MAX_LINES } from '../../blocks/digest';
import { type BotLogger, errorText } from '../../log';
import * as metrics from '../../ops/metrics';
import { FencedOut } from '../../cluster/fence';
import { type AlertState, alertState } from '../../features/alerts/state';
import type { PendingCall } from '../../features/alerts/outbox';
import type { MessageRef } from '../../features/alerts/store';
import type { Outage } from '../../kernel/outage';
import type { AlertRecord } from '../../kernel/alert';
import {
	type Notice,
	type Notifier,
	type Posted,
	PermanentSlackError,
	SlackRateLimitedError,
} from '../../kernel/notice';

export interface DispatcherOptions {
	/** Messages a channel may receive per second (Slack: about one). */
	postsPerSecond: number;
	/** Alerts a minute in one channel above which they are only posted as digests. */
	stormPerMinute: number;
	/** Alerts waiting for one channel that go out together as a digest. */
	digestBacklog: number;
	/** During a storm, digests go out this often (or sooner when one is full). */
	digestIntervalMs?: number;
	logger: BotLogger;
	/**
	 * Whether this process may call Slack now (issue 26: only the leading replica sends, and only while its lease
	 * is valid). When it says no, the calls stay in the outbox for the replica that leads. Default: always.
	 */
	maySend?: () => boolean;
	/** An alert as messages show it now: on-call state (acknowledged, muted) and link buttons. */
	present?: (alert: AlertRecord) => Promise<AlertRecord>;
	/** The open message of a sibling (drive or motor of the same PowerTrain) this alert joins. */
	inhibit?: (alert: AlertRecord, channel: string) => Promise<MessageRef | undefined>;
	/** Whether a reminder still has a reason to go out (open, not acknowledged, not muted). */
	stillDue?: (alert: AlertRecord) => Promise<boolean>;
}

export interface DispatchStats {
	posts: number;
	updates: number;
	digests: number;
	rateLimited: number;
	failed: number;
	/** Posts found already in Slack after their answer was lost (a crash): not made again. */
	reconciled: number;
	reminders: number;
}

const WINDOW_MS = 60_000;

/**
 * Empties the outbox into Slack (or the terminal), one worker per channel so that a channel waiting out a 429
 * or a storm never holds up another. Each call is removed from the outbox only after Slack
 * accepted it, in the same transaction that records the message's ts.
 */
export class Dispatcher {
	readonly stats: DispatchStats = {
		posts: 0,
		updates: 0,
		digests: 0,
		rateLimited: 0,
		failed: 0,
		reconciled: 0,
		reminders: 0,
	};
	private readonly workers = new Map<string, Promise<void>>();
	private readonly nextPostAt = new Map<string, number>();
	private readonly lastDigestAt = new Map<string, number>();
	private readonly covered = new Map<string, number[]>();
	private readonly abort = new AbortController();
	private readonly interval: number;
	private readonly digestInterval: number;

	constructor(
		private readonly state: AlertState,
		private readonly notifier: Notifier,
		private readonly options: DispatcherOptions,
	) {
		this.interval = Math.ceil(1000 / options.postsPerSecond);
		this.digestInterval = options.digestIntervalMs ?? 10_000;
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

	private async startWorkers(): Promise<void> {
		for (const channel of await this.state.outbox.channelsWithPending()) {
			if (!this.workers.has(channel) && !this.abort.signal.aborted)
				this.workers.set(channel, this.work(channel));
		}
	}

	/** Resolves once the outbox is empty (or the time is up: then false). */
	async drain(timeoutMs: number): Promise<boolean> {
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if ((await this.state.outbox.countPending()) === 0 && this.workers.size === 0) return true;
			this.kick();
			await sleep(20);
		}
		return (await this.state.outbox.countPending()) === 0;
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
				await this.pause((this.nextPostAt.get(channel) ?? 0) - Date.now());
				// Checked right before the call: a leader that lost its lease while it waited must not post.
				if (this.abort.signal.aborted || this.options.maySend?.() === false) break;
				try {
					await this.step(channel, calls);
				} catch (error) {
					await this.onError(channel, calls[0], error);
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

	private inStorm(channel: string, now: number): boolean {
		const recent = (this.covered.get(channel) ?? []).filter((t) => now - t < WINDOW_MS);
		this.covered.set(channel, recent);
		return recent.length >= this.options.stormPerMinute;
	}

	private noteCovered(channel: string, count: number): void {
		const now = Date.now();
		const list = this.covered.get(channel) ?? [];
		for (let i = 0; i < count; i++) list.push(now);
		this.covered.set(channel, list);
	}

	private async step(channel: string, calls: PendingCall[]): Promise<void> {
		const now = Date.now();
		const intent = calls[0].intent;
		if (intent) {
			// A post whose answer was lost is retried as the same post (found in Slack, or made).
			const frozen = intent.ids;
			if (frozen)
				await this.sendDigest(
					channel,
					calls.filter((c) => frozen.includes(c.id)),
				);
			else await this.sendOne(channel, calls[0]);
			return;
		}
		const firstOther = calls.findIndex((c) => c.item.kind !== 'alert' && c.item.kind !== 'resolve');
		const leading = firstOther === -1 ? calls : calls.slice(0, firstOther);
		if (leading.length > 0 && this.inStorm(channel, now)) {
			const due = (this.lastDigestAt.get(channel) ?? 0) + this.digestInterval;
			if (leading.length < DIGEST_MAX_LINES && now < due) {
				await this.pause(due - now);
				return;
			}
			await this.sendDigest(channel, leading);
		} else if (leading.length >= this.options.digestBacklog) {
			await this.sendDigest(channel, leading);
		} else {
			await this.sendOne(channel, calls[0]);
			await this.completeCoveredRefreshes(calls);
		}
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

	private posted(channel: string): void {
		this.stats.posts++;
		this.nextPostAt.set(channel, Date.now() + this.interval);
	}

	/** The alert as it is now (the store's latest record, with on-call state and links). */
	private async current(key: string, fallback?: AlertRecord): Promise<AlertRecord | undefined> {
		const record = (await this.state.alerts.getEvent(key))?.alert ?? fallback;
		return record && (this.options.present ? this.options.present(record) : record);
	}

	private async currentAll(keys: readonly string[]): Promise<AlertRecord[]> {
		const alerts: AlertRecord[] = [];
		for (const key of keys) {
			const alert = await this.current(key);
			if (alert !== undefined) alerts.push(alert);
		}
		return alerts;
	}

	/** What a message of its own shows now: its alert, and a sibling's when inhibition merged them. */
	private async messageNotice(
		ref: MessageRef,
		extra: readonly AlertRecord[] = [],
	): Promise<Notice | undefined> {
		const alerts = [
			...(await this.currentAll(await this.state.alerts.keysInMessage(ref.channelId, ref.ts))),
			...extra,
		];
		return alerts.length === 0
			? undefined
			: { kind: 'alert', alert: alerts[0], related: alerts.slice(1) };
	}

	private async digestNotice(ref: MessageRef): Promise<Notice | undefined> {
		const digest = await this.state.alerts.getDigest(ref.channelId, ref.ts);
		return (
			digest && {
				kind: 'digest',
				alerts: await this.currentAll(digest.alertKeys),
				resolved: await this.currentAll(digest.resolvedKeys),
			}
		);
	}

	private refNotice(ref: MessageRef): Promise<Notice | undefined> {
		return ref.via === 'message' ? this.messageNotice(ref) : this.digestNotice(ref);
	}

	/**
	 * A post made at most once. Slack's answer is recorded before anything else is called; a post
	 * whose answer was lost (crash, timeout) is looked for by its tag before it is made again.
	 */
	private async postOnce(
		call: PendingCall,
		step: string,
		channel: string,
		notice: Notice,
		threadTs?: string,
		ids?: number[],
	): Promise<Posted> {
		const done = call.progress[step] as Posted | undefined;
		if (done) return done;
		const tag = `${call.id}:${step}`;
		if (call.intent?.step === step && this.notifier.find) {
			const found = await this.find(channel, tag, threadTs, call.intent.at);
			if (found) {
				await this.record(call, step, channel, found);
				this.stats.reconciled++;
				this.options.logger.info(
					`slack: ${call.item.kind} to ${channel} had reached Slack before the answer was lost (${found.ts}); not posted again`,
				);
				return found;
			}
		}
		const intent = { step, at: Date.now(), ids };
		await this.state.outbox.setIntent(call.id, intent);
		call.intent = intent;
		const posted = await this.notifier
			.post(channel, notice, threadTs, tag)
			.catch(async (error: unknown) => {
				// Slack refused it: nothing to look for next time.
				if (error instanceof SlackRateLimitedError || error instanceof PermanentSlackError) {
					await this.state.outbox.setIntent(call.id, undefined);
					call.intent = undefined;
				}
				return Promise.reject(error as Error);
			});
		this.posted(channel);
		await this.record(call, step, channel, posted);
		metrics.alertPosted(threadTs ? 'reply' : notice.kind);
		return posted;
	}

	private async updateFound(ref: MessageRef, tag: string): Promise<boolean> {
		return (this.notifier.updated?.(ref.channelId, ref.ts, tag) ?? Promise.resolve(false)).catch(
			(error: unknown) => {
				if (!(error instanceof PermanentSlackError)) return Promise.reject(error as Error);
				// Without history access the update is made again: the same content, at least once.
				this.options.logger.warn(
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
				await this.state.outbox.getChannelId(channel),
				tag,
				threadTs,
				since,
			) ?? Promise.resolve(undefined);
		return lookup.catch((error: unknown) => {
			if (!(error instanceof PermanentSlackError)) return Promise.reject(error as Error);
			// Without history access (scope, not a member) the post is made again: at-least-once.
			this.options.logger.warn(
				`slack: cannot look for an unconfirmed post in ${channel} (${errorText(error)}); posting it again`,
			);
			return undefined;
		});
	}

	private async record(
		call: PendingCall,
		step: string,
		channel: string,
		result: Posted | true,
	): Promise<void> {
		await this.state.outbox.markStep(call.id, step, result);
		call.progress[step] = result;
		call.intent = undefined;
		if (result !== true) await this.state.outbox.putChannelId(channel, result.channelId);
	}

	/**
	 * An update made at most once, as a post is: its intent recorded first, and an update whose answer was lost
	 * (crash, a leader frozen mid-call) looked for in the message (its metadata names the call) before it is made again.
	 */
	private async updateOnce(
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
			this.options.logger.info(
				`slack: update of ${ref.channel} ${ref.ts} had reached Slack before the answer was lost; not made again`,
			);
			return;
		}
		const intent = { step, at: Date.now() };
		await this.state.outbox.setIntent(call.id, intent);
		call.intent = intent;
		await this.notifier.update(ref.channelId, ref.ts, notice, tag);
		this.stats.updates++;
		await this.record(call, step, ref.channel, true);
		metrics.alertUpdated();
	}

	private async sendDigest(channel: string, batch: PendingCall[]): Promise<void> {
		const alertKeys: string[] = [];
		const resolvedKeys: string[] = [];
		const batched = new Set(
			batch
				.filter((c) => c.item.kind === 'alert')
				.map((c) => (c.item as { alert: AlertRecord }).alert.key),
		);
		for (const call of batch) {
			if (call.item.kind === 'alert') {
				if (!alertKeys.includes(call.item.alert.key)) alertKeys.push(call.item.alert.key);
			} else if (call.item.kind === 'resolve') {
				const key = call.item.alert.key;
				// Its alert is a line of this very digest: that line shows it resolved.
				if (batched.has(key)) continue;
				const ref = await this.state.alerts.getMessage(key, channel);
				if (ref === undefined) {
					alertKeys.push(key);
					continue;
				}
				await this.updateOnce(call, 'update', ref, await this.refNotice(ref));
				resolvedKeys.push(key);
			}
		}
		const notice: Notice = {
			kind: 'digest',
			alerts: await this.currentAll(alertKeys),
			resolved: await this.currentAll(resolvedKeys),
		};
		const { ts, channelId } = await this.postOnce(
			batch[0],
			'digest',
			channel,
			notice,
			undefined,
			batch.map((c) => c.id),
		);
		await this.state.scope.transaction(async (tx) => {
			const store = alertState(tx);
			for (const key of alertKeys)
				await store.alerts.putMessage(key, { channel, channelId, ts, via: 'digest' });
			await store.alerts.putDigest(channelId, ts, alertKeys, resolvedKeys);
			await store.outbox.complete(batch.map((c) => c.id));
		});
		this.stats.digests++;
		this.noteCovered(channel, alertKeys.length);
		this.lastDigestAt.set(channel, Date.now());
	}

	private async sendAlert(channel: string, call: PendingCall, alert: AlertRecord): Promise<void> {
		// The reads a new alert's post needs, at once rather than one after the other (on PostgreSQL each is a round
		// trip before the post): whether it has a message, a sibling's message it joins, and the alert as it is now.
		const settled = <T>(promise: Promise<T>): Promise<T> => {
			promise.catch(() => undefined); // awaited below, or not needed: never an unhandled rejection
			return promise;
		};
		const existing = settled(this.state.alerts.getMessage(alert.key, channel));
		const sibling = settled(Promise.resolve(this.options.inhibit?.(alert, channel)));
		const now = settled(this.current(alert.key, alert));
		if ((await existing) === undefined) {
			const partner = await sibling;
			const merged =
				partner && (await this.messageNotice(partner, await this.currentAll([alert.key])));
			let ref: MessageRef;
			if (partner && merged) {
				await this.updateOnce(call, 'merge', partner, merged);
				ref = partner;
			} else {
				const posted = await this.postOnce(call, 'post', channel, {
					kind: 'alert',
					alert: (await now) as AlertRecord,
				});
				ref = { channel, channelId: posted.channelId, ts: posted.ts, via: 'message' };
			}
			await this.state.scope.transaction(async (tx) => {
				const store = alertState(tx);
				await store.alerts.putMessage(alert.key, ref);
				await store.outbox.complete([call.id]);
			});
			this.noteCovered(channel, 1);
			return;
		}
		await this.state.outbox.complete([call.id]);
	}

	private async sendOne(channel: string, call: PendingCall): Promise<void> {
		const item = call.item;
		switch (item.kind) {
			case 'alert':
				return this.sendAlert(channel, call, item.alert);
			case 'resolve': {
				const ref = await this.state.alerts.getMessage(item.alert.key, channel);
				if (ref === undefined) {
					// Its open alert never reached Slack (given up on, or muted): post it, already resolved.
					return this.sendAlert(channel, call, item.alert);
				}
				await this.updateOnce(call, 'update', ref, await this.refNotice(ref));
				await this.postOnce(
					call,
					'reply',
					channel,
					{
						kind: 'resolved_reply',
						alert: (await this.current(item.alert.key, item.alert)) as AlertRecord,
					},
					ref.ts,
				);
				break;
			}
			case 'refresh':
				for (const ref of (await this.state.alerts.messagesOf(item.key)).filter(
					(r) => r.channel === channel,
				))
					await this.updateOnce(call, `update:${ref.ts}`, ref, await this.refNotice(ref));
				break;
			case 'reminder': {
				const ref = await this.state.alerts.getMessage(item.key, channel);
				const alert = await this.current(item.key);
				// Acknowledged, closed or muted since it was due: nothing to say.
				if (ref && alert && ((await this.options.stillDue?.(alert)) ?? alert.status === 'Open')) {
					await this.postOnce(
						call,
						'reply',
						channel,
						{ kind: 'reminder', alert, level: item.level, mentions: item.mentions },
						ref.ts,
					);
					this.stats.reminders++;
				}
				break;
			}
			case 'silence_summary': {
				const keys = item.summary.alerts.map((a) => a.key);
				const alerts: AlertRecord[] = [];
				for (const a of item.summary.alerts)
					alerts.push((await this.current(a.key, a)) as AlertRecord);
				const posted = await this.postOnce(call, 'post', channel, {
					kind: 'silence_summary',
					summary: { ...item.summary, alerts },
				});
				// Its alerts are followed there from now on: a close updates it (as a digest) and replies.
				await this.state.scope.transaction(async (tx) => {
					const store = alertState(tx);
					for (const key of keys)
						await store.alerts.putMessage(key, {
							channel,
							channelId: posted.channelId,
							ts: posted.ts,
							via: 'digest',
						});
					await store.alerts.putDigest(posted.channelId, posted.ts, keys, []);
					await store.outbox.complete([call.id]);
				});
				return;
			}
			case 'cbm': {
				const { ts } = await this.postOnce(call, 'post', channel, { kind: 'cbm', cbm: item.cbm });
				await this.state.cbm.putMessage(item.cbm.key, channel, ts);
				break;
			}
			case 'cbm_good':
				await this.postOnce(
					call,
					'post',
					channel,
					{ kind: 'cbm_good', cbm: item.cbm },
					await this.state.cbm.getMessage(item.cbm.key, channel),
				);
				break;
			case 'cbm_digest':
				await this.postOnce(call, 'post', channel, {
					kind: 'cbm_digest',
					units: item.units,
					day: item.day,
				});
				break;
			case 'connectivity':
				await this.sendConnectivity(channel, call, item.outage, item.returned);
				break;
			case 'catch_up': {
				// Closes of the alerts it covers then go to its thread, as for a storm digest.
				const { ts, channelId } = await this.postOnce(call, 'post', channel, {
					kind: 'catch_up',
					summary: item.summary,
				});
				await this.state.scope.transaction(async (tx) => {
					const store = alertState(tx);
					for (const key of item.keys)
						await store.alerts.putMessage(key, { channel, channelId, ts, via: 'digest' });
					await store.outbox.complete([call.id]);
				});
				this.stats.digests++;
				return;
			}
			case 'source_lag':
				await this.postOnce(call, 'post', channel, { kind: 'source_lag', text: item.text });
				break;
		}
		await this.state.outbox.complete([call.id]);
	}

	/** One message per outage (assumption B30): posted once, then updated; returns are thread replies. */
	private async sendConnectivity(
		channel: string,
		call: PendingCall,
		outage: Outage,
		returned: number[],
	): Promise<void> {
		let ref = await this.state.alerts.getMessage(outage.key, channel);
		if (ref === undefined) {
			const { ts, channelId } = await this.postOnce(call, 'post', channel, {
				kind: 'connectivity',
				outage,
			});
			ref = { channel, channelId, ts, via: 'message' };
			await this.state.alerts.putMessage(outage.key, ref);
		} else {
			await this.updateOnce(call, 'update', ref, { kind: 'connectivity', outage });
		}
		if (returned.length > 0)
			await this.postOnce(
				call,
				'reply',
				channel,
				{ kind: 'connectivity_back', outage, returned },
				ref.ts,
			);
	}

	private async onError(channel: string, call: PendingCall, error: unknown): Promise<void> {
		if (error instanceof FencedOut) {
			// Another replica leads now (issue 26): the call stays in the outbox, untouched, for it.
			this.options.logger.warn(
				`slack: ${call.item.kind} to ${channel} left to the replica that leads now (${errorText(error)})`,
			);
			return;
		}
		if (error instanceof SlackRateLimitedError) {
			this.stats.rateLimited++;
			this.nextPostAt.set(channel, Date.now() + error.retryAfterMs);
			this.options.logger.warn(
				`slack: ${channel} rate limited, waiting ${error.retryAfterMs} ms (other channels continue)`,
			);
			return;
		}
		const permanent = error instanceof PermanentSlackError;
		const giveUp = permanent ? call.attempts + 1 >= 3 : call.attempts + 1 >= 10;
		await this.state.outbox.recordFailure(call.id, errorText(error), giveUp);
		if (giveUp) this.stats.failed++;
		if (giveUp) metrics.alertFailed();
		const backoff = Math.min(60_000, 500 * 2 ** call.attempts);
		this.nextPostAt.set(channel, Date.now() + backoff);
		this.options.logger.error(
			`slack: ${call.item.kind} to ${channel} failed (${errorText(error)})${giveUp ? ', given up: kept in the outbox as failed' : `, retrying in ${backoff} ms`}`,
		);
	}
}
