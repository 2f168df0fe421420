/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
/** Stops the run's private PostgreSQL and removes its files. */
export default function teardown(): void {
	(globalThis as { drivePostgres?: { stop(): void } }).drivePostgres?.stop();
}
