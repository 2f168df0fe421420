/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code for the Slack bot, not code n8n loads */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseSettings, type DatabaseSettings } from '../../bot/state/database-url';
import { DatabaseQueryError, DatabaseUnavailableError, numberPlaceholders, openPostgres, type PostgresDatabase } from '../../bot/state/postgres';
import { LATEST_VERSION, MIGRATIONS } from '../../bot/state/schema';
import type { SqlDatabase } from '../../bot/state/sql';
import { databaseLocation, openDatabase } from '../../bot/state/open';
import { SqliteDatabase } from '../../bot/state/sqlite';
import { usePrivatePostgres } from '../helpers/postgres';

const { server } = usePrivatePostgres();
const settings = (env: Record<string, string> = {}): DatabaseSettings => databaseSettings({ DRIVE_BOT_DATABASE_URL: server().url(), ...env })!;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'drive-bot-stores-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const opened: SqlDatabase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});
const keep = <T extends SqlDatabase>(db: T): T => (opened.push(db), db);

let fileCount = 0;
const stores: Array<[name: string, open: () => Promise<SqlDatabase>]> = [
  ['SQLite', async () => keep(await SqliteDatabase.open(join(dir, `state-${++fileCount}.sqlite`)))],
  ['PostgreSQL', async () => keep(await openPostgres(settings()))],
];

describe('PostgreSQL store: opening', () => {
  // First in the file: the private database is still empty.
  it('replicas opening an empty database at the same instant apply each migration once', async () => {
    const replicas = await Promise.all([1, 2, 3].map(async () => keep(await openPostgres(settings()))));
    const rows = await replicas[0].all<{ version: number }>('SELECT version FROM schema_version ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(rows.at(-1)?.version).toBe(LATEST_VERSION);
  });

  it('DRIVE_BOT_DATABASE_URL selects PostgreSQL and no SQLite file is written; without it, the SQLite file', async () => {
    const stateFile = join(dir, 'never.sqlite');
    const env = { DRIVE_BOT_DATABASE_URL: server().url() };
    const shared = keep(await openDatabase({ stateFile }, { env }));
    expect(shared.dialect).toBe('postgres');
    expect(existsSync(stateFile)).toBe(false);
    expect(databaseLocation({ stateFile }, env)).toBe(`postgres://drive_bot:***@127.0.0.1:${server().port}/drive_bot`);
    const local = keep(await openDatabase({ stateFile }, { env: {} }));
    expect(local.dialect).toBe('sqlite');
    expect(existsSync(stateFile)).toBe(true);
    expect(databaseLocation({ stateFile }, {})).toBe(stateFile);
  });

  it('numbers `?` outside string literals, quoted names and comments', () => {
    expect(numberPlaceholders("SELECT ? AS a, '?' AS \"b?\", 'it''s ?' -- why?\n, ?")).toBe("SELECT $1 AS a, '?' AS \"b?\", 'it''s ?' -- why?\n, $2");
  });

  it('a bad password, a refused connection and a bad URL fail clearly, without the password', async () => {
    const logged: string[] = [];
    const wrong = 'wr0ng/secret-' + Date.now();
    const badPassword = databaseSettings({ DRIVE_BOT_DATABASE_URL: `postgres://drive_bot:${encodeURIComponent(wrong)}@127.0.0.1:${server().port}/drive_bot` })!;
    const failure = (await openPostgres(badPassword, { logger: { warn: (m) => logged.push(m) } }).catch((e: unknown) => e)) as Error;
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    expect(failure.message).toMatch(/postgres:\/\/drive_bot:\*\*\*@127\.0\.0\.1.*password authentication failed.*check the user and password/s);

    const refused = databaseSettings({ DRIVE_BOT_DATABASE_URL: `postgres://drive_bot:${encodeURIComponent(wrong)}@127.0.0.1:1/drive_bot` })!;
    const refusal = (await openPostgres(refused).catch((e: unknown) => e)) as Error;
    expect(refusal).toBeInstanceOf(DatabaseUnavailableError);
    expect(refusal.message).toMatch(/unreachable: .*ECONNREFUSED/);

    let badUrl: Error | undefined;
    try {
      databaseSettings({ DRIVE_BOT_DATABASE_URL: `mysql://drive_bot:${wrong}@host/db` });
    } catch (error) {
      badUrl = error as Error;
    }
    expect(badUrl?.message).toMatch(/not a PostgreSQL URL/);
    for (const text of [failure.message, failure.stack, refusal.message, badUrl?.message, ...logged]) {
      expect(text).not.toContain(wrong);
      expect(text).not.toContain(encodeURIComponent(wrong));
    }
  });

  it('a statement PostgreSQL refuses is a typed error with its SQLSTATE', async () => {
    const db = keep(await openPostgres(settings()));
    const error = (await db.run('INSERT INTO no_such_table (x) VALUES (?)', 1).catch((e: unknown) => e)) as DatabaseQueryError;
    expect(error).toBeInstanceOf(DatabaseQueryError);
    expect(error.code).toBe('42P01');
  });
});

describe.each(stores)('%s store: the portable SQL subset', (_name, open) => {
  it('binds `?` placeholders, returns integers and COUNT as numbers, counts changes', async () => {
    const db = await open();
    const key = `k-${Date.now()}-?`;
    const inserted = await db.run("INSERT INTO events (key, status, alert, updated_at) VALUES (?, 'open', '{\"q\":\"?\"}', ?)", key, 1_700_000_000_123);
    expect(inserted.changes).toBe(1);
    expect(await db.get('SELECT key, alert, updated_at FROM events WHERE key = ?', key)).toEqual({ key, alert: '{"q":"?"}', updated_at: 1_700_000_000_123 });
    const count = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM events WHERE key = ?', key);
    expect(count?.n).toBe(1);
    expect(await db.get('SELECT key FROM events WHERE key = ?', 'missing')).toBeUndefined();
    const id = await db.get<{ id: number }>("INSERT INTO outbox (channel, item) VALUES (?, '{}') RETURNING id", '#x');
    expect(typeof id?.id).toBe('number');
  });

  it('upserts with ON CONFLICT DO UPDATE and skips with ON CONFLICT DO NOTHING', async () => {
    const db = await open();
    const upsert = 'INSERT INTO watermarks (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value';
    await db.run(upsert, 'upsert', 'a');
    await db.run(upsert, 'upsert', 'b');
    expect(await db.all('SELECT name, value FROM watermarks WHERE name = ?', 'upsert')).toEqual([{ name: 'upsert', value: 'b' }]);
    const skip = 'INSERT INTO channel_ids (channel, channel_id) VALUES (?, ?) ON CONFLICT DO NOTHING';
    expect((await db.run(skip, '#skip', 'C1')).changes).toBe(1);
    expect((await db.run(skip, '#skip', 'C2')).changes).toBe(0);
    expect(await db.get('SELECT channel_id FROM channel_ids WHERE channel = ?', '#skip')).toEqual({ channel_id: 'C1' });
  });

  it('a transaction that throws changes nothing; one that returns commits all', async () => {
    const db = await open();
    await expect(
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO watermarks (name, value) VALUES (?, ?)', 'rolled-back', '1');
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(await db.get('SELECT value FROM watermarks WHERE name = ?', 'rolled-back')).toBeUndefined();
    await expect(
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO watermarks (name, value) VALUES (?, ?)', 'committed-1', '1');
        await tx.run('INSERT INTO watermarks (name, value) VALUES (?, ?)', 'committed-2', '2');
        return 'done';
      }),
    ).resolves.toBe('done');
    expect(await db.all("SELECT value FROM watermarks WHERE name LIKE 'committed-%' ORDER BY name")).toEqual([{ value: '1' }, { value: '2' }]);
    await expect(db.transaction(() => db.get('SELECT 1 AS one'))).rejects.toThrow(/must use the transaction it was given/);
  });

  it('the fence runs first in each transaction, and its refusal changes nothing', async () => {
    const db = await open();
    const epoch = `fence-${Date.now()}`;
    await db.run('INSERT INTO watermarks (name, value) VALUES (?, ?)', epoch, '1');
    db.setFence(async (tx) => {
      const row = await tx.get<{ value: string }>('SELECT value FROM watermarks WHERE name = ?', epoch);
      if (row?.value !== '1') throw new Error('fenced out: another replica leads');
    });
    await db.transaction((tx) => tx.run('INSERT INTO watermarks (name, value) VALUES (?, ?)', `${epoch}-a`, 'x'));
    await db.run('UPDATE watermarks SET value = ? WHERE name = ?', '2', epoch);
    await expect(db.transaction((tx) => tx.run('INSERT INTO watermarks (name, value) VALUES (?, ?)', `${epoch}-b`, 'x'))).rejects.toThrow('fenced out');
    db.setFence(undefined);
    expect(await db.all('SELECT name FROM watermarks WHERE name LIKE ? ORDER BY name', `${epoch}-%`)).toEqual([{ name: `${epoch}-a` }]);
  });
});

describe('PostgreSQL store: replicas and faults', () => {
  it('read-modify-write transactions from two replicas on the same row lose no update', async () => {
    const [a, b] = [keep(await openPostgres(settings())), keep(await openPostgres(settings()))];
    await a.run("INSERT INTO watermarks (name, value) VALUES ('counter', '0')");
    let runs = 0;
    const increment = (db: PostgresDatabase) =>
      db.transaction(async (tx) => {
        runs++;
        const row = await tx.get<{ value: string }>("SELECT value FROM watermarks WHERE name = 'counter'");
        await new Promise((resolve) => setTimeout(resolve, 5));
        await tx.run("UPDATE watermarks SET value = ? WHERE name = 'counter'", String(Number(row?.value) + 1));
      });
    await Promise.all(Array.from({ length: 10 }, (_, i) => increment(i % 2 ? a : b)));
    expect(await b.get("SELECT value FROM watermarks WHERE name = 'counter'")).toEqual({ value: '10' });
    // At least one collision was retried: the guarantee came from SERIALIZABLE, not from luck.
    expect(runs).toBeGreaterThan(10);
  });

  it('PostgreSQL restarted mid-run: calls fail with a typed error, nothing crashes, the next calls reconnect', async () => {
    const warnings: string[] = [];
    const db = keep(await openPostgres(settings(), { logger: { warn: (m) => warnings.push(m) }, connectionTimeoutMs: 2_000 }));
    await db.run("INSERT INTO watermarks (name, value) VALUES ('restart', 'before') ON CONFLICT (name) DO NOTHING");
    const pg = server();
    // One statement is running when the server goes away, in a transaction and outside one.
    const running = db.get('SELECT pg_sleep(30)').catch((e: unknown) => e);
    const runningTx = db.transaction((tx) => tx.get('SELECT pg_sleep(30)')).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 300));
    pg.halt();
    try {
      expect(await running).toBeInstanceOf(DatabaseUnavailableError);
      expect(await runningTx).toBeInstanceOf(DatabaseUnavailableError);
      const failure = (await db.get('SELECT value FROM watermarks WHERE name = ?', 'restart').catch((e: unknown) => e)) as Error;
      expect(failure).toBeInstanceOf(DatabaseUnavailableError);
      expect(failure.message).not.toContain(pg.password);
      const txFailure = (await db.transaction((tx) => tx.get('SELECT 1 AS one')).catch((e: unknown) => e)) as Error;
      expect(txFailure).toBeInstanceOf(DatabaseUnavailableError);
    } finally {
      pg.resume();
    }
    expect(await db.get('SELECT value FROM watermarks WHERE name = ?', 'restart')).toEqual({ value: 'before' });
    await expect(db.transaction((tx) => tx.run("UPDATE watermarks SET value = 'after' WHERE name = 'restart'"))).resolves.toEqual({ changes: 1 });
    expect(warnings.join('\n')).toMatch(/PostgreSQL connection lost: .*The next call reconnects/);
    for (const w of warnings) expect(w).not.toContain(pg.password);
  }, 60_000);
});
