/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { capturingLogger } from './helpers';
import { runFailover } from './replicas-run';

// The crash test: three replicas of the compiled bot on one private PostgreSQL, a slow Slack (400 ms per
// answer), faults opening and closing all along, and 20 kills of the leader, kill -9 and SIGSTOP in turn (the frozen
// one woken later by SIGCONT must make no Slack call), a replica started for each one killed. Then every fault is in
// exactly one message (or digest), each close reached its message once, none is left "Open", and no replica
// crashed. Lease timings shorter than production's (4 s lease renewed every 600 ms) so the run takes minutes; the
// failover times are printed, not asserted (bench/suites/failover.ts measures them with production's timings).
const KILLS = 20;

test(`three replicas, ${KILLS} leader kills (kill -9 and SIGSTOP in turn): every fault posted once, every close once, none left open`, async () => {
	const outcome = await runFailover({
		replicas: 3,
		kills: KILLS,
		signals: ['SIGKILL', 'SIGSTOP'],
		slackLatencyMs: 400,
		lease: { leaseMs: 4_000, renewMs: 600 },
		logger: capturingLogger().logger,
	});
	const times = (signal: string) =>
		outcome.failovers
			.filter((f) => f.signal === signal)
			.map((f) => (f.ms === undefined ? 'none' : `${(f.ms / 1000).toFixed(1)} s`));
	process.stderr.write(
		`replicas crash test: ${outcome.faults} faults (${outcome.closed} closed), ${outcome.failovers.length} kills, ${outcome.replicasStarted} replicas started, ` +
			`${outcome.reconciled} posts or updates found already in Slack after a kill\n  failover after kill -9: ${times('SIGKILL').join(', ')}\n  failover after SIGSTOP: ${times('SIGSTOP').join(', ')}\n`,
	);
	const { duplicates, lost, stillOpen, closeProblems, woken, crashed } = outcome;
	if (
		duplicates.length +
			lost.length +
			stillOpen.length +
			closeProblems.length +
			woken.length +
			crashed.length >
		0
	)
		process.stderr.write(`replica logs:\n${outcome.logs}\n`);
	expect(outcome.failovers).toHaveLength(KILLS);
	// Each failover was recorded: another replica posted after every kill.
	expect(outcome.failovers.filter((f) => f.ms === undefined)).toEqual([]);
	expect(outcome.faults).toBeGreaterThan(KILLS);
	expect({ duplicates, lost, stillOpen, closeProblems, woken, crashed }).toEqual({
		duplicates: [],
		lost: [],
		stillOpen: [],
		closeProblems: [],
		woken: [],
		crashed: [],
	});
	expect(outcome.blockKitProblems).toBe(0);
}, 900_000);
