/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// /readyz: each part the bot needs reports or is checked here. Checks are named; a check returns
// ok and a sentence a person can act on. Sources report their last success (metrics.ts keeps
// the times); a check can use any other figure (e.g. a poll source's lag) the same way.
export interface CheckResult {
	ok: boolean;
	detail: string;
}

export type Check = () => CheckResult | Promise<CheckResult>;

export interface ReadinessReport {
	ready: boolean;
	checks: Record<string, CheckResult>;
}

export class Readiness {
	private readonly checks = new Map<string, Check>();

	/** Adds or replaces a named check. */
	register(name: string, check: Check): void {
		this.checks.set(name, check);
	}

	unregister(name: string): void {
		this.checks.delete(name);
	}

	async evaluate(timeoutMs = 5_000): Promise<ReadinessReport> {
		const entries = await Promise.all(
			[...this.checks].map(async ([name, check]): Promise<[string, CheckResult]> => {
				try {
					return [name, await withTimeout(Promise.resolve(check()), timeoutMs)];
				} catch (error) {
					return [
						name,
						{ ok: false, detail: error instanceof Error ? error.message : String(error) },
					];
				}
			}),
		);
		const checks = Object.fromEntries(entries);
		return { ready: entries.length > 0 && entries.every(([, r]) => r.ok), checks };
	}
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
	});
	return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs an expensive check (a platform or Slack call) at most once per `maxAgeMs`, so a probe
 * every few seconds does not become load on the platform or Slack's rate limits.
 */
export function cached(check: Check, maxAgeMs = 15_000, now: () => number = Date.now): Check {
	let last: { at: number; result: Promise<CheckResult> } | undefined;
	return () => {
		if (!last || now() - last.at >= maxAgeMs)
			last = { at: now(), result: Promise.resolve().then(check) };
		return last.result;
	};
}

/** A source is ready when it last succeeded within `maxAgeMs` (one never seen is not). */
export function recentSuccess(
	lastSuccess: () => number | undefined,
	maxAgeMs: number,
	what: string,
	now: () => number = Date.now,
): Check {
	return () => {
		const at = lastSuccess();
		if (at === undefined) return { ok: false, detail: `${what}: no successful pass yet` };
		const age = now() - at;
		return age <= maxAgeMs
			? { ok: true, detail: `${what}: last success ${Math.round(age / 1000)} s ago` }
			: {
					ok: false,
					detail: `${what}: last success ${Math.round(age / 1000)} s ago (more than ${Math.round(maxAgeMs / 1000)} s)`,
				};
	};
}

/** What a store answers when asked for its schema version (PostgreSQL: SELECT max(version) FROM schema_version). */
export type SchemaVersionProbe = () => Promise<number>;

/**
 * The database check of /readyz: reachable, and its schema not newer than this bot (an older replica must not
 * write into a schema it does not know). `where` is the database's place without its password (DatabaseSettings.display),
 * named when it does not answer; the detail never carries the password.
 */
export function databaseCheck(
	schemaVersion: SchemaVersionProbe,
	known: number,
	where?: string,
): Check {
	return async () => {
		let version: number;
		try {
			version = await schemaVersion();
		} catch (error) {
			const code = (error as { code?: string }).code;
			return {
				ok: false,
				detail: `database unreachable${code ? ` (${code})` : ''}: ${where ? `${where} does not answer; ` : ''}the bot keeps trying; check that PostgreSQL is running and that DRIVE_BOT_DATABASE_URL points to it`,
			};
		}
		return version > known
			? {
					ok: false,
					detail: `schema newer than this bot: the database is at version ${version}, this bot knows ${known}; run the same bot version as the other replicas`,
				}
			: { ok: true, detail: `database reachable, schema version ${version}` };
	};
}

/** Leadership as /readyz shows it: a standby replica is ready too (it answers Slack), so this check only informs. */
export function leadershipCheck(leader: {
	isLeader(): boolean;
	epoch(): number | undefined;
}): Check {
	return () => ({
		ok: true,
		detail: leader.isLeader()
			? `leader (epoch ${leader.epoch()})`
			: 'standby: another replica leads, or the lead is being taken',
	});
}
