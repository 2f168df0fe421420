/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { sourceGauges, sourcesReadiness } from '../leader/sources/status';
import { trackOutbox, trackSources } from '../ops/metrics';
import { databaseCheck, leadershipCheck, Readiness } from '../ops/readiness';
import { schemaVersion } from '../state/schema';
import type { Services } from './compose';
import type { Role } from './role';
import { BOT_SCHEMA } from './schema';

/** What every replica runs besides answering Slack: /readyz's checks and the figures /metrics reads. */
export interface Replica {
	readiness: Readiness;
	stop(): void;
}

/**
 * Readiness (late alerts; on PostgreSQL the database's schema and this replica's leadership) and metrics (the
 * sources' lag and the platform budget, the outbox's depth sampled every few seconds).
 */
export function startReplica(services: Services, role: Role): Replica {
	const { options, state } = services;
	const readiness = new Readiness();
	// Late alerts make the bot not ready, as a broken source does (B46).
	readiness.register('lag', () => {
		const { ready, reasons } = sourcesReadiness(role.duties?.sources() ?? []);
		return { ok: ready, detail: ready ? 'alerts on time' : reasons.join('; ') };
	});
	const untrackSources = trackSources(() =>
		sourceGauges(role.duties?.sources() ?? [], options.budget?.status()),
	);
	// The gauge is read synchronously at scrape time: the depth is sampled every few seconds instead.
	let outboxDepth = 0;
	const sampleOutbox = () =>
		void state.outbox.countPending().then(
			(n) => (outboxDepth = n),
			() => undefined,
		);
	sampleOutbox();
	const outboxTimer = setInterval(sampleOutbox, 5_000);
	outboxTimer.unref();
	const untrackOutbox = trackOutbox(() => outboxDepth);
	return {
		readiness,
		stop() {
			clearInterval(outboxTimer);
			untrackOutbox();
			untrackSources();
		},
	};
}

/** On PostgreSQL, /readyz also says whether the database answers at the right schema, and whether this replica leads. */
export function registerSharedChecks(services: Services, role: Role, readiness: Readiness): void {
	const { options, db } = services;
	if (!options.database) return;
	readiness.register(
		'database',
		databaseCheck(() => schemaVersion(db), BOT_SCHEMA.latest, options.database.display),
	);
	readiness.register(
		'leadership',
		leadershipCheck({
			isLeader: () => role.lease()?.isLeader() ?? false,
			epoch: () => role.lease()?.epoch(),
		}),
	);
}
