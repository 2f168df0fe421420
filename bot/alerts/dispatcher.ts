import { setTimeout as sleep } from 'node:timers/promises';
import { DIGEST_MAX_LINES } from '../blocks/digest';
import { type BotLogger, errorText } from '../log';
import type { MessageRef, PendingCall, StateStore } from '../state/store';
import type { AlertRecord } from './model';
import { type Notice, type NoticeSink, type Posted, PermanentSinkError, RateLimitedError } from './sink';

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
}

export interface DispatchStats {
  posts: number;
  updates: number;
  digests: number;
  rateLimited: number;
  failed: number;
}

const WINDOW_MS = 60_000;

/**
 * Empties the outbox into the sink, one worker per channel so that a channel waiting out a 429
 * or a storm never holds up another. Each call is removed from the outbox only after Slack
 * accepted it, in the same transaction that records the message's ts.
 */
export class Dispatcher {
  readonly stats: DispatchStats = { posts: 0, updates: 0, digests: 0, rateLimited: 0, failed: 0 };
  private readonly workers = new Map<string, Promise<void>>();
  private readonly nextPostAt = new Map<string, number>();
  private readonly lastDigestAt = new Map<string, number>();
  private readonly covered = new Map<string, number[]>();
  private readonly abort = new AbortController();
  private readonly interval: number;
  private readonly digestInterval: number;

  constructor(
    private readonly store: StateStore,
    private readonly sink: NoticeSink,
    private readonly options: DispatcherOptions,
  ) {
    this.interval = Math.ceil(1000 / options.postsPerSecond);
    this.digestInterval = options.digestIntervalMs ?? 10_000;
  }

  /** Starts a worker for every channel with pending calls that has none. */
  kick(): void {
    if (this.abort.signal.aborted) return;
    for (const channel of this.store.channelsWithPending()) {
      if (!this.workers.has(channel)) this.workers.set(channel, this.work(channel));
    }
  }

  /** Resolves once the outbox is empty (or the time is up: then false). */
  async drain(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.store.countPending() === 0 && this.workers.size === 0) return true;
      this.kick();
      await sleep(20);
    }
    return this.store.countPending() === 0;
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
        const calls = this.store.pending(channel, DIGEST_MAX_LINES);
        if (calls.length === 0 || this.abort.signal.aborted) break;
        await this.pause((this.nextPostAt.get(channel) ?? 0) - Date.now());
        if (this.abort.signal.aborted) break;
        try {
          await this.step(channel, calls);
        } catch (error) {
          this.onError(channel, calls[0], error);
        }
      }
    } finally {
      this.workers.delete(channel);
    }
    // A call enqueued between the last read and the delete above still gets a worker.
    if (!this.abort.signal.aborted && this.store.pending(channel, 1).length > 0) this.kick();
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
    }
  }

  private posted(channel: string): void {
    this.stats.posts++;
    this.nextPostAt.set(channel, Date.now() + this.interval);
  }

  private async post(channel: string, notice: Notice, threadTs?: string): Promise<Posted> {
    const posted = await this.sink.post(channel, notice, threadTs);
    this.posted(channel);
    return posted;
  }

  private async updateAlert(ref: MessageRef, alert: AlertRecord): Promise<void> {
    await this.sink.update(ref.channelId, ref.ts, { kind: 'alert', alert });
    this.stats.updates++;
  }

  private async sendDigest(channel: string, batch: PendingCall[]): Promise<void> {
    const alerts: AlertRecord[] = [];
    const resolved: AlertRecord[] = [];
    for (const call of batch) {
      if (call.item.kind === 'alert') alerts.push(call.item.alert);
      else if (call.item.kind === 'resolve') {
        const ref = this.store.getMessage(call.item.alert.key, channel);
        if (ref?.via === 'message') await this.updateAlert(ref, call.item.alert);
        resolved.push(call.item.alert);
      }
    }
    const { ts, channelId } = await this.post(channel, { kind: 'digest', alerts, resolved });
    this.store.transaction(() => {
      for (const alert of alerts) this.store.putMessage(alert.key, { channel, channelId, ts, via: 'digest' });
      this.store.complete(batch.map((c) => c.id));
    });
    this.stats.digests++;
    this.noteCovered(channel, alerts.length);
    this.lastDigestAt.set(channel, Date.now());
  }

  private async sendOne(channel: string, call: PendingCall): Promise<void> {
    const item = call.item;
    switch (item.kind) {
      case 'alert': {
        const { ts, channelId } = await this.post(channel, { kind: 'alert', alert: item.alert });
        this.store.transaction(() => {
          this.store.putMessage(item.alert.key, { channel, channelId, ts, via: 'message' });
          this.store.complete([call.id]);
        });
        this.noteCovered(channel, 1);
        return;
      }
      case 'resolve': {
        const ref = this.store.getMessage(item.alert.key, channel);
        if (ref === undefined) {
          // Its open alert never reached Slack (given up on): post it, already resolved.
          const { ts, channelId } = await this.post(channel, { kind: 'alert', alert: item.alert });
          this.store.putMessage(item.alert.key, { channel, channelId, ts, via: 'message' });
        } else {
          if (ref.via === 'message') await this.updateAlert(ref, item.alert);
          await this.post(channel, { kind: 'resolved_reply', alert: item.alert }, ref.ts);
        }
        break;
      }
      case 'cbm': {
        const { ts } = await this.post(channel, { kind: 'cbm', cbm: item.cbm });
        this.store.putCbmMessage(item.cbm.key, channel, ts);
        break;
      }
      case 'cbm_good':
        await this.post(channel, { kind: 'cbm_good', cbm: item.cbm }, this.store.getCbmMessage(item.cbm.key, channel));
        break;
      case 'cbm_digest':
        await this.post(channel, { kind: 'cbm_digest', units: item.units, day: item.day });
        break;
      case 'catch_up': {
        // Closes of the alerts it covers then go to its thread, as for a storm digest.
        const { ts, channelId } = await this.post(channel, { kind: 'catch_up', summary: item.summary });
        this.store.transaction(() => {
          for (const key of item.keys) this.store.putMessage(key, { channel, channelId, ts, via: 'digest' });
          this.store.complete([call.id]);
        });
        this.stats.digests++;
        return;
      }
      case 'source_lag':
        await this.post(channel, { kind: 'source_lag', text: item.text });
        break;
    }
    this.store.complete([call.id]);
  }

  private onError(channel: string, call: PendingCall, error: unknown): void {
    if (error instanceof RateLimitedError) {
      this.stats.rateLimited++;
      this.nextPostAt.set(channel, Date.now() + error.retryAfterMs);
      this.options.logger.warn(`slack: ${channel} rate limited, waiting ${error.retryAfterMs} ms (other channels continue)`);
      return;
    }
    const permanent = error instanceof PermanentSinkError;
    const giveUp = permanent ? call.attempts + 1 >= 3 : call.attempts + 1 >= 10;
    this.store.recordFailure(call.id, errorText(error), giveUp);
    if (giveUp) this.stats.failed++;
    const backoff = Math.min(60_000, 500 * 2 ** call.attempts);
    this.nextPostAt.set(channel, Date.now() + backoff);
    this.options.logger.error(`slack: ${call.item.kind} to ${channel} failed (${errorText(error)})${giveUp ? ', given up: kept in the outbox as failed' : `, retrying in ${backoff} ms`}`);
  }
}
