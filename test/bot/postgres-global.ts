/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { startPostgres } from '../helpers/postgres';

/** One private PostgreSQL for the run; each test's state becomes a database in it (store-under-test.ts). */
export default async function setup(): Promise<void> {
	const server = await startPostgres();
	(globalThis as { drivePostgres?: { stop(): void } }).drivePostgres = server;
	// Read by the test workers, which start after this.
	process.env.DRIVE_TEST_STORE = 'postgres';
	process.env.DRIVE_TEST_PG_URL = server.url();
}
