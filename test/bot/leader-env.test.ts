import { leaderTimingsOf, readEnv } from '../../bot/config/env';
import { ConfigError } from '../../bot/config/load';
import { DEFAULT_LEADERSHIP_TIMINGS } from '../../bot/cluster/leadership';

// The replicas' lease timings from the environment: DRIVE_BOT_LEADER_LEASE_MS and DRIVE_BOT_LEADER_RENEW_MS.
describe('lease timings from the environment', () => {
	test('unset: the defaults of leadership (10 s lease renewed every 2 s)', () => {
		expect(leaderTimingsOf(readEnv({}))).toBeUndefined();
		// The same proportions as the defaults when only the lease is given.
		const { ttlMs, renewEveryMs, marginMs, tryEveryMs } = DEFAULT_LEADERSHIP_TIMINGS;
		expect(leaderTimingsOf(readEnv({ DRIVE_BOT_LEADER_LEASE_MS: '10000' }))).toEqual({
			ttlMs,
			renewEveryMs,
			marginMs,
			tryEveryMs,
		});
	});

	test('shorter timings: the margin is 30% of the lease, a standby tries every half renewal', () => {
		expect(
			leaderTimingsOf(
				readEnv({ DRIVE_BOT_LEADER_LEASE_MS: '4000', DRIVE_BOT_LEADER_RENEW_MS: '600' }),
			),
		).toEqual({ ttlMs: 4000, renewEveryMs: 600, marginMs: 1200, tryEveryMs: 300 });
	});

	test('a renewal too slow for the lease is refused at start, saying what to change', () => {
		const start = () =>
			readEnv({ DRIVE_BOT_LEADER_LEASE_MS: '2000', DRIVE_BOT_LEADER_RENEW_MS: '1400' });
		expect(start).toThrow(ConfigError);
		expect(start).toThrow(
			'DRIVE_BOT_LEADER_RENEW_MS (1400 ms) must be shorter than 70% of DRIVE_BOT_LEADER_LEASE_MS (2000 ms, so 1400 ms)',
		);
		expect(() => readEnv({ DRIVE_BOT_LEADER_LEASE_MS: 'ten seconds' })).toThrow(
			/Invalid environment:[\s\S]*DRIVE_BOT_LEADER_LEASE_MS/,
		);
	});
});
