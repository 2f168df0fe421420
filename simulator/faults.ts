import { Random } from './random';

/**
 * An injected fault. A rule applies to requests whose path matches one of `paths` (a string
 * matches when the path contains it, a RegExp when it tests true), or to every request without
 * `paths`. Rates are shares between 0 and 1 (1 = every matching request).
 */
export interface FaultRule {
	paths?: Array<string | RegExp>;
	/** Added before the answer. */
	latencyMs?: number;
	/** Share answered with a 5xx HTML page (as a gateway would), before the request is handled. */
	errorRate?: number;
	/** 500, 502, 503 (default) or 504. */
	errorStatus?: number;
	/** Share answered 429 with Retry-After, before the request is handled. */
	rateLimitRate?: number;
	retryAfterSec?: number;
	/** Share whose connection is reset (TCP RST) without an answer. */
	resetRate?: number;
	/** Share whose answer body is corrupted after the request was handled. */
	malformedRate?: number;
	/** html: an HTML page instead of JSON; truncated: JSON cut in the middle; extra-fields: unknown fields added. */
	malformedKind?: 'html' | 'truncated' | 'extra-fields';
	/** Lifetime of tokens issued while the rule is set (short-lived tokens). */
	tokenLifetimeSec?: number;
	/** The rule is removed after failing this many requests. */
	times?: number;
}

export type FaultAction =
	| { kind: 'reset' }
	| { kind: 'error'; status: number }
	| { kind: 'rateLimit'; retryAfterSec: number }
	| { kind: 'malformed'; malformedKind: NonNullable<FaultRule['malformedKind']> };

export interface FaultDecision {
	latencyMs: number;
	action: FaultAction | null;
}

/** The fault switchboard: `set` replaces, `add` appends, `clear` removes every rule. */
export class Faults {
	private rules: FaultRule[] = [];
	private readonly random: Random;

	constructor(seed: number, initial: FaultRule[] = []) {
		this.random = new Random(seed ^ 0x5eed_fa17);
		this.set(initial);
	}

	set(rules: FaultRule | FaultRule[]): void {
		this.rules = (Array.isArray(rules) ? rules : [rules]).map((r) => validateRule({ ...r }));
	}

	add(rule: FaultRule): void {
		this.rules.push(validateRule({ ...rule }));
	}

	clear(): void {
		this.rules = [];
	}

	list(): FaultRule[] {
		return this.rules.map((r) => ({ ...r }));
	}

	/** The shortest token lifetime any rule asks for. */
	tokenLifetimeSec(): number | undefined {
		const lifetimes = this.rules
			.map((r) => r.tokenLifetimeSec)
			.filter((n): n is number => n !== undefined);
		return lifetimes.length > 0 ? Math.min(...lifetimes) : undefined;
	}

	decide(path: string): FaultDecision {
		let latencyMs = 0;
		let action: FaultAction | null = null;
		for (const rule of this.rules.filter((r) => matches(r, path))) {
			latencyMs += rule.latencyMs ?? 0;
			if (action) continue;
			action = this.roll(rule);
			if (action && rule.times !== undefined && --rule.times <= 0)
				this.rules = this.rules.filter((r) => r !== rule);
		}
		return { latencyMs, action };
	}

	private roll(rule: FaultRule): FaultAction | null {
		if (this.hit(rule.resetRate)) return { kind: 'reset' };
		if (this.hit(rule.errorRate)) return { kind: 'error', status: rule.errorStatus ?? 503 };
		if (this.hit(rule.rateLimitRate))
			return { kind: 'rateLimit', retryAfterSec: rule.retryAfterSec ?? 1 };
		if (this.hit(rule.malformedRate))
			return { kind: 'malformed', malformedKind: rule.malformedKind ?? 'html' };
		return null;
	}

	private hit(rate: number | undefined): boolean {
		return rate !== undefined && rate > 0 && (rate >= 1 || this.random.next() < rate);
	}
}

function matches(rule: FaultRule, path: string): boolean {
	return (
		!rule.paths ||
		rule.paths.length === 0 ||
		rule.paths.some((p) => (typeof p === 'string' ? path.includes(p) : p.test(path)))
	);
}

function validateRule(rule: FaultRule): FaultRule {
	for (const key of ['errorRate', 'rateLimitRate', 'resetRate', 'malformedRate'] as const) {
		const rate = rule[key];
		if (rate !== undefined && !(rate >= 0 && rate <= 1))
			throw new RangeError(`fault ${key} must be between 0 and 1, got ${rate}`);
	}
	if (rule.errorStatus !== undefined && ![500, 502, 503, 504].includes(rule.errorStatus)) {
		throw new RangeError(`fault errorStatus must be 500, 502, 503 or 504, got ${rule.errorStatus}`);
	}
	for (const key of ['latencyMs', 'retryAfterSec', 'tokenLifetimeSec', 'times'] as const) {
		const n = rule[key];
		if (n !== undefined && !(Number.isFinite(n) && n >= 0))
			throw new RangeError(`fault ${key} must be a number >= 0, got ${n}`);
	}
	return rule;
}
