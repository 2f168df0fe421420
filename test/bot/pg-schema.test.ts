import { migrate, MIGRATIONS } from '../../bot/state/pg-schema';
import { usePrivatePostgres } from '../helpers/postgres';

describe('PostgreSQL schema migration', () => {
	const { connect } = usePrivatePostgres();

	it('three replicas starting at once on an empty database apply each step exactly once', async () => {
		const replicas = await Promise.all([connect(), connect(), connect()]);
		const latest = Math.max(...MIGRATIONS.map((m) => m.version));
		await expect(Promise.all(replicas.map((c) => migrate(c)))).resolves.toEqual([latest, latest, latest]);
		const { rows } = await replicas[0].query<{ version: number }>('SELECT version FROM schema_version ORDER BY version');
		expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
		const tables = await replicas[0].query<{ n: string }>(
			"SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('events','outbox','watermarks','digests')",
		);
		expect(Number(tables.rows[0].n)).toBe(4);
	});

	it('a later step is applied once on restart, and a replica older than the schema is refused', async () => {
		const client = await connect();
		const next = { version: 1000, description: 'test step', sql: 'CREATE TABLE later_step (x INTEGER)' };
		await expect(migrate(client, [...MIGRATIONS, next])).resolves.toBe(1000);
		await expect(migrate(client, [...MIGRATIONS, next])).resolves.toBe(1000);
		await expect(migrate(client)).rejects.toThrow(/newer than this bot knows .*Upgrade this replica/);
		const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM schema_version WHERE version = 1000');
		expect(rows[0].n).toBe('1');
	});
});
