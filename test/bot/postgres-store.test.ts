/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { BOT_SCHEMA } from '../../bot/app/schema';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseSettings } from '../../bot/state/database-url';
import { DatabaseError, numberPlaceholders, PostgresDatabase } from '../../bot/state/postgres';
import type { SqlDatabase } from '../../bot/state/sql';
import { FencedDatabase } from '../../bot/cluster/fence';
import { SqliteDatabase } from '../../bot/state/sqlite';
import { usePrivatePostgres } from '../helpers/postgres';

// The PostgreSQL store on a private PostgreSQL 15, and the behaviour both stores must share.
const pg = usePrivatePostgres();
const settingsOf = (url: string) => {
	const settings = databaseSettings({ DRIVE_BOT_DATABASE_URL: url });
	if (!settings) throw new Error('no settings');
	return settings;
};
const opened: SqlDatabase[] = [];
const openPg = async (): Promise<PostgresDatabase> => {
	const db = await PostgresDatabase.open(settingsOf(pg.server().url()), BOT_SCHEMA);
	opened.push(db);
	return db;
};
let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'drive-bot-stores-'));
});
afterAll(async () => {
	await Promise.all(opened.map((db) => db.close()));
	rmSync(dir, { recursive: true, force: true });
});

describe('placeholders', () => {
	it('numbers each ? outside quoted text and comments', () => {
		expect(
			numberPlaceholders('SELECT a FROM t WHERE b = ? AND c = \'?\' AND "d?" = ? LIMIT ?'),
		).toBe('SELECT a FROM t WHERE b = $1 AND c = \'?\' AND "d?" = $2 LIMIT $3');
		expect(numberPlaceholders("SELECT ?, 'it''s ?' -- why?\n, ? /* a ? here */ , ?")).toBe(
			"SELECT $1, 'it''s ?' -- why?\n, $2 /* a ? here */ , $3",
		);
	});
});

describe('migrations on PostgreSQL', () => {
	it('three replicas starting at once on an empty database apply each step exactly once', async () => {
		const replicas = await Promise.all([openPg(), openPg(), openPg()]);
		const rows = await replicas[0].all<{ version: number }>(
			'SELECT version FROM schema_version ORDER BY version',
		);
		expect(rows.map((r) => r.version)).toEqual(BOT_SCHEMA.migrations.map((m) => m.version));
		const tables = await replicas[1].get<{ n: number }>(
			"SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('events', 'outbox', 'acks', 'conn_assets', 'report_jobs', 'leader_lease')",
		);
		expect(tables?.n).toBe(6);
	});

	it('a replica older than the schema refuses to start, and says what to do', async () => {
		const db = await openPg();
		await db.run(
			'INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)',
			1000,
			'a later release',
			Date.now(),
		);
		try {
			await expect(
				PostgresDatabase.open(settingsOf(pg.server().url()), BOT_SCHEMA),
			).rejects.toThrow(/newer than this bot knows .*upgrade this one/);
		} finally {
			await db.run('DELETE FROM schema_version WHERE version = 1000');
		}
	});
});

describe.each([
	[
		'SQLite',
		async (): Promise<SqlDatabase> => {
			const db = await SqliteDatabase.open(join(dir, `state-${opened.length}.sqlite`), BOT_SCHEMA);
			opened.push(db);
			return db;
		},
	],
	['PostgreSQL', openPg],
])('the same behaviour on %s', (_name, open) => {
	let db: SqlDatabase;
	beforeAll(async () => {
		db = await open();
	});

	it('upserts, ignores duplicates, returns integers as numbers and ids from RETURNING', async () => {
		const key = `k-${Math.random()}`;
		await db.run(
			'INSERT INTO events (key, status, alert, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET status = excluded.status',
			key,
			'Open',
			'{}',
			1_760_000_000_123,
		);
		await db.run(
			'INSERT INTO events (key, status, alert, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET status = excluded.status',
			key,
			'Closed',
			'{}',
			1,
		);
		const row = await db.get<{ status: string; updated_at: number }>(
			'SELECT status, updated_at FROM events WHERE key = ?',
			key,
		);
		expect(row).toEqual({ status: 'Closed', updated_at: 1_760_000_000_123 });
		const ignored = await db.run(
			'INSERT INTO channel_ids (channel, channel_id) VALUES (?, ?) ON CONFLICT DO NOTHING',
			`#c${key}`,
			'C1',
		);
		const again = await db.run(
			'INSERT INTO channel_ids (channel, channel_id) VALUES (?, ?) ON CONFLICT DO NOTHING',
			`#c${key}`,
			'C2',
		);
		expect([ignored.changes, again.changes]).toEqual([1, 0]);
		const count = await db.get<{ n: number }>(
			'SELECT COUNT(*) AS n FROM channel_ids WHERE channel = ?',
			`#c${key}`,
		);
		expect(count?.n).toBe(1);
		const first = await db.get<{ id: number }>(
			'INSERT INTO outbox (channel, item) VALUES (?, ?) RETURNING id',
			'#x',
			'{}',
		);
		const second = await db.get<{ id: number }>(
			'INSERT INTO outbox (channel, item) VALUES (?, ?) RETURNING id',
			'#x',
			'{}',
		);
		expect(typeof first?.id).toBe('number');
		expect((second?.id ?? 0) - (first?.id ?? 0)).toBe(1);
	});

	it('a transaction that throws changes nothing', async () => {
		await expect(
			db.transaction(async (tx) => {
				await tx.run('INSERT INTO watermarks (name, value) VALUES (?, ?)', 'rolled-back', 'x');
				throw new Error('the work failed');
			}),
		).rejects.toThrow('the work failed');
		expect(
			await db.get('SELECT value FROM watermarks WHERE name = ?', 'rolled-back'),
		).toBeUndefined();
	});

	it('a fence that refuses stops the transaction before it changes anything', async () => {
		const fenced = new FencedDatabase(db);
		fenced.fenceWith(async () => {
			throw new Error('this replica no longer leads');
		});
		await expect(
			fenced.transaction((tx) =>
				tx.run('INSERT INTO watermarks (name, value) VALUES (?, ?)', 'fenced', 'x'),
			),
		).rejects.toThrow('no longer leads');
		expect(await db.get('SELECT value FROM watermarks WHERE name = ?', 'fenced')).toBeUndefined();
	});

	it('concurrent read-modify-write transactions lose no update', async () => {
		await db.run(
			"INSERT INTO watermarks (name, value) VALUES ('counter', '0') ON CONFLICT (name) DO UPDATE SET value = '0'",
		);
		const increment = () =>
			db.transaction(async (tx) => {
				const row = await tx.get<{ value: string }>(
					"SELECT value FROM watermarks WHERE name = 'counter'",
				);
				await tx.run(
					"UPDATE watermarks SET value = ? WHERE name = 'counter'",
					String(Number(row?.value) + 1),
				);
			});
		await Promise.all(Array.from({ length: 30 }, increment));
		expect(
			(await db.get<{ value: string }>("SELECT value FROM watermarks WHERE name = 'counter'"))
				?.value,
		).toBe('30');
	});
});

describe('two replicas on one PostgreSQL', () => {
	it('read-modify-write from two pools at the same moment ends consistent (serializable, retried)', async () => {
		const [a, b] = await Promise.all([openPg(), openPg()]);
		await a.run(
			"INSERT INTO watermarks (name, value) VALUES ('shared', '0') ON CONFLICT (name) DO UPDATE SET value = '0'",
		);
		const increment = (db: SqlDatabase) =>
			db.transaction(async (tx) => {
				const row = await tx.get<{ value: string }>(
					"SELECT value FROM watermarks WHERE name = 'shared'",
				);
				await tx.run(
					"UPDATE watermarks SET value = ? WHERE name = 'shared'",
					String(Number(row?.value) + 1),
				);
			});
		await Promise.all(Array.from({ length: 20 }, (_, i) => increment(i % 2 === 0 ? a : b)));
		expect(
			(await b.get<{ value: string }>("SELECT value FROM watermarks WHERE name = 'shared'"))?.value,
		).toBe('20');
	});
});

describe('faults of the database', () => {
	it('a wrong password and an unreachable server are explained, never with the password', async () => {
		const server = pg.server();
		const wrong = `postgres://${server.user}:not-the-S3cret-pw@127.0.0.1:${server.port}/${server.database}`;
		const refused = await PostgresDatabase.open(settingsOf(wrong), BOT_SCHEMA).catch(
			(error: unknown) => error,
		);
		expect(refused).toBeInstanceOf(DatabaseError);
		expect((refused as DatabaseError).message).toMatch(
			/refused the login.*Check the user and password in DRIVE_BOT_DATABASE_URL/,
		);
		expect((refused as DatabaseError).message).not.toContain('not-the-S3cret-pw');

		const closedPort = `postgres://${server.user}:${encodeURIComponent(server.password)}@127.0.0.1:1/${server.database}`;
		const unreachable = await PostgresDatabase.open(settingsOf(closedPort), BOT_SCHEMA).catch(
			(error: unknown) => error,
		);
		expect((unreachable as DatabaseError).message).toMatch(
			/cannot be reached.*Check that PostgreSQL runs/,
		);
		expect((unreachable as DatabaseError).message).not.toContain(server.password);
		expect((unreachable as DatabaseError).message).not.toContain(
			encodeURIComponent(server.password),
		);
	});

	it('PostgreSQL stopped and started again: calls fail with a clear error meanwhile, then work, and nothing crashes', async () => {
		const warnings: string[] = [];
		const db = await PostgresDatabase.open(settingsOf(pg.server().url()), BOT_SCHEMA, {
			warn: (m) => warnings.push(m),
		});
		opened.push(db);
		await db.run(
			"INSERT INTO watermarks (name, value) VALUES ('before', '1') ON CONFLICT (name) DO NOTHING",
		);
		pg.server().stopServer();
		try {
			const failed = await db
				.transaction((tx) => tx.run("INSERT INTO watermarks (name, value) VALUES ('during', '1')"))
				.catch((error: unknown) => error);
			expect(failed).toBeInstanceOf(DatabaseError);
			expect((failed as Error).message).toMatch(/cannot be reached|shutting down|terminat/i);
			expect((failed as Error).message).not.toContain(pg.server().password);
		} finally {
			pg.server().startServer();
		}
		await db.run(
			"INSERT INTO watermarks (name, value) VALUES ('after', '1') ON CONFLICT (name) DO NOTHING",
		);
		const names = (
			await db.all<{ name: string }>(
				"SELECT name FROM watermarks WHERE name IN ('before', 'during', 'after') ORDER BY name",
			)
		).map((r) => r.name);
		expect(names).toEqual(['after', 'before']);
		for (const warning of warnings) expect(warning).not.toContain(pg.server().password);
	});

	it('PostgreSQL stopped while statements run, in a transaction and outside one: each fails clearly, nothing crashes, the next calls reconnect', async () => {
		const warnings: string[] = [];
		const db = await PostgresDatabase.open(settingsOf(pg.server().url()), BOT_SCHEMA, {
			warn: (m) => warnings.push(m),
		});
		opened.push(db);
		await db.run(
			"INSERT INTO watermarks (name, value) VALUES ('in-flight', 'before') ON CONFLICT (name) DO NOTHING",
		);
		// Checked-out connections are the ones a lost server can crash a process through ('error' with no listener).
		const outside = db.get('SELECT pg_sleep(30)').catch((error: unknown) => error);
		const inside = db
			.transaction(async (tx) => {
				await tx.run("UPDATE watermarks SET value = 'during' WHERE name = 'in-flight'");
				return tx.get('SELECT pg_sleep(30)');
			})
			.catch((error: unknown) => error);
		await new Promise((resolve) => setTimeout(resolve, 300));
		pg.server().stopServer();
		try {
			for (const failed of [await outside, await inside]) {
				expect(failed).toBeInstanceOf(DatabaseError);
				expect((failed as Error).message).not.toContain(pg.server().password);
			}
		} finally {
			pg.server().startServer();
		}
		expect(await db.get("SELECT value FROM watermarks WHERE name = 'in-flight'")).toEqual({
			value: 'before',
		});
		await expect(
			db.transaction((tx) =>
				tx.run("UPDATE watermarks SET value = 'after' WHERE name = 'in-flight'"),
			),
		).resolves.toEqual({ changes: 1 });
		for (const warning of warnings) expect(warning).not.toContain(pg.server().password);
	});

	it('a DRIVE_BOT_DATABASE_URL that is not a PostgreSQL URL is refused without repeating it', () => {
		const value = `mysql://drive_bot:${pg.server().password}@127.0.0.1/db`;
		const refusal = (() => {
			try {
				databaseSettings({ DRIVE_BOT_DATABASE_URL: value });
				return undefined;
			} catch (error) {
				return error as Error;
			}
		})();
		expect(refusal?.message).toMatch(/not a PostgreSQL URL/);
		expect(refusal?.message).not.toContain(pg.server().password);
	});
});
