/**
 * The bot's database, whichever it is: node:sqlite in one process (the embedded default) or PostgreSQL
 * shared by replicas. Each store of the bot (bot/features/<feature>/store.ts, bot/cluster) reaches its tables
 * through this interface and writes SQL in the portable subset below, so one statement serves both stores.
 *
 * Portable SQL (what both SQLite 3.45 and PostgreSQL 15 accept with the same meaning):
 * - `?` placeholders (the PostgreSQL store numbers them); values are strings, numbers or null;
 * - upserts as `INSERT … ON CONFLICT (key columns) DO UPDATE SET c = excluded.c` or `ON CONFLICT DO NOTHING`
 *   (never `INSERT OR REPLACE` / `INSERT OR IGNORE`);
 * - no `rowid`: order by a column of the table; booleans are INTEGER 0/1; times are INTEGER milliseconds or
 *   ISO 8601 TEXT;
 * - integers come back as JavaScript numbers in both stores (COUNT(*) included);
 * - DDL only in the versioned migrations, each beside its store (a feature's migrations.ts), never in a store.
 */
export type SqlValue = string | number | null;

export interface SqlRunResult {
	/** Rows inserted, updated or deleted. */
	changes: number;
}

/** Statements on one connection: the database itself, or the transaction a `transaction` callback gets. */
export interface SqlExecutor {
	get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined>;
	all<T>(sql: string, ...params: SqlValue[]): Promise<T[]>;
	run(sql: string, ...params: SqlValue[]): Promise<SqlRunResult>;
}

export interface SqlDatabase extends SqlExecutor {
	readonly dialect: 'sqlite' | 'postgres';
	/**
	 * Runs `work` in one transaction: all of it commits or none. Use only `tx` inside (the database itself
	 * would wait for this transaction to end). `work` may run more than once (PostgreSQL retries a
	 * serialization failure), so it makes database calls only: no Slack call, no platform request.
	 */
	transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
	close(): Promise<void>;
}
