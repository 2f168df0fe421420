/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { setTimeout as sleep } from 'node:timers/promises';
import {
	type CustomTypesConfig,
	Pool,
	type PoolClient,
	type QueryResult,
	types as pgTypes,
} from 'pg';
import type { DatabaseSettings } from './database-url';
import { withoutPassword } from './database-url';
import { DatabaseError } from './database-error';
import { migrate, type Schema } from './schema';
import type { SqlDatabase, SqlExecutor, SqlRunResult, SqlValue } from './sql';

/** The limits every call to PostgreSQL has: none waits for ever. */
export const POSTGRES_LIMITS = {
	/** Connecting (TCP, TLS, authentication). */
	connectMs: 10_000,
	/** One statement, on the server (statement_timeout) and on the client. */
	statementMs: 30_000,
	/** A transaction left open by a stalled replica is ended by the server. */
	idleInTransactionMs: 60_000,
	/** Connections one replica holds at most. */
	poolSize: 10,
	/** Attempts of a transaction that PostgreSQL aborted to keep it serializable (40001, 40P01). */
	serializationAttempts: 12,
} as const;

/** Any fixed number: every replica asks for the same lock, so one migrates while the others wait. */
const MIGRATION_LOCK = 0x44524956; // "DRIV"

/** SQLSTATEs after which the whole transaction may simply run again. */
const RETRYABLE = new Set(['40001', '40P01']);

// Defined apart from the driver, so that the Slack side can recognize it without loading pg.
export { DatabaseError };

const numberedCache = new Map<string, string>();

/** Where a quoted string, quoted identifier or comment that opens with these characters closes. */
const CLOSERS: ReadonlyArray<[open: string, close: string]> = [
	["'", "'"],
	['"', '"'],
	['--', '\n'],
	['/*', '*/'],
];

/**
 * `?` placeholders numbered as PostgreSQL wants them ($1, $2, …). A `?` inside a quoted string or identifier,
 * or in a comment, is text, not a placeholder (a doubled quote inside quotes closes and reopens them: same result).
 */
export function numberPlaceholders(sql: string): string {
	const cached = numberedCache.get(sql);
	if (cached !== undefined) return cached;
	let out = '';
	let n = 0;
	for (let i = 0; i < sql.length; ) {
		const opened = CLOSERS.find(([open]) => sql.startsWith(open, i));
		if (opened) {
			const end = sql.indexOf(opened[1], i + opened[0].length);
			const stop = end === -1 ? sql.length : end + opened[1].length;
			out += sql.slice(i, stop);
			i = stop;
		} else {
			out += sql[i] === '?' ? `$${++n}` : sql[i];
			i++;
		}
	}
	if (numberedCache.size < 2000) numberedCache.set(sql, out);
	return out;
}

/** int8 (COUNT, BIGINT columns) and numeric as JavaScript numbers, as the interface promises: times in ms fit. */
const types: CustomTypesConfig = {
	getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
		oid === 20 || oid === 1700
			? (value: string) => Number(value)
			: pgTypes.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
};

type Queryable = Pick<PoolClient, 'query'>;

class Executor implements SqlExecutor {
	constructor(
		private readonly target: Queryable,
		private readonly explain: (error: unknown) => Error,
	) {}

	private async query(sql: string, params: SqlValue[]): Promise<QueryResult> {
		try {
			return await this.target.query(numberPlaceholders(sql), params);
		} catch (error) {
			throw this.explain(error);
		}
	}

	async get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
		return (await this.query(sql, params)).rows[0] as T | undefined;
	}

	async all<T>(sql: string, ...params: SqlValue[]): Promise<T[]> {
		return (await this.query(sql, params)).rows as T[];
	}

	async run(sql: string, ...params: SqlValue[]): Promise<SqlRunResult> {
		return { changes: (await this.query(sql, params)).rowCount ?? 0 };
	}
}

export interface PostgresOptions {
	/** Where a lost idle connection is told (a restart of PostgreSQL); never the password. */
	warn?: (message: string) => void;
}

/**
 * The bot's database shared by replicas: a pool of connections to PostgreSQL. Transactions run
 * SERIALIZABLE, so two replicas acting on the same alert at the same moment end as if one acted after the
 * other; PostgreSQL aborts the one that would break that, and it runs again.
 */
export class PostgresDatabase implements SqlDatabase {
	readonly dialect = 'postgres' as const;
	private readonly pool: Pool;
	private readonly executor: Executor;
	private closed = false;

	private constructor(
		private readonly settings: DatabaseSettings,
		options: PostgresOptions,
	) {
		this.pool = new Pool({
			...settings.connection,
			connectionTimeoutMillis: POSTGRES_LIMITS.connectMs,
			statement_timeout: POSTGRES_LIMITS.statementMs,
			query_timeout: POSTGRES_LIMITS.statementMs + 5_000,
			idle_in_transaction_session_timeout: POSTGRES_LIMITS.idleInTransactionMs,
			max: POSTGRES_LIMITS.poolSize,
			keepAlive: true,
			types,
		});
		// An idle connection that PostgreSQL closes (a restart, an administrator) must not end the process: the
		// pool drops it, and the next call opens a new one.
		this.pool.on('error', (error) =>
			options.warn?.(`database: an idle connection was lost (${this.explain(error).message})`),
		);
		this.executor = new Executor(this.pool, (error) => this.explain(error));
	}

	/** Connects, and brings the schema to the latest version (each step once, even when replicas start together). */
	static async open(
		settings: DatabaseSettings,
		schema: Schema,
		options: PostgresOptions = {},
	): Promise<PostgresDatabase> {
		const database = new PostgresDatabase(settings, options);
		try {
			await database.inTransaction('READ COMMITTED', async (tx) => {
				// READ COMMITTED: after the lock, each statement sees what the replica that migrated first committed.
				await tx.get('SELECT pg_advisory_xact_lock(?)', MIGRATION_LOCK);
				await migrate(tx, 'postgres', schema.migrations);
			});
			return database;
		} catch (error) {
			await database.close();
			throw error;
		}
	}

	/** Where the data lives, without the password: for logs and /readyz. */
	get display(): string {
		return this.settings.display;
	}

	get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
		return this.executor.get<T>(sql, ...params);
	}

	all<T>(sql: string, ...params: SqlValue[]): Promise<T[]> {
		return this.executor.all<T>(sql, ...params);
	}

	run(sql: string, ...params: SqlValue[]): Promise<SqlRunResult> {
		return this.executor.run(sql, ...params);
	}

	async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
		for (let attempt = 1; ; attempt++) {
			try {
				return await this.inTransaction('SERIALIZABLE', work);
			} catch (error) {
				if (
					!(error instanceof DatabaseError && error.code && RETRYABLE.has(error.code)) ||
					attempt >= POSTGRES_LIMITS.serializationAttempts
				)
					throw error;
				// Jittered and growing: transactions that collided should not collide again, and ten handlers on one asset
				// (a burst of pushed faults) kept colliding within linear 10 ms steps until the attempts ran out.
				await sleep(Math.random() * Math.min(5 * 2 ** attempt, 250));
			}
		}
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		await this.pool.end();
	}

	private async inTransaction<T>(
		isolation: 'SERIALIZABLE' | 'READ COMMITTED',
		work: (tx: SqlExecutor) => Promise<T>,
	): Promise<T> {
		let client: PoolClient;
		try {
			client = await this.pool.connect();
		} catch (error) {
			throw this.explain(error);
		}
		let broken: Error | undefined;
		// A checked-out connection has no listener of the pool's: one that PostgreSQL ends while it is ours (a
		// restart) would otherwise be an unhandled 'error' event, which ends the process. Its query fails anyway.
		const lost = (error: Error): void => {
			broken = error;
		};
		client.on('error', lost);
		// BEGIN goes with the transaction's first statement when that one has no parameters (a leader's fence reads
		// the lease first): one round trip instead of two, in a simple query of two statements. Otherwise it goes on its own first.
		let begin: string | undefined = `BEGIN ISOLATION LEVEL ${isolation}`;
		const opened: Queryable = {
			query: (async (sql: string, params?: unknown[]) => {
				const opening = begin;
				begin = undefined;
				if (opening === undefined) return client.query(sql, params);
				if (params && params.length > 0) {
					await client.query(opening);
					return client.query(sql, params);
				}
				const results = (await client.query(`${opening}; ${sql}`)) as unknown as QueryResult[];
				return results[results.length - 1];
			}) as Queryable['query'],
		};
		const tx = new Executor(opened, (error) => this.explain(error));
		try {
			const result = await work(tx);
			// A transaction that ran no statement never began.
			if (begin === undefined) {
				await client.query('COMMIT').catch((error: unknown) => {
					throw this.explain(error);
				});
			}
			return result;
		} catch (error) {
			if (begin !== undefined) throw error;
			await client.query('ROLLBACK').catch((rollbackError: unknown) => {
				// The connection itself is gone: the pool must not hand it out again.
				broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
			});
			throw error;
		} finally {
			client.removeListener('error', lost);
			client.release(broken);
		}
	}

	/** A driver or server error in the operator's terms, with the next step, and never the password. */
	private explain(error: unknown): Error {
		if (error instanceof DatabaseError) return error;
		// Duck-typed: errors from node:net may come from another realm (a test runner's), where instanceof fails.
		const { code, message } = (
			typeof error === 'object' && error !== null ? error : { message: String(error) }
		) as { code?: string; message?: string };
		const where = this.settings.display;
		const text = withoutPassword(String(message ?? error), this.settings);
		if (
			code === 'ECONNREFUSED' ||
			code === 'ENOTFOUND' ||
			code === 'EHOSTUNREACH' ||
			code === 'ETIMEDOUT' ||
			/timeout exceeded when trying to connect|Connection terminated/i.test(text)
		) {
			return new DatabaseError(
				`The bot's database at ${where} cannot be reached (${text}).`,
				'Check that PostgreSQL runs and that DRIVE_BOT_DATABASE_URL names its host and port; the bot keeps trying, and what it could not write waits in the platform until the database is back.',
				code,
			);
		}
		if (code === '28P01' || code === '28000') {
			return new DatabaseError(
				`PostgreSQL at ${where} refused the login (${text}).`,
				'Check the user and password in DRIVE_BOT_DATABASE_URL or PGPASSWORD.',
				code,
			);
		}
		if (code === '3D000') {
			return new DatabaseError(
				`The database named in ${where} does not exist.`,
				"Create it (createdb) for the bot's user, or name an existing one in DRIVE_BOT_DATABASE_URL.",
				code,
			);
		}
		if (code === '57014') {
			return new DatabaseError(
				`A statement on the bot's database took longer than ${POSTGRES_LIMITS.statementMs / 1000} s and was stopped.`,
				'Check the load and locks on PostgreSQL.',
				code,
			);
		}
		if (code === '57P01' || code === '57P02' || code === '57P03') {
			return new DatabaseError(
				`PostgreSQL at ${where} is shutting down or starting (${text}).`,
				'The bot tries again; nothing is lost.',
				code,
			);
		}
		return new DatabaseError(
			`The bot's database at ${where} answered an error: ${text}.`,
			'If it repeats, check the PostgreSQL server log.',
			code,
		);
	}
}
