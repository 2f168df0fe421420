/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool, types as pgTypes, type ClientConfig, type PoolClient, type QueryResult } from 'pg';
import { withoutPassword, type DatabaseSettings } from './database-url';
import { migrate } from './schema';
import type { SqlDatabase, SqlExecutor, SqlRunResult, SqlValue } from './sql';

type Fence = (tx: SqlExecutor) => Promise<void>;

export interface PostgresLogger {
  warn(message: string): void;
}

export interface PostgresOptions {
  logger?: PostgresLogger;
  /** Connections per replica (default 10). */
  maxConnections?: number;
  /** Longest a statement may run before PostgreSQL cancels it (default 30 s). */
  statementTimeoutMs?: number;
  /** Longest to wait for a connection, new or from the pool (default 10 s). */
  connectionTimeoutMs?: number;
  /** Attempts of a transaction that meets a serialization failure or deadlock (default 8). */
  transactionAttempts?: number;
}

/** The limits every call has, stated once (docs/high-availability.md repeats them). */
export const POSTGRES_DEFAULTS = {
  maxConnections: 10,
  statementTimeoutMs: 30_000,
  connectionTimeoutMs: 10_000,
  transactionAttempts: 8,
  /** A transaction left open by a stuck replica is ended by the server after this long. */
  idleInTransactionTimeoutMs: 60_000,
} as const;

/**
 * The database is out of reach (refused, timed out, restarted, shut down): the call did nothing the caller can
 * rely on, and a later call reconnects. The message names the place without its password.
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
  constructor(
    readonly display: string,
    readonly reason: string,
    hint = 'check that PostgreSQL runs and accepts connections from this host',
  ) {
    super(`The bot's PostgreSQL database (${display}) is unreachable: ${reason}. The bot retries on its next step; ${hint}.`);
  }
}

/** PostgreSQL refused or failed a statement (a constraint, a syntax error, a permission). */
export class DatabaseQueryError extends Error {
  override readonly name = 'DatabaseQueryError';
  constructor(
    message: string,
    /** The SQLSTATE, e.g. 23505 for a unique violation. */
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** SQLSTATE classes and codes after which the connection, not the statement, is at fault. */
const UNAVAILABLE_CODES = /^(08|57P0[1-4]|53300|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|EAI_AGAIN)/;
const RETRYABLE_CODES = new Set(['40001', '40P01']);

/** int8 (COUNT, BIGINT columns) and numeric (SUM of bigints) as JavaScript numbers, as the SQLite store returns them. */
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const numberTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID || oid === NUMERIC_OID
      ? (value: string) => Number(value)
      : pgTypes.getTypeParser(oid, format ?? 'text')) as typeof pgTypes.getTypeParser,
};

/**
 * `?` placeholders as PostgreSQL's `$1, $2, …`. A `?` inside a string literal, a quoted identifier or a comment
 * stays as it is.
 */
export function numberPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = closing(sql, i, c);
      out += sql.slice(i, end);
      i = end - 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === '?') {
      out += `$${++n}`;
    } else {
      out += c;
    }
  }
  return out;
}

/** The index after the quote that closes the one at `start` (a doubled quote is part of the text). */
function closing(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return sql.length;
}

/** Which transaction the running code belongs to, so a call that bypasses its `tx` is refused (it could wait on its own locks). */
const insideTransaction = new AsyncLocalStorage<PostgresDatabase>();

/** Any fixed number: every replica asks for the same lock, so one migrates while the others wait. */
const MIGRATION_LOCK = 0x44524956; // "DRIV"

/**
 * The bot's database shared by replicas (issue 26), on a node-postgres pool. Transactions are SERIALIZABLE: two
 * replicas changing the same rows end as if one ran after the other, and the loser of a conflict runs its `work`
 * again (bounded), which the interface allows.
 */
export class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  private fence: Fence | undefined;
  private closed = false;

  private constructor(
    private readonly pool: Pool,
    private readonly settings: DatabaseSettings,
    private readonly options: Required<Omit<PostgresOptions, 'logger'>> & PostgresOptions,
  ) {
    // An idle connection dropped by the server (a restart, a network cut) is reported here; without a listener
    // the process would crash. The pool discards that connection and the next call opens a new one.
    pool.on('error', (error) => this.options.logger?.warn(`PostgreSQL connection lost: ${this.describe(error)}. The next call reconnects.`));
  }

  /** Connects, and brings the schema to the latest version under an advisory lock (replicas may start at once). */
  static async open(settings: DatabaseSettings, options: PostgresOptions = {}): Promise<PostgresDatabase> {
    const resolved = { ...POSTGRES_DEFAULTS, ...options };
    const config: ClientConfig = {
      ...settings.connection,
      connectionTimeoutMillis: resolved.connectionTimeoutMs,
      statement_timeout: resolved.statementTimeoutMs,
      // The client's own limit, a little after the server's, for a server that no longer answers at all.
      query_timeout: resolved.statementTimeoutMs + 5_000,
      idle_in_transaction_session_timeout: POSTGRES_DEFAULTS.idleInTransactionTimeoutMs,
      keepAlive: true,
      types: numberTypes,
    };
    const pool = new Pool({ ...config, max: resolved.maxConnections, idleTimeoutMillis: 30_000 });
    const database = new PostgresDatabase(pool, settings, resolved);
    try {
      await database.withClient(async (client) => {
        await database.inTransaction(client, 'BEGIN', async (tx) => {
          await tx.get('SELECT pg_advisory_xact_lock(?)', MIGRATION_LOCK);
          await migrate(tx, 'postgres');
        }, false);
      });
      return database;
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
  }

  async get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    return (await this.query<T>(sql, params)).rows[0];
  }

  async all<T>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    return (await this.query<T>(sql, params)).rows;
  }

  async run(sql: string, ...params: SqlValue[]): Promise<SqlRunResult> {
    return { changes: (await this.query(sql, params)).rowCount ?? 0 };
  }

  setFence(check: Fence | undefined): void {
    this.fence = check;
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    this.refuseNesting();
    return this.withClient(async (client) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await insideTransaction.run(this, () => this.inTransaction(client, 'BEGIN ISOLATION LEVEL SERIALIZABLE', work, true));
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (!code || !RETRYABLE_CODES.has(code) || attempt >= this.options.transactionAttempts) throw error;
          // Jittered back-off so two replicas that collided do not collide again at once.
          await sleep(Math.random() * 10 * attempt);
        }
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  private async query<T>(sql: string, params: SqlValue[]): Promise<QueryResult<T & Record<string, unknown>>> {
    this.refuseNesting();
    try {
      return await this.pool.query<T & Record<string, unknown>>(numberPlaceholders(sql), params);
    } catch (error) {
      throw this.translate(error);
    }
  }

  private async withClient<T>(use: (client: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.translate(error);
    }
    let broken: Error | undefined;
    // While checked out, a connection the server drops emits 'error' here (its running query fails too):
    // unheard, it would crash the process.
    const onError = (error: Error): void => {
      broken = this.translate(error);
      this.options.logger?.warn(`PostgreSQL connection lost: ${this.describe(error)}. The next call reconnects.`);
    };
    client.on('error', onError);
    try {
      return await use(client);
    } catch (error) {
      if (error instanceof DatabaseUnavailableError) broken = error;
      throw error;
    } finally {
      client.off('error', onError);
      // A connection that failed is not given to the next caller.
      client.release(broken);
    }
  }

  private async inTransaction<T>(client: PoolClient, begin: string, work: (tx: SqlExecutor) => Promise<T>, fenced: boolean): Promise<T> {
    const tx = this.executor(client);
    await this.onClient(client, begin);
    try {
      if (fenced && this.fence) await this.fence(tx);
      const result = await work(tx);
      await this.onClient(client, 'COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  private executor(client: PoolClient): SqlExecutor {
    return {
      get: async <T>(sql: string, ...params: SqlValue[]) => (await this.onClient<T>(client, sql, params)).rows[0],
      all: async <T>(sql: string, ...params: SqlValue[]) => (await this.onClient<T>(client, sql, params)).rows,
      run: async (sql: string, ...params: SqlValue[]) => ({ changes: (await this.onClient(client, sql, params)).rowCount ?? 0 }),
    };
  }

  private async onClient<T>(client: PoolClient, sql: string, params: SqlValue[] = []): Promise<QueryResult<T & Record<string, unknown>>> {
    try {
      return await client.query<T & Record<string, unknown>>(numberPlaceholders(sql), params);
    } catch (error) {
      throw this.translate(error);
    }
  }

  /** Every error that leaves the store is typed and carries no password. */
  private translate(error: unknown): Error {
    if (error instanceof DatabaseUnavailableError || error instanceof DatabaseQueryError) return error;
    const code = (error as { code?: string }).code;
    const text = this.describe(error);
    if (code ? UNAVAILABLE_CODES.test(code) : /terminat|timeout|connect|closed|ended|not queryable/i.test(text)) {
      return new DatabaseUnavailableError(this.settings.display, text);
    }
    // A refused login (28xxx) or a missing database (3D000) is not a connection class either, but the bot cannot
    // reach its data all the same.
    if (code && /^28/.test(code)) {
      return new DatabaseUnavailableError(this.settings.display, text, 'check the user and password (in DRIVE_BOT_DATABASE_URL or PGUSER/PGPASSWORD)');
    }
    if (code === '3D000') return new DatabaseUnavailableError(this.settings.display, text, 'create the database, or fix its name in DRIVE_BOT_DATABASE_URL or PGDATABASE');
    return new DatabaseQueryError(`PostgreSQL refused a statement of the bot: ${text}`, code);
  }

  private describe(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: string }).code;
    return withoutPassword(code && !message.includes(code) ? `${message} (${code})` : message, this.settings);
  }

  private refuseNesting(): void {
    if (insideTransaction.getStore() === this) {
      throw new Error('Internal error: a database call inside a transaction must use the transaction it was given (tx), not the database.');
    }
  }
}

/** The PostgreSQL store for these settings (see bot/state/database-url.ts), migrated and ready. */
export function openPostgres(settings: DatabaseSettings, options: PostgresOptions = {}): Promise<PostgresDatabase> {
  return PostgresDatabase.open(settings, options);
}
