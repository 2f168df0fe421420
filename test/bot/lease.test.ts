/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { fenced, FencedOut, Lease } from '../../bot/state/lease';
import { migratePostgres, usePrivatePostgres } from '../helpers/postgres';

describe('leader lease with fencing', () => {
	const { connect, server } = usePrivatePostgres();
	beforeAll(async () => {
		await migratePostgres(server().url());
	});

	it('one leader at a time; a lost leader is told, the next gets a higher epoch, and the old epoch writes nothing', async () => {
		const lost: number[] = [];
		const a = new Lease({ connectionString: server().url() }, 'replica-a', (epoch) => lost.push(epoch));
		const b = new Lease({ connectionString: server().url() }, 'replica-b', () => undefined);
		const first = await a.tryAcquire();
		expect(first).toBeGreaterThan(0);
		await expect(b.tryAcquire()).resolves.toBeUndefined();

		const writer = await connect();
		await writer.query('INSERT INTO watermarks (name, value) VALUES ($1, $2)', ['w', 'start']);
		await fenced(writer, first!, (c) => c.query("UPDATE watermarks SET value = 'by-a' WHERE name = 'w'"));

		// The leader's session dies (a crash, a partition): PostgreSQL frees the lock at once.
		const admin = await connect();
		await admin.query(
			"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '' AND pid <> pg_backend_pid() AND query LIKE '%leader_lease%'",
		);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(lost).toEqual([first]);
		expect(a.epoch).toBeUndefined();

		const second = await b.tryAcquire();
		expect(second).toBe(first! + 1);
		await expect(fenced(writer, first!, (c) => c.query("UPDATE watermarks SET value = 'stale' WHERE name = 'w'"))).rejects.toThrow(FencedOut);
		await fenced(writer, second!, (c) => c.query("UPDATE watermarks SET value = 'by-b' WHERE name = 'w'"));
		const { rows } = await writer.query<{ value: string }>("SELECT value FROM watermarks WHERE name = 'w'");
		expect(rows[0].value).toBe('by-b');
		await b.release();
		await a.release();
	});
});
