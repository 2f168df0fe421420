/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { ClientBase } from 'pg';
import { migrate } from '../../bot/state/schema';
import type { SqlExecutor, SqlValue } from '../../bot/state/sql';

/** The portable SQL of bot/state/sql.ts on one pg connection (`?` numbered as PostgreSQL wants), for tests that need no store. */
export function pgExecutor(client: ClientBase): SqlExecutor {
	const numbered = (sql: string): string => {
		let n = 0;
		return sql.replace(/\?/g, () => `$${++n}`);
	};
	const query = async (sql: string, params: SqlValue[]) => client.query(numbered(sql), params);
	return {
		get: async <T>(sql: string, ...params: SqlValue[]) => (await query(sql, params)).rows[0] as T | undefined,
		all: async <T>(sql: string, ...params: SqlValue[]) => (await query(sql, params)).rows as T[],
		run: async (sql: string, ...params: SqlValue[]) => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
	};
}

/** Brings a test database to the bot's latest schema (bot/state/schema.ts), in one transaction. */
export async function migrateForTest(client: ClientBase): Promise<number> {
	await client.query('BEGIN');
	try {
		const version = await migrate(pgExecutor(client), 'postgres');
		await client.query('COMMIT');
		return version;
	} catch (error) {
		await client.query('ROLLBACK');
		throw error;
	}
}

/** One transaction, checked by `fence` first (what SqlDatabase.setFence does in the stores). */
export async function fencedTransaction<T>(client: ClientBase, fence: (tx: SqlExecutor) => Promise<void>, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
	await client.query('BEGIN');
	try {
		const tx = pgExecutor(client);
		await fence(tx);
		const result = await work(tx);
		await client.query('COMMIT');
		return result;
	} catch (error) {
		await client.query('ROLLBACK').catch(() => undefined);
		throw error;
	}
}
