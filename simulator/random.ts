/**
 * Deterministic randomness. Everything the fleet shows is a pure function of the seed and of
 * coordinates (asset, day, index), so data can be generated lazily, per window, and still be the
 * same on every call and on every run with the same seed.
 */

/** A 32-bit mix of any number of integers (murmur3 finalizer over an FNV-style fold). */
export function hash32(...parts: number[]): number {
	let h = 0x811c9dc5;
	for (const part of parts) {
		// Fold both halves so values above 2^32 (ids, epoch milliseconds) still mix fully.
		const low = part >>> 0;
		const high = Math.floor(part / 0x100000000) >>> 0;
		h = Math.imul(h ^ low, 0x01000193);
		h = Math.imul(h ^ high, 0x01000193);
		h ^= h >>> 16;
		h = Math.imul(h, 0x85ebca6b);
		h ^= h >>> 13;
		h = Math.imul(h, 0xc2b2ae35);
		h ^= h >>> 16;
	}
	return h >>> 0;
}

/** A number in [0, 1) for the given coordinates. */
export function unit(...parts: number[]): number {
	return hash32(...parts) / 0x100000000;
}

/** Turns a seed given as number or text into a 32-bit integer. */
export function seedOf(seed: number | string): number {
	if (typeof seed === 'number' && Number.isFinite(seed)) return seed >>> 0;
	let h = 0;
	for (const ch of String(seed)) h = hash32(h, ch.codePointAt(0) ?? 0);
	return h;
}

/** A sequential PRNG (mulberry32) for the one-off seeding pass. */
export class Random {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 0x100000000;
	}

	int(min: number, maxInclusive: number): number {
		return min + Math.floor(this.next() * (maxInclusive - min + 1));
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	hex(length: number): string {
		let out = '';
		while (out.length < length)
			out += Math.floor(this.next() * 0x10000)
				.toString(16)
				.padStart(4, '0');
		return out.slice(0, length);
	}

	/** A GUID-shaped identifier (tenant ids, scope ids, API keys). */
	guid(): string {
		const h = this.hex(32);
		return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
	}
}

/** Picks from a list with a coordinate-derived number in [0, 1). */
export function pickBy<T>(items: readonly T[], u: number): T {
	return items[Math.min(items.length - 1, Math.floor(u * items.length))];
}
