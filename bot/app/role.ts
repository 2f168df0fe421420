/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FencedDatabase } from '../cluster/fence';
import { type Leadership, type LeadershipTimings, startLeadership } from '../cluster/leadership';
import type { BotConfig } from '../config/schema';
import { type BotLogger, errorText } from '../log';
import { leadershipMetrics } from '../ops/metrics';
import type { DatabaseSettings } from '../state/database-url';
import type { LeaderDuties } from './leader';

/**
 * Whether this replica leads, and the leader's duties it runs while it does. A single process on its SQLite file
 * always leads. Replicas on PostgreSQL compete for a lease (bot/cluster/leadership.ts): the one that holds it fences
 * its transactions with its epoch and runs the duties; it stops them when it steps down.
 */
export class Role {
	private leadership: Leadership | undefined;
	private running: LeaderDuties | undefined;
	/** One change of role at a time: a step-down waits for the duties it stops to have started. */
	private changing: Promise<void> = Promise.resolve();
	private stopped = false;

	constructor(
		private readonly config: BotConfig,
		private readonly logger: BotLogger,
	) {}

	/** Whether this replica may act as the leader now: always on SQLite; on PostgreSQL while its lease is valid. */
	leads(): boolean {
		return !this.leadership || this.leadership.isLeader();
	}

	/** Throws FencedOut unless this replica leads now: checked right before every Slack call of the outbox. */
	assertLeading(): void {
		this.leadership?.assertLeading();
	}

	/** The replicas' leadership on PostgreSQL; undefined on SQLite. */
	lease(): Leadership | undefined {
		return this.leadership;
	}

	/** The leader's duties, while they run. */
	get duties(): LeaderDuties | undefined {
		return this.running?.started ? this.running : undefined;
	}

	/** The single process: it leads at once; duties that fail to start throw. */
	async leadAlone(duties: LeaderDuties): Promise<void> {
		this.running = duties;
		await duties.start();
		leadershipMetrics.setLeader(true);
	}

	/**
	 * A replica on PostgreSQL: competes for the lead. Returns once the first attempt settled, with the duties running
	 * when it leads; bounded: a leader that cannot start its sources keeps trying in the background (logged).
	 */
	async compete(
		duties: LeaderDuties,
		db: FencedDatabase,
		database: DatabaseSettings,
		timings?: Partial<LeadershipTimings>,
	): Promise<void> {
		this.running = duties;
		const change = (work: () => Promise<void>) => (this.changing = this.changing.then(work, work));
		const leadership = startLeadership({
			connection: database.connection,
			holder: `${hostname()}:${process.pid}`,
			logger: this.logger,
			timings,
			// Not awaited: the lease is renewed on the same chain, and connecting to the platform may take a while.
			onLead: (epoch, lead) => void change(() => this.lead(epoch, lead, duties, db)),
			onStepDown: (reason) =>
				change(async () => {
					this.logger.warn(
						`bot: no longer leading (${reason}); the platform connections are closed and nothing more is sent`,
					);
					await duties.stop();
					db.removeFence();
				}),
		});
		this.leadership = leadership;
		await leadership.settled();
		await Promise.race([this.changing, sleep(60_000, undefined, { ref: false })]);
	}

	private async lead(
		epoch: number,
		lead: Leadership,
		duties: LeaderDuties,
		db: FencedDatabase,
	): Promise<void> {
		// Every change this replica makes from now on commits only while its epoch leads.
		db.fenceWith((tx) => lead.fence(tx));
		// A leader that cannot reach the platform tries again while it leads, as the single process does.
		while (lead.isLeader() && !duties.started && !this.stopped) {
			try {
				await duties.start();
				this.logger.info(
					`bot: leading (epoch ${epoch}): alerts from ${this.config.source.kind === 'push' ? 'the push channel' : 'REST polling'}`,
				);
			} catch (error) {
				this.logger.error(
					`bot: could not start as the leader (${errorText(error)}); trying again in 5 s`,
				);
				await sleep(5_000);
			}
		}
	}

	/** Stops competing (stepping down if it leads) and stops the duties. */
	async stop(): Promise<void> {
		this.stopped = true;
		await this.leadership?.close();
		await this.changing;
		await this.running?.stop();
	}
}
