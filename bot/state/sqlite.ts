/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { AsyncLocalStorage } from 'node:async_hooks';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import {
	type Migration,
	type Schema,
	VERSION_TABLE_DDL,
	migrate,
	recordMigration,
	renderDdl,
} from './schema';
import type { SqlDatabase, SqlExecutor, SqlRunResult, SqlValue } from './sql';

/** Statements run at once on the connection: the transaction's executor, and the database's when none runs. */
class Connection implements SqlExecutor {
	// One prepared statement per SQL text, reused: a statement prepared per call holds native memory until a
	// garbage collection notices it, which lifts RSS by tens of MiB under polling.
	private readonly prepared = new Map<string, StatementSync>();

	constructor(readonly db: DatabaseSync) {}

	statement(sql: string): StatementSync {
		let statement = this.prepared.get(sql);
		if (!statement) this.prepared.set(sql, (statement = this.db.prepare(sql)));
		return statement;
	}

	async get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
		return this.statement(sql).get(...params) as T | undefined;
	}

	async all<T>(sql: string, ...params: SqlValue[]): Promise<T[]> {
		return this.statement(sql).all(...params) as T[];
	}

	async run(sql: string, ...params: SqlValue[]): Promise<SqlRunResult> {
		return { changes: Number(this.statement(sql).run(...params).changes) };
	}
}

/** Which transaction the running code belongs to, so a statement that bypasses its `tx` fails instead of waiting forever. */
const insideTransaction = new AsyncLocalStorage<Promise<void>>();

/**
 * The bot's database in one process (node:sqlite, the embedded default). node:sqlite is synchronous and has
 * one connection, so transactions are serialised by an async lock: while one runs (it may await between its
 * statements), other transactions and statements outside it wait for it to end.
 */
export class SqliteDatabase implements SqlDatabase {
	readonly dialect = 'sqlite' as const;
	private readonly connection: Connection;
	/** The end of the last transaction queued. */
	private queue: Promise<void> = Promise.resolve();
	/** Settles when the running transaction ends; undefined when none runs. */
	private running: Promise<void> | undefined;

	private constructor(file: string) {
		const db = new DatabaseSync(file);
		// WAL: readers never block the writer; NORMAL: a commit survives a crash of the process (only power loss
		// can undo the last commits); busy_timeout: another process holding the file (migrate, an operator's
		// sqlite3) delays a statement instead of failing it.
		db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
		this.connection = new Connection(db);
	}

	/** Opens (or creates) the state file and brings its schema to the latest version. */
	static async open(file: string, schema: Schema): Promise<SqliteDatabase> {
		const database = new SqliteDatabase(file);
		let migrated = false;
		try {
			await database.transaction(async (tx) => {
				if (await isUnversioned(tx)) await adoptUnversioned(tx, schema.migrations);
				await migrate(tx, 'sqlite', schema.migrations);
			});
			migrated = true;
			return database;
		} finally {
			if (!migrated) await database.close();
		}
	}

	get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
		return this.running
			? this.afterTransaction(() => this.connection.get<T>(sql, ...params))
			: this.connection.get<T>(sql, ...params);
	}

	all<T>(sql: string, ...params: SqlValue[]): Promise<T[]> {
		return this.running
			? this.afterTransaction(() => this.connection.all<T>(sql, ...params))
			: this.connection.all<T>(sql, ...params);
	}

	run(sql: string, ...params: SqlValue[]): Promise<SqlRunResult> {
		return this.running
			? this.afterTransaction(() => this.connection.run(sql, ...params))
			: this.connection.run(sql, ...params);
	}

	async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
		this.refuseNesting();
		const previous = this.queue;
		let end!: () => void;
		const ended = new Promise<void>((resolve) => (end = resolve));
		this.queue = previous.then(() => ended);
		await previous;
		this.running = ended;
		try {
			return await insideTransaction.run(ended, () => this.inTransaction(work));
		} finally {
			this.running = undefined;
			end();
		}
	}

	async close(): Promise<void> {
		await this.queue;
		if (this.connection.db.isOpen) this.connection.db.close();
	}

	private async inTransaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
		const db = this.connection.db;
		db.exec('BEGIN IMMEDIATE');
		try {
			const result = await work(this.connection);
			db.exec('COMMIT');
			return result;
		} finally {
			// Still open: the work or the commit failed.
			if (db.isTransaction) db.exec('ROLLBACK');
		}
	}

	private async afterTransaction<T>(statement: () => Promise<T>): Promise<T> {
		this.refuseNesting();
		while (this.running) await this.running;
		return statement();
	}

	/** A statement or transaction on the database from inside a transaction would wait for itself. */
	private refuseNesting(): void {
		if (this.running && insideTransaction.getStore() === this.running) {
			throw new Error(
				'Internal error: a database call inside a transaction must use the transaction it was given (tx), not the database.',
			);
		}
	}
}

/**
 * The last step a SQLite file of the release before versioning is brought to: steps 1 to 4 are the tables that
 * release made with CREATE TABLE IF NOT EXISTS, in their current shape (an id column where it ordered by rowid).
 */
export const UNVERSIONED_SQLITE_VERSION = 4;

/** A file the release before versioning wrote: its tables, and no schema_version. */
async function isUnversioned(tx: SqlExecutor): Promise<boolean> {
	const tables = new Set(
		(await tx.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")).map(
			(t) => t.name,
		),
	);
	return !tables.has('schema_version') && (tables.has('events') || tables.has('outbox'));
}

async function columnsOf(tx: SqlExecutor, table: string): Promise<Set<string>> {
	return new Set(
		(await tx.all<{ name: string }>(`PRAGMA table_info(${table})`)).map((c) => c.name),
	);
}

/** Tables the release ordered by rowid: rebuilt with the `id` column that now keeps that order. */
const ORDERED_BY_ROWID: ReadonlyArray<[table: string, columns: string]> = [
	['event_messages', 'event_key, channel, channel_id, ts, via'],
	['cbm_first_round', 'key'],
];

/**
 * Brings a state file of the release before versioning to the shape of step UNVERSIONED_SQLITE_VERSION, keeping
 * every row, and records steps 1 to it: tables that release made lazily and this file lacks are created, the
 * outbox columns it added later are added, and the tables it ordered by rowid are copied, in that order, into
 * their new shape.
 */
async function adoptUnversioned(tx: SqlExecutor, migrations: readonly Migration[]): Promise<void> {
	const steps = migrations.filter((m) => m.version <= UNVERSIONED_SQLITE_VERSION);
	const rebuilt: Array<[table: string, columns: string]> = [];
	for (const [table, columns] of ORDERED_BY_ROWID) {
		const existing = await columnsOf(tx, table);
		if (existing.size === 0 || existing.has('id')) continue;
		await tx.run(`ALTER TABLE ${table} RENAME TO ${table}_unversioned`);
		rebuilt.push([table, columns]);
	}
	for (const step of steps) {
		for (const statement of step.ddl)
			await tx.run(
				renderDdl(statement, 'sqlite').replace(
					/^CREATE (TABLE|INDEX) /,
					'CREATE $1 IF NOT EXISTS ',
				),
			);
	}
	for (const [table, columns] of rebuilt) {
		await tx.run(
			`INSERT INTO ${table} (${columns}) SELECT ${columns} FROM ${table}_unversioned ORDER BY rowid`,
		);
		await tx.run(`DROP TABLE ${table}_unversioned`);
	}
	const outbox = await columnsOf(tx, 'outbox');
	if (!outbox.has('progress'))
		await tx.run("ALTER TABLE outbox ADD COLUMN progress TEXT NOT NULL DEFAULT '{}'");
	if (!outbox.has('intent')) await tx.run('ALTER TABLE outbox ADD COLUMN intent TEXT');
	await tx.run(VERSION_TABLE_DDL);
	for (const step of steps) await recordMigration(tx, step);
}
