import { claimPayload, forgetOldPayloads, payloadKey } from '../../bot/state/slack-once';
import { migratePostgres, usePrivatePostgres } from '../helpers/postgres';

describe('a Slack payload acts once across replicas', () => {
	const { connect, server } = usePrivatePostgres();
	beforeAll(async () => {
		await migratePostgres(server().url());
	});

	it('keys a retry like the original and different interactions apart', () => {
		expect(payloadKey({ event_id: 'Ev1', retry: 1 })).toBe('event_id:Ev1');
		expect(payloadKey({ trigger_id: 'T.1', actions: [{ action_id: 'ack' }] })).toBe('trigger_id:T.1');
		expect(payloadKey({ b: 1, a: { y: 2, x: 1 } })).toBe(payloadKey({ a: { x: 1, y: 2 }, b: 1 }));
		expect(payloadKey({ a: 1 })).not.toBe(payloadKey({ a: 2 }));
	});

	it('the same payload claimed at once by three replicas is won by exactly one; a rolled-back claim frees it', async () => {
		const replicas = await Promise.all([connect(), connect(), connect()]);
		const key = payloadKey({ trigger_id: 'T.same' });
		const won = await Promise.all(replicas.map((c) => claimPayload(c, key)));
		expect(won.filter(Boolean)).toHaveLength(1);
		await expect(claimPayload(replicas[0], key)).resolves.toBe(false);

		const other = payloadKey({ trigger_id: 'T.failed' });
		await replicas[1].query('BEGIN');
		await expect(claimPayload(replicas[1], other)).resolves.toBe(true);
		await replicas[1].query('ROLLBACK');
		await expect(claimPayload(replicas[2], other)).resolves.toBe(true);

		await replicas[0].query('UPDATE slack_payloads SET seen_at = $2 WHERE key = $1', [key, Date.now() - 2 * 86_400_000]);
		await expect(forgetOldPayloads(replicas[0])).resolves.toBe(1);
	});
});
