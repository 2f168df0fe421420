/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { performance } from 'node:perf_hooks';
import { Client, type ClientConfig } from 'pg';
import { leadershipMetrics, type LeadershipMetrics } from '../ops/metrics';
import type { BotLogger } from '../log';
import { FencedOut } from './fence';
import type { SqlExecutor } from '../state/sql';

/** Any fixed number, other than the migration lock: held for as long as a replica leads. */
export const LEADER_LOCK = 0x4c454144; // "LEAD"

/** The database's clock in milliseconds: every replica's lease arithmetic uses this one clock. */
const DB_NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/**
 * Timings of leadership, all in milliseconds. Defaults give a new leader within ~1-2 s of the old one's death
 * (kill -9: PostgreSQL frees its lock as its socket closes) and within ~ttl + 2 s of it freezing (SIGSTOP: its
 * session stays open, so the others wait for the lease to go stale and then end that session).
 */
export interface LeadershipTimings {
	/** How often the leader renews the lease row. Default 2000. */
	renewEveryMs: number;
	/** A lease not renewed for this long (by the database's clock) is stale: another replica ends the holder's session. Default 10000. */
	ttlMs: number;
	/**
	 * The leader acts only while its last renewal, by its own clock, is younger than ttlMs - marginMs, so it stops
	 * before any other replica may take over (the margin absorbs clock-rate differences and the renewal's round trip). Default 3000.
	 */
	marginMs: number;
	/** How often a replica that does not lead tries to take the lead. Default 1000. */
	tryEveryMs: number;
	/** Limit of every statement of the leadership connection, and of connecting. Default 5000. */
	statementTimeoutMs: number;
	/** How long the epoch bump waits for an old leader's open transaction before ending that session. Default 2000. */
	lockWaitMs: number;
}

export const DEFAULT_LEADERSHIP_TIMINGS: LeadershipTimings = {
	renewEveryMs: 2_000,
	ttlMs: 10_000,
	marginMs: 3_000,
	tryEveryMs: 1_000,
	statementTimeoutMs: 5_000,
	lockWaitMs: 2_000,
};

export interface LeadershipOptions {
	/** The dedicated connection's settings (pg's ClientConfig: connectionString and/or PG* variables). */
	connection: ClientConfig;
	/** Names this replica in the lease row and the logs (e.g. host name and pid). */
	holder: string;
	logger: BotLogger;
	/** Where leadership is counted (default: the process's /metrics). */
	metrics?: LeadershipMetrics;
	timings?: Partial<LeadershipTimings>;
	/** This replica now leads with `epoch` (`leadership` is this one): start the platform sources, the outbox and the schedules. */
	onLead(epoch: number, leadership: Leadership): void | Promise<void>;
	/** This replica stopped leading: close platform connections at once (their unacknowledged messages go back to the broker). */
	onStepDown(reason: string): void | Promise<void>;
}

export interface Leadership {
	/** Resolves when the first attempt to lead has ended: this replica then leads, or another one does. */
	settled(): Promise<void>;
	/** Leads now, with a lease still valid by this process's own clock. */
	isLeader(): boolean;
	/** The epoch this replica leads with, or undefined. */
	epoch(): number | undefined;
	/** Throws FencedOut unless this replica leads now: call it right before every Slack call the leader makes. */
	assertLeading(): number;
	/** For FencedDatabase.fenceWith: refuses a transaction unless this replica's epoch is the lease row's (read FOR SHARE). */
	fence(tx: SqlExecutor): Promise<void>;
	/** Steps down (releasing the lock for another replica) and stops competing. */
	close(): Promise<void>;
}

/**
 * Leadership with fencing: a session advisory lock on a dedicated connection, and a lease row
 * (epoch, holder, holder's backend pid, renewed_at by the database's clock).
 *
 * - The leader renews the row every `renewEveryMs`; it acts only while its last renewal is younger than
 *   `ttlMs - marginMs` by its own monotonic clock, so a leader frozen by SIGSTOP or a long pause stops acting the
 *   moment it wakes, before any timer of its own runs.
 * - A replica that cannot take the lock reads the row: renewed more than `ttlMs` ago means the holder is frozen or
 *   cut off, so it ends the holder's session (pg_terminate_backend: allowed for backends of the same role), takes
 *   the lock and bumps the epoch.
 * - Every transaction of the leader checks the epoch (`fence`), so the writes of an old leader are refused.
 * - Any error of the leader's connection (PostgreSQL restarted, unreachable) is a step-down: the session may be
 *   gone with its lock. Replicas keep trying every `tryEveryMs`; nothing throws out of here.
 */
export function startLeadership(options: LeadershipOptions): Leadership {
	return new LeaseLeadership(options);
}

class LeaseLeadership implements Leadership {
	private readonly t: LeadershipTimings;
	private readonly metrics: LeadershipMetrics;
	private client: Client | undefined;
	private leading: { epoch: number; renewedAt: number } | undefined;
	private lastSeenEpoch: number | undefined;
	private closed = false;
	private timer: NodeJS.Timeout | undefined;
	private busy: Promise<void> = Promise.resolve();
	/** The first attempt, scheduled at construction: a replica knows at its end whether it leads. */
	private readonly firstAttempt: Promise<void>;

	constructor(private readonly options: LeadershipOptions) {
		const t: LeadershipTimings = { ...DEFAULT_LEADERSHIP_TIMINGS, ...options.timings };
		if (t.ttlMs - t.marginMs <= t.renewEveryMs) {
			throw new Error(
				`Leadership timings: ttlMs - marginMs (${t.ttlMs - t.marginMs} ms) must exceed renewEveryMs (${t.renewEveryMs} ms).`,
			);
		}
		this.t = t;
		this.metrics = options.metrics ?? leadershipMetrics;
		this.metrics.setLeader(false);
		this.loop();
		this.firstAttempt = this.busy;
	}

	settled(): Promise<void> {
		return this.firstAttempt;
	}

	isLeader(): boolean {
		return this.valid();
	}

	epoch(): number | undefined {
		return this.valid() ? this.leading?.epoch : undefined;
	}

	assertLeading(): number {
		if (!this.leading || !this.valid()) {
			const mine = this.leading?.epoch ?? 0;
			if (this.leading)
				this.schedule(() =>
					this.stepDown(
						'the lease was not renewed in time (this process was paused or the database was slow)',
					),
				);
			throw new FencedOut(mine, this.lastSeenEpoch ?? 0);
		}
		return this.leading.epoch;
	}

	async fence(tx: SqlExecutor): Promise<void> {
		const mine = this.leading?.epoch;
		if (mine === undefined || !this.valid())
			throw new FencedOut(mine ?? 0, this.lastSeenEpoch ?? 0);
		const row = await tx.get<{ epoch: number | string }>(
			'SELECT epoch FROM leader_lease WHERE id = 1 FOR SHARE',
		);
		const current = Number(row?.epoch ?? 0);
		if (current !== mine) {
			this.schedule(() => this.stepDown('another replica has taken the lead'));
			throw new FencedOut(mine, current);
		}
	}

	async close(): Promise<void> {
		this.closed = true;
		clearTimeout(this.timer);
		this.schedule(() => this.stepDown('this replica is shutting down'));
		await this.busy;
		await this.dropConnection();
	}

	private valid(): boolean {
		return (
			this.leading !== undefined &&
			performance.now() - this.leading.renewedAt < this.t.ttlMs - this.t.marginMs
		);
	}

	/** Counts a new leader: one seen taking over while this replica watched, or this replica itself. */
	private sawEpoch(epoch: number, own = false): void {
		if (epoch !== this.lastSeenEpoch && (own || this.lastSeenEpoch !== undefined))
			this.metrics.leaderChanged();
		this.lastSeenEpoch = epoch;
	}

	private async dropConnection(): Promise<void> {
		const old = this.client;
		this.client = undefined;
		await old?.end().catch(() => undefined);
	}

	private async stepDown(reason: string): Promise<void> {
		const was = this.leading;
		this.leading = undefined;
		// Ending the session releases the advisory lock at once for the next replica.
		await this.dropConnection();
		if (!was) return;
		this.metrics.setLeader(false);
		this.options.logger.warn(
			`Leadership (epoch ${was.epoch}) ended: ${reason}. This replica stops reading the platform and posting.`,
		);
		try {
			await this.options.onStepDown(reason);
		} catch (error) {
			this.options.logger.error(
				`Stepping down failed: ${error instanceof Error ? error.message : String(error)}`,
			);
		}
	}

	private async connect(): Promise<Client> {
		if (this.client) return this.client;
		const fresh = new Client({
			application_name: 'drive-bot-leadership',
			keepAlive: true,
			connectionTimeoutMillis: this.t.statementTimeoutMs,
			query_timeout: this.t.statementTimeoutMs,
			statement_timeout: this.t.statementTimeoutMs,
			...this.options.connection,
		});
		// A dropped connection (PostgreSQL restarted, a partition) is expected here, not a crash: the session and its lock are gone.
		const lost = (): void => {
			if (this.client !== fresh) return;
			this.client = undefined;
			if (this.leading)
				this.schedule(() => this.stepDown('the connection to the database was lost'));
		};
		fresh.on('error', lost);
		fresh.on('end', lost);
		await fresh.connect();
		this.client = fresh;
		return fresh;
	}

	/** The epoch bump, in the session that holds the lock; an old leader's transaction holding the row past lockWaitMs is ended. */
	private async bump(c: Client): Promise<number> {
		for (let attempt = 0; ; attempt++) {
			await c.query('BEGIN');
			try {
				await c.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(this.t.lockWaitMs))}`);
				const { rows } = await c.query<{ epoch: string }>(
					`INSERT INTO leader_lease (id, epoch, holder, acquired_at, renewed_at, holder_pid)
					 VALUES (1, 1, $1, ${DB_NOW_MS}, ${DB_NOW_MS}, pg_backend_pid())
					 ON CONFLICT (id) DO UPDATE SET epoch = leader_lease.epoch + 1, holder = excluded.holder,
					   acquired_at = excluded.acquired_at, renewed_at = excluded.renewed_at, holder_pid = excluded.holder_pid
					 RETURNING epoch`,
					[this.options.holder],
				);
				await c.query('COMMIT');
				return Number(rows[0].epoch);
			} catch (error) {
				await c.query('ROLLBACK').catch(() => undefined);
				if ((error as { code?: string }).code !== '55P03' || attempt >= 2) throw error;
				await this.endLeaseHolders(c);
			}
		}
	}

	/**
	 * lock_not_available: a transaction of the old leader (frozen mid-transaction) holds the lease row. The pids are
	 * chosen first, then ended one by one: in one statement the planner may call the function before the filter.
	 */
	private async endLeaseHolders(c: Client): Promise<void> {
		const holders = await c.query<{ pid: number }>(
			`SELECT DISTINCT pid FROM pg_locks WHERE locktype = 'relation' AND relation = 'leader_lease'::regclass AND granted AND pid <> pg_backend_pid()`,
		);
		for (const { pid } of holders.rows)
			await c.query('SELECT pg_terminate_backend($1::int, $2::bigint)', [
				pid,
				Math.round(this.t.statementTimeoutMs / 2),
			]);
		this.options.logger.warn(
			`Taking the lead: ended ${holders.rows.length} session(s) of the previous leader that held the lease row.`,
		);
	}

	private async tryLead(): Promise<void> {
		const c = await this.connect();
		const started = performance.now();
		const got = await c.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [
			LEADER_LOCK,
		]);
		if (!got.rows[0]?.got) return this.takeOverIfStale(c);
		const epoch = await this.bump(c);
		this.leading = { epoch, renewedAt: started };
		this.sawEpoch(epoch, true);
		this.metrics.setLeader(true);
		this.options.logger.info(
			`This replica leads (epoch ${epoch}, holder "${this.options.holder}").`,
		);
		try {
			await this.options.onLead(epoch, this);
		} catch (error) {
			await this.stepDown(
				`starting to lead failed: ${error instanceof Error ? error.message : String(error)}`,
			);
		}
	}

	/** Another session holds the lock: when its lease is stale (frozen or cut off), its session is ended. */
	private async takeOverIfStale(c: Client): Promise<void> {
		const { rows } = await c.query<{
			epoch: string;
			holder: string;
			age: string;
			pid: number | null;
			lock_pid: number | null;
		}>(
			`SELECT l.epoch, l.holder, ${DB_NOW_MS} - l.renewed_at AS age, l.holder_pid AS pid,
			   (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = 0 AND objid = $1 AND objsubid = 1 LIMIT 1) AS lock_pid
			 FROM leader_lease l WHERE l.id = 1`,
			[LEADER_LOCK],
		);
		const row = rows[0];
		if (row) this.sawEpoch(Number(row.epoch));
		if (!row || Number(row.age) <= this.t.ttlMs || row.lock_pid === null) return;
		// Only the session the stale lease names: a lock held by another session is a replica that has just taken
		// it and not yet bumped the row (ending that one would cost a second take-over).
		if (row.pid !== null && Number(row.lock_pid) !== Number(row.pid)) return;
		// The holder has not renewed within the TTL while its session still holds the lock: frozen or cut off.
		this.options.logger.warn(
			`The leader "${row.holder}" (epoch ${row.epoch}) has not renewed its lease for ${Math.round(Number(row.age) / 1000)} s: ending its session to take over.`,
		);
		await c.query('SELECT pg_terminate_backend($1::int, $2::bigint)', [
			row.lock_pid,
			Math.round(this.t.statementTimeoutMs / 2),
		]);
		// The lock is taken on the next try, if no other replica was faster.
	}

	private async renew(): Promise<void> {
		const current = this.leading;
		if (!current || !this.client) return;
		if (!this.valid())
			return this.stepDown(
				'the lease was not renewed in time (this process was paused or the database was slow)',
			);
		const sent = performance.now();
		const { rowCount } = await this.client.query(
			`UPDATE leader_lease SET renewed_at = ${DB_NOW_MS} WHERE id = 1 AND epoch = $1 AND holder_pid = pg_backend_pid()`,
			[current.epoch],
		);
		if (this.leading !== current) return;
		if (rowCount !== 1) return this.stepDown('another replica has taken the lead');
		current.renewedAt = sent;
	}

	private async tick(): Promise<void> {
		try {
			if (this.leading) await this.renew();
			else await this.tryLead();
		} catch (error) {
			const text = error instanceof Error ? error.message : String(error);
			if (this.leading) await this.stepDown(`the lease could not be renewed (${text})`);
			else {
				this.options.logger.debug(
					`Leadership: cannot reach the database to take the lead (${text}); trying again.`,
				);
				await this.dropConnection();
			}
		}
	}

	private schedule(work: () => Promise<void>): void {
		this.busy = this.busy.then(work, work);
	}

	private loop(): void {
		if (this.closed) return;
		this.schedule(() => this.tick());
		void this.busy.then(() => {
			if (this.closed) return;
			this.timer = setTimeout(
				() => this.loop(),
				this.leading ? this.t.renewEveryMs : this.t.tryEveryMs,
			);
		});
	}
}
