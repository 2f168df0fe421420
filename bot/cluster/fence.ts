import type { SqlDatabase, SqlExecutor, SqlRunResult, SqlValue } from '../state/sql';

/** A change refused because another replica has led since this one's epoch: the caller must stop acting. */
export class FencedOut extends Error {
	constructor(
		readonly mine: number,
		readonly current: number,
	) {
		super(
			`This replica's leadership (epoch ${mine}) ended; epoch ${current} leads now. The change was not made.`,
		);
		this.name = 'FencedOut';
	}
}

/** A check run inside a transaction before its work: it throws (FencedOut) when the change must not commit. */
export type FenceCheck = (tx: SqlExecutor) => Promise<void>;

/**
 * The database as the stores of a replica on PostgreSQL use it: while this replica leads, every transaction first
 * checks, inside itself, that the replica's epoch still leads (Leadership.fence), so no change of an old leader
 * commits after another replica took over. Without a fence (a standby, or a single process on SQLite) transactions
 * run as they are. Statements outside transactions are never fenced. The database itself knows nothing of this.
 */
export class FencedDatabase implements SqlDatabase {
	private check: FenceCheck | undefined;

	constructor(private readonly inner: SqlDatabase) {}

	get dialect(): SqlDatabase['dialect'] {
		return this.inner.dialect;
	}

	/** From now on every transaction commits only once `check` passed inside it. */
	fenceWith(check: FenceCheck): void {
		this.check = check;
	}

	removeFence(): void {
		this.check = undefined;
	}

	get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
		return this.inner.get<T>(sql, ...params);
	}

	all<T>(sql: string, ...params: SqlValue[]): Promise<T[]> {
		return this.inner.all<T>(sql, ...params);
	}

	run(sql: string, ...params: SqlValue[]): Promise<SqlRunResult> {
		return this.inner.run(sql, ...params);
	}

	/** Checked on every run of the work: a transaction that runs again (a serialization failure) is checked again. */
	transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
		return this.inner.transaction(async (tx) => {
			const check = this.check;
			if (check) await check(tx);
			return work(tx);
		});
	}

	close(): Promise<void> {
		return this.inner.close();
	}
}
