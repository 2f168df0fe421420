import { Client } from 'pg';
import { databaseSettings, withoutPassword } from '../../bot/state/database-url';
import { startPostgres, type PrivatePostgres } from '../helpers/postgres';

describe('DRIVE_BOT_DATABASE_URL', () => {
	let pg: PrivatePostgres;
	beforeAll(async () => {
		pg = await startPostgres();
	}, 120_000);
	afterAll(() => pg?.stop());

	it('keeps the embedded SQLite store when unset', () => {
		expect(databaseSettings({})).toBeUndefined();
		expect(databaseSettings({ DRIVE_BOT_DATABASE_URL: '  ' })).toBeUndefined();
	});

	it('connects a real PostgreSQL with the URL, PG* variables filling what it leaves out', async () => {
		const settings = databaseSettings({
			DRIVE_BOT_DATABASE_URL: `postgres://127.0.0.1:${pg.port}/${pg.database}`,
			PGUSER: pg.user,
			PGPASSWORD: pg.password,
			PGHOST: 'elsewhere.invalid',
		});
		expect(settings?.connection).toMatchObject({
			host: '127.0.0.1',
			port: pg.port,
			user: pg.user,
			database: pg.database,
		});
		const client = new Client(settings!.connection);
		await client.connect();
		const { rows } = await client.query<{ who: string; su: boolean }>(
			'SELECT current_user AS who, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS su',
		);
		await client.end();
		expect(rows[0]).toEqual({ who: pg.user, su: false });
	});

	it('never shows the password: display form, a refused login, a malformed URL', async () => {
		const settings = databaseSettings({ DRIVE_BOT_DATABASE_URL: pg.url() })!;
		expect(settings.password).toBe(pg.password);
		expect(settings.display).toBe(`postgres://${pg.user}:***@127.0.0.1:${pg.port}/${pg.database}`);
		expect(settings.display).not.toContain(pg.password);

		const wrong = databaseSettings({
			DRIVE_BOT_DATABASE_URL: pg
				.url()
				.replace('drive_bot@', 'nobody@')
				.replace(`${pg.user}:`, 'nobody:'),
		})!;
		const client = new Client(wrong.connection);
		const error = await client.connect().then(
			() => new Error('login unexpectedly accepted'),
			(e: Error) => e,
		);
		await client.end().catch(() => undefined);
		expect(error.message).toMatch(/password authentication failed/);
		const shown = withoutPassword(`${error.message} (${wrong.display}) ${pg.url()}`, wrong);
		expect(shown).not.toContain(pg.password);
		expect(shown).not.toContain(encodeURIComponent(pg.password));

		const refusal = (() => {
			try {
				databaseSettings({ DRIVE_BOT_DATABASE_URL: `mysql://u:${pg.password}@h/d` });
				return '';
			} catch (e) {
				return (e as Error).message;
			}
		})();
		expect(refusal).toMatch(/not a PostgreSQL URL/);
		expect(refusal).not.toContain(pg.password);
		expect(() =>
			databaseSettings({ DRIVE_BOT_DATABASE_URL: 'postgres://h/d', PGPORT: '99999' }),
		).toThrow(/PGPORT/);
	});
});
