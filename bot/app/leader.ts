import type { PushReceiver } from '../../shared/push';
import { ReportStore } from '../features/reports/store';
import type { SourceStatus } from '../kernel/source-status';
import { startCbmDigest } from '../leader/jobs/cbm-digest';
import { startConnectivitySweeps } from '../leader/jobs/connectivity-sweeps';
import type { Job } from '../leader/jobs/job';
import { startOnCallChecks } from '../leader/jobs/oncall-checks';
import { startOutboxPickUp } from '../leader/jobs/outbox-pick-up';
import { startReportChecks } from '../leader/jobs/report-checks';
import { ReportScheduler } from '../leader/jobs/report-schedule';
import { registerSourceChecks } from '../leader/sources/readiness';
import { type Sources, startSources } from '../leader/sources/start';
import type { Readiness } from '../ops/readiness';
import type { Services } from './compose';

/** What runs while the duties run: the platform sources, the jobs, and the readiness checks of the sources. */
interface Running {
	sources: Sources;
	jobs: Job[];
	reportSchedule?: ReportScheduler;
	checks: string[];
}

/**
 * What only the leading replica does: read the platform (poll or push), run the jobs (report schedule and checks,
 * CBM digest, on-call reminders, connectivity sweeps, outbox pick-up) and send the outbox. Started when this replica
 * starts to lead, stopped when it stops; a single process on its SQLite file starts them at once.
 */
export class LeaderDuties {
	private running: Running | undefined;

	constructor(
		private readonly services: Services,
		private readonly readiness: Readiness,
		/** Whether this replica still leads (a push receiver reconnects only then). */
		private readonly leads: () => boolean,
	) {}

	get started(): boolean {
		return this.running !== undefined;
	}

	get poll() {
		return this.running?.sources.poll;
	}

	get push(): PushReceiver[] {
		return this.running?.sources.push.map((p) => p.receiver) ?? [];
	}

	get connectivityPoll() {
		return this.running?.sources.connectivityPoll;
	}

	get reportSchedule() {
		return this.running?.reportSchedule;
	}

	/** Lag and state of each alert source; none while this replica does not lead. */
	sources(): SourceStatus[] {
		return this.running?.sources.status() ?? [];
	}

	/** Starts the sources, then the jobs. Sources that fail to start leave nothing running, and throw. */
	async start(): Promise<void> {
		if (this.running) return;
		const { config, logger, dispatcher, reports, connectivity, oncall, state, scope } =
			this.services;
		const sources = await startSources({
			...this.services,
			push: this.services.options.push ?? [],
			budget: this.services.options.budget,
			late: (text) => this.services.warnLate(text),
			mayReconnect: this.leads,
		});
		const checks = registerSourceChecks(this.readiness, config, sources.push);
		// Schedules start once the sources run, so a report made now can be followed.
		const reportSchedule =
			reports && config.reports.length > 0
				? new ReportScheduler({
						config,
						reports,
						store: new ReportStore(scope),
						logger,
						now: this.services.now,
					})
				: undefined;
		const kick = () => dispatcher.kick();
		const jobs: Job[] = [
			...(reportSchedule ? [reportSchedule] : []),
			...(reports
				? [startReportChecks(reports, { pollOnly: config.source.kind === 'poll', logger })]
				: []),
			...(connectivity ? [startConnectivitySweeps(connectivity, logger)] : []),
			startCbmDigest(state, config, kick, logger),
			startOnCallChecks({ oncall, state, config, logger, kick }),
			...(this.services.options.database ? [startOutboxPickUp(kick)] : []),
		];
		this.running = { sources, jobs, reportSchedule, checks };
		// Calls left in the outbox by the previous run (or leader) go out first.
		dispatcher.kick();
	}

	/**
	 * Nothing new starts; the platform connections close first, at once, so the pushed messages this replica held go
	 * back to the broker for the next leader; then what was running is waited for.
	 */
	async stop(): Promise<void> {
		const running = this.running;
		this.running = undefined;
		if (!running) return;
		const stopping = Promise.all(running.jobs.map((job) => job.stop()));
		for (const name of running.checks) this.readiness.unregister(name);
		await running.sources.close();
		await stopping;
	}
}
