/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { runCrashScenario } from './crash-run';
import { capturingLogger } from './helpers';

// Exactly once in Slack across kill -9: at least 10 SIGKILLs at random instants, a
// slow Slack (400 ms per answer), the same state file at every restart. Every fault must end in
// exactly one message that shows its final state.
const KILLS = 12;

test(`${KILLS} SIGKILLs at random instants with a slow Slack: every fault in exactly one message, in its final state`, async () => {
	const outcome = await runCrashScenario({
		kills: KILLS,
		slackLatencyMs: 400,
		logger: capturingLogger().logger,
	});
	const { duplicates, lost, stale } = outcome;
	process.stderr.write(
		`crash test: ${outcome.faults} faults, ${outcome.closed} closed, ${outcome.kills} kills, ${outcome.reconciled} posts found already in Slack after a kill, ${outcome.topLevelMessages} top-level messages\n`,
	);
	if (duplicates.length + lost.length + stale.length > 0)
		process.stderr.write(`bot stderr:\n${outcome.stderr}\n`);
	expect(outcome.kills).toBeGreaterThanOrEqual(10);
	expect(outcome.faults).toBeGreaterThan(10);
	expect({ duplicates, lost, stale }).toEqual({ duplicates: [], lost: [], stale: [] });
	expect(outcome.blockKitProblems).toBe(0);
}, 420_000);
