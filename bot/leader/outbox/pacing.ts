import { DIGEST_MAX_LINES } from '../../blocks/digest';
import type { PendingCall } from '../../features/alerts/outbox';

const WINDOW_MS = 60_000;

export interface PacingOptions {
	/** Messages a channel may receive per second (Slack: about one). */
	postsPerSecond: number;
	/** Alerts a minute in one channel above which they are only posted as digests. */
	stormPerMinute: number;
	/** Alerts waiting for one channel that go out together as a digest. */
	digestBacklog: number;
	/** During a storm, digests go out this often (or sooner when one is full). */
	digestIntervalMs?: number;
}

/** What the pipeline does next with a channel's pending calls. */
export type NextStep =
	| { kind: 'one'; call: PendingCall }
	| { kind: 'digest'; batch: PendingCall[] }
	| { kind: 'wait'; ms: number };

/**
 * Rate and storm control, per channel: when the next message may go (the channel's rate, a 429's Retry-After, a
 * failure's backoff), and whether alerts go one by one or, in a storm or a backlog, together as a digest.
 */
export class Pacing {
	private readonly nextPostAt = new Map<string, number>();
	private readonly lastDigestAt = new Map<string, number>();
	private readonly covered = new Map<string, number[]>();
	private readonly interval: number;
	private readonly digestInterval: number;

	constructor(private readonly options: PacingOptions) {
		this.interval = Math.ceil(1000 / options.postsPerSecond);
		this.digestInterval = options.digestIntervalMs ?? 10_000;
	}

	/** How long the channel must wait before its next call (0: it may go now). */
	waitMs(channel: string): number {
		return (this.nextPostAt.get(channel) ?? 0) - Date.now();
	}

	/** Nothing goes to the channel for `ms` (a 429's Retry-After, a failure's backoff). */
	hold(channel: string, ms: number): void {
		this.nextPostAt.set(channel, Date.now() + ms);
	}

	/** A message was posted: the next one waits the channel's interval. */
	posted(channel: string): void {
		this.hold(channel, this.interval);
	}

	/** Alerts shown in the channel (one message, or the lines of a digest), for the storm window. */
	noteCovered(channel: string, count: number): void {
		const now = Date.now();
		const list = this.covered.get(channel) ?? [];
		for (let i = 0; i < count; i++) list.push(now);
		this.covered.set(channel, list);
	}

	noteDigest(channel: string): void {
		this.lastDigestAt.set(channel, Date.now());
	}

	/**
	 * The next step for a channel's pending calls (oldest first). Alerts and closes at the head go one by one, or
	 * together as a digest during a storm (at most every digestIntervalMs, unless the digest is full) or when
	 * digestBacklog of them wait; any other call goes one by one.
	 */
	next(channel: string, calls: PendingCall[]): NextStep {
		const now = Date.now();
		const firstOther = calls.findIndex((c) => c.item.kind !== 'alert' && c.item.kind !== 'resolve');
		const leading = firstOther === -1 ? calls : calls.slice(0, firstOther);
		if (leading.length > 0 && this.inStorm(channel, now)) {
			const due = (this.lastDigestAt.get(channel) ?? 0) + this.digestInterval;
			if (leading.length < DIGEST_MAX_LINES && now < due) return { kind: 'wait', ms: due - now };
			return { kind: 'digest', batch: leading };
		}
		if (leading.length >= this.options.digestBacklog) return { kind: 'digest', batch: leading };
		return { kind: 'one', call: calls[0] };
	}

	private inStorm(channel: string, now: number): boolean {
		const recent = (this.covered.get(channel) ?? []).filter((t) => now - t < WINDOW_MS);
		this.covered.set(channel, recent);
		return recent.length >= this.options.stormPerMinute;
	}
}
