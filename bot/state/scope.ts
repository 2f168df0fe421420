import type { SqlDatabase, SqlExecutor } from './sql';

/**
 * Where a store's statements run: on the database, or inside one transaction on it. Each piece of the bot's state
 * has a store of its own over a scope (bot/features/<feature>/store.ts), which alone writes SQL against its tables.
 */
export class SqlScope {
	private constructor(
		private readonly db: SqlDatabase,
		/** The database, or the transaction this scope is bound to. */
		readonly sql: SqlExecutor,
	) {}

	/** The scope of the database itself: statements outside transactions run on it. */
	static of(db: SqlDatabase): SqlScope {
		return new SqlScope(db, db);
	}

	get database(): SqlDatabase {
		return this.db;
	}

	/**
	 * Runs `work` in one transaction with a scope bound to it (use only stores over that scope inside). Inside a
	 * transaction already, `work` joins it. `work` may run again (a serialization failure on PostgreSQL): database
	 * calls only, no Slack call, no platform request.
	 */
	transaction<T>(work: (tx: SqlScope) => Promise<T>): Promise<T> {
		if (this.sql !== this.db) return work(this);
		return this.db.transaction((tx) => work(new SqlScope(this.db, tx)));
	}
}
