/** Time helpers: the formats of assumptions A5 and A6, and the simulator's accelerated clock. */

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
const UTC8_OFFSET = 8 * HOUR;

/** A5: UTC instants as `YYYY-MM-DDThh:mm:ssZ`. */
export function isoUtc(ms: number): string {
	return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A5: a UTC+8 calendar date, `YYYY-MM-DD`. */
export function utc8Date(ms: number): string {
	return new Date(ms + UTC8_OFFSET).toISOString().slice(0, 10);
}

/** A5: a UTC+8 wall time, `YYYY-MM-DD hh:mm:ss`. */
export function utc8DateTime(ms: number): string {
	return new Date(ms + UTC8_OFFSET).toISOString().slice(0, 19).replace('T', ' ');
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/i;

/** An ISO 8601 instant; without an offset it is read as UTC (the spec's default). NaN if invalid. */
export function parseInstant(text: unknown): number {
	if (typeof text !== 'string' || !INSTANT.test(text.trim())) return Number.NaN;
	const trimmed = text.trim();
	const withZone = /(Z|[+-]\d{2}:\d{2})$/i.test(trimmed) ? trimmed : `${trimmed}Z`;
	return Date.parse(withZone);
}

/** A5: a UTC+8 date (`YYYY-MM-DD`, midnight UTC+8) or an instant with an explicit offset. NaN if invalid. */
export function parseUtc8Date(text: unknown): number {
	if (typeof text !== 'string') return Number.NaN;
	const trimmed = text.trim();
	if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) {
		const ms = Date.parse(`${trimmed}T00:00:00+08:00`);
		return Number.isNaN(ms) ? Number.NaN : ms;
	}
	return /(Z|[+-]\d{2}:\d{2})$/i.test(trimmed) ? parseInstant(trimmed) : Number.NaN;
}

/** Index of the UTC day an instant falls in. */
export function dayIndex(ms: number): number {
	return Math.floor(ms / DAY);
}

/**
 * Simulated time. `now()` is platform time: it runs `timeScale` times faster than real time and
 * jumps on `advance()`. `wallNow()` is real time plus the manual jumps only: tokens and temporary
 * links live on it, because clients check them against their own clocks.
 */
export class SimClock {
	private readonly realOrigin: number;
	private offset = 0;
	private readonly listeners: Array<() => void> = [];

	constructor(
		readonly origin: number,
		readonly timeScale: number,
		private readonly realNow: () => number = Date.now,
		/** The real instant `origin` stands for; by default the construction instant. */
		realOrigin?: number,
	) {
		this.realOrigin = realOrigin ?? realNow();
	}

	now(): number {
		return Math.floor(
			this.origin + (this.realNow() - this.realOrigin) * this.timeScale + this.offset,
		);
	}

	wallNow(): number {
		return this.realNow() + this.offset;
	}

	/** Jumps simulated time (and wall time) forward; due reports and ticks run before it returns. */
	advance(ms: number): void {
		if (!Number.isFinite(ms) || ms < 0)
			throw new RangeError(`clock.advance: ms must be a finite number >= 0, got ${ms}`);
		this.offset += ms;
		for (const listener of this.listeners) listener();
	}

	onAdvance(listener: () => void): void {
		this.listeners.push(listener);
	}
}
