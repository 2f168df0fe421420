import { BOT_SCHEMA } from '../../bot/app/schema';
import { databaseSettings } from '../../bot/state/database-url';
import { PostgresDatabase } from '../../bot/state/postgres';
import { type PrivatePostgres, startPostgres } from './postgres-server';

export { type PrivatePostgres, startPostgres } from './postgres-server';

/** A private server for one test file: started before its tests, every client it handed out closed, then stopped. */
export function usePrivatePostgres(): {
	server(): PrivatePostgres;
	connect(): Promise<import('pg').Client>;
} {
	let pg: PrivatePostgres | undefined;
	const clients: Array<import('pg').Client> = [];
	beforeAll(async () => {
		pg = await startPostgres();
	}, 120_000);
	afterAll(async () => {
		await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
		pg?.stop();
	});
	const server = (): PrivatePostgres => {
		if (!pg)
			throw new Error(
				'The private PostgreSQL is not started: call server() inside a test or hook.',
			);
		return pg;
	};
	return {
		server,
		connect: async () => {
			const { Client } = await import('pg');
			const client = new Client({ connectionString: server().url() });
			await client.connect();
			clients.push(client);
			return client;
		},
	};
}

/** The bot's schema on the server at `url`, as a replica makes it at start (bot/state/schema.ts). */
export async function migratePostgres(url: string): Promise<void> {
	const settings = databaseSettings({ DRIVE_BOT_DATABASE_URL: url });
	if (!settings) throw new Error(`not a database URL: ${url}`);
	await (await PostgresDatabase.open(settings, BOT_SCHEMA)).close();
}
