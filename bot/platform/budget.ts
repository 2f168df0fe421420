/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { Transport, TransportRequest, TransportResponse } from '../../shared';

/** Who is asking: a person's `/drive` command goes before the background poll. */
export type Priority = 'command' | 'poll';

export interface BudgetStatus {
	/** The configured budget (`source.maxRequestsPerSecond`). */
	configuredPerSecond: number;
	/** The budget now: lower than configured for a while after the platform answered 429. */
	currentPerSecond: number;
	/** Requests allowed in flight at once: what the budget needs at the measured latency. */
	concurrency: number;
	inFlight: number;
	waiting: Record<Priority, number>;
	/** Average answer time (exponentially weighted). */
	latencyMs: number;
	sent: Record<Priority, number>;
	rateLimited: number;
}

interface Waiter {
	resolve: (release: Release) => void;
	reject: (error: unknown) => void;
	signal?: AbortSignal;
	onAbort?: () => void;
}

export type Release = (outcome: { status?: number; latencyMs: number }) => void;

/** After a 429 the budget halves; it recovers a tenth of the configured rate per quiet second. */
const SLOWDOWN = 0.5;
const RECOVERY_PER_SECOND = 0.1;
/** A 429 within this long of the previous slowdown does not halve again (one burst, one step). */
const SLOWDOWN_SPACING_MS = 2_000;
const MIN_PER_SECOND = 0.5;
const INITIAL_LATENCY_MS = 100;

/**
 * The platform's request budget, shared by everything the bot asks (polling, commands, asset
 * details): at most `ratePerSecond` requests start per second (a token bucket of 200 ms burst),
 * commands are served before polling, and the number in flight follows the measured latency
 * (rate x latency, so a slow platform gets more parallel requests, a fast one fewer) up to
 * `maxConcurrency`. A 429 from the platform halves the rate; it then recovers gradually.
 */
export class RequestBudget {
	private readonly queues: Record<Priority, Waiter[]> = { command: [], poll: [] };
	private tokens: number;
	private refilledAt: number;
	private rate: number;
	private slowedAt = -Infinity;
	private slowedTo = 0;
	private latency = INITIAL_LATENCY_MS;
	private active = 0;
	private timer: NodeJS.Timeout | undefined;
	private readonly sent: Record<Priority, number> = { command: 0, poll: 0 };
	private rateLimited = 0;

	constructor(
		readonly ratePerSecond: number,
		private readonly options: {
			maxConcurrency?: number;
			now?: () => number;
			onSlowDown?: (perSecond: number) => void;
		} = {},
	) {
		if (!(ratePerSecond > 0))
			throw new RangeError(`maxRequestsPerSecond must be positive, got ${ratePerSecond}`);
		this.rate = ratePerSecond;
		this.tokens = this.burst();
		this.refilledAt = this.now();
	}

	private now(): number {
		return this.options.now?.() ?? Date.now();
	}

	private burst(): number {
		return Math.max(1, this.rate / 5);
	}

	/** The rate now: after a slowdown it climbs back a tenth of the configured rate per second. */
	private currentRate(now: number): number {
		if (this.rate < this.ratePerSecond) {
			this.rate = Math.min(
				this.ratePerSecond,
				this.slowedTo +
					this.ratePerSecond * RECOVERY_PER_SECOND * Math.max(0, (now - this.slowedAt) / 1000),
			);
		}
		return this.rate;
	}

	/** Requests in flight that the budget's rate needs at the measured latency. */
	concurrency(): number {
		const needed = Math.ceil((this.rate * this.latency * 1.5) / 1000) + 1;
		return Math.max(1, Math.min(this.options.maxConcurrency ?? 32, needed));
	}

	private refill(now: number): void {
		const rate = this.currentRate(now);
		this.tokens = Math.min(this.burst(), this.tokens + ((now - this.refilledAt) / 1000) * rate);
		this.refilledAt = now;
	}

	/** Waits for a slot; the caller must call the returned release with the outcome. */
	acquire(priority: Priority, signal?: AbortSignal): Promise<Release> {
		if (signal?.aborted) return Promise.reject(signal.reason);
		return new Promise<Release>((resolve, reject) => {
			const waiter: Waiter = { resolve, reject, signal };
			if (signal) {
				waiter.onAbort = () => {
					const queue = this.queues[priority];
					const at = queue.indexOf(waiter);
					if (at >= 0) queue.splice(at, 1);
					reject(signal.reason);
				};
				signal.addEventListener('abort', waiter.onAbort, { once: true });
			}
			this.queues[priority].push(waiter);
			this.sent[priority]++;
			this.pump();
		});
	}

	async run<T>(priority: Priority, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
		const release = await this.acquire(priority, signal);
		const started = this.now();
		try {
			return await task();
		} finally {
			release({ latencyMs: this.now() - started });
		}
	}

	private pump(): void {
		const now = this.now();
		this.refill(now);
		while (this.active < this.concurrency() && this.tokens >= 1) {
			const waiter = this.queues.command.shift() ?? this.queues.poll.shift();
			if (!waiter) return;
			if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
			this.tokens -= 1;
			this.active++;
			let released = false;
			waiter.resolve((outcome) => {
				if (released) return;
				released = true;
				this.active--;
				this.observe(outcome);
				this.pump();
			});
		}
		if (
			this.tokens < 1 &&
			this.queues.command.length + this.queues.poll.length > 0 &&
			this.timer === undefined
		) {
			const wait = Math.max(1, Math.ceil(((1 - this.tokens) / this.rate) * 1000));
			this.timer = setTimeout(() => {
				this.timer = undefined;
				this.pump();
			}, wait);
		}
	}

	private observe(outcome: { status?: number; latencyMs: number }): void {
		this.latency = this.latency * 0.8 + Math.max(1, outcome.latencyMs) * 0.2;
		if (outcome.status === 429) {
			this.rateLimited++;
			const now = this.now();
			if (now - this.slowedAt >= SLOWDOWN_SPACING_MS) {
				this.rate = Math.max(MIN_PER_SECOND, this.currentRate(now) * SLOWDOWN);
				this.slowedTo = this.rate;
				this.tokens = Math.min(this.tokens, 0);
				this.slowedAt = now;
				this.options.onSlowDown?.(this.rate);
			}
		}
	}

	status(): BudgetStatus {
		return {
			configuredPerSecond: this.ratePerSecond,
			currentPerSecond: Math.round(this.currentRate(this.now()) * 100) / 100,
			concurrency: this.concurrency(),
			inFlight: this.active,
			waiting: { command: this.queues.command.length, poll: this.queues.poll.length },
			latencyMs: Math.round(this.latency),
			sent: { ...this.sent },
			rateLimited: this.rateLimited,
		};
	}

	/** Rejects whatever still waits (shutdown). */
	close(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		for (const queue of Object.values(this.queues)) {
			for (const waiter of queue.splice(0)) waiter.reject(new Error('the bot is stopping'));
		}
	}
}

/** A transport whose every attempt (retries and token requests included) spends from the budget. */
export function budgetedTransport(
	inner: Transport,
	budget: RequestBudget,
	priority: Priority,
): Transport {
	return {
		async request(request: TransportRequest): Promise<TransportResponse> {
			const release = await budget.acquire(priority, request.signal);
			const started = Date.now();
			let status: number | undefined;
			try {
				const response = await inner.request(request);
				status = response.status;
				return response;
			} finally {
				release({ status, latencyMs: Date.now() - started });
			}
		},
		close: inner.close ? () => inner.close!() : undefined,
	};
}
