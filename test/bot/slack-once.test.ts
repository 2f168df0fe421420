import { BOT_SCHEMA } from '../../bot/app/schema';
import { databaseSettings } from '../../bot/state/database-url';
import { PostgresDatabase } from '../../bot/state/postgres';
import {
	claimPayload,
	forgetOldPayloads,
	payloadKey,
	releasePayload,
} from '../../bot/cluster/slack-once';
import type { SqlDatabase } from '../../bot/state/sql';
import { usePrivatePostgres } from '../helpers/postgres';

describe('a Slack payload acts once across replicas', () => {
	const { server } = usePrivatePostgres();
	const replicas: SqlDatabase[] = [];
	beforeAll(async () => {
		const settings = databaseSettings({ DRIVE_BOT_DATABASE_URL: server().url() });
		if (!settings) throw new Error('the private PostgreSQL gave no URL');
		// Three replicas opening (and migrating) the same empty database at once, as they start.
		replicas.push(
			...(await Promise.all([0, 1, 2].map(() => PostgresDatabase.open(settings, BOT_SCHEMA)))),
		);
	});
	afterAll(async () => {
		await Promise.all(replicas.map((r) => r.close()));
	});

	it('keys a retry like the original and different interactions apart', () => {
		expect(payloadKey({ event_id: 'Ev1', retry: 1 })).toBe('event_id:Ev1');
		expect(payloadKey({ trigger_id: 'T.1', actions: [{ action_id: 'ack' }] })).toBe(
			'trigger_id:T.1',
		);
		expect(payloadKey({ b: 1, a: { y: 2, x: 1 } })).toBe(payloadKey({ a: { x: 1, y: 2 }, b: 1 }));
		expect(payloadKey({ a: 1 })).not.toBe(payloadKey({ a: 2 }));
	});

	it('the same payload claimed at once by three replicas is won by exactly one; a rolled-back or released claim frees it', async () => {
		const key = payloadKey({ trigger_id: 'T.same' });
		const won = await Promise.all(replicas.map((db) => claimPayload(db, key)));
		expect(won.filter(Boolean)).toHaveLength(1);
		await expect(claimPayload(replicas[0], key)).resolves.toBe(false);

		const other = payloadKey({ trigger_id: 'T.failed' });
		await expect(
			replicas[1].transaction(async (tx) => {
				expect(await claimPayload(tx, other)).toBe(true);
				throw new Error('the change failed');
			}),
		).rejects.toThrow('the change failed');
		await expect(claimPayload(replicas[2], other)).resolves.toBe(true);
		await releasePayload(replicas[2], other);
		await expect(claimPayload(replicas[0], other)).resolves.toBe(true);

		await replicas[0].run(
			'UPDATE slack_payloads SET seen_at = ? WHERE key = ?',
			Date.now() - 2 * 86_400_000,
			key,
		);
		await expect(forgetOldPayloads(replicas[0])).resolves.toBe(1);
		await expect(claimPayload(replicas[1], key)).resolves.toBe(true);
	});
});
