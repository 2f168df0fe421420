/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { createHash } from 'node:crypto';
import { Cron } from 'croner';
import type { BotConfig } from '../../config/schema';
import { type BotLogger, errorText } from '../../log';
import { lastDays } from '../../features/reports/request';
import type { ReportService } from '../../features/reports/service';
import type { ReportStore } from '../../features/reports/store';
import type { Job } from './job';

type Schedule = BotConfig['reports'][number];

/** A cron zone for croner: an IANA name, or a fixed offset (`+08:00`) as minutes. */
function cronZone(zone: string): { timezone?: string; utcOffset?: number } {
	const offset = /^([+-])(\d{2}):(\d{2})$/.exec(zone);
	if (!offset) return { timezone: zone };
	return { utcOffset: (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) };
}

/** The cron of a schedule (its pattern was checked with the configuration). */
export function cronOf(schedule: Schedule, defaultZone: string): Cron {
	return new Cron(schedule.cron, { ...cronZone(schedule.timeZone ?? defaultZone), paused: true });
}

/**
 * Scheduled reports (assumption B39): each occurrence fires once. The occurrence is claimed in the
 * state database before the report is asked for, so a restart never repeats it; an occurrence
 * missed while the bot was down fires at the next start (only the latest one, never a backlog),
 * so a restart never skips it either. A claim whose report was never recorded (a crash during
 * the request) is settled first by looking for the report on the platform (E22) before asking again.
 */
export class ReportScheduler implements Job {
	private readonly entries: Array<{ key: string; schedule: Schedule; cron: Cron }>;
	private readonly timer: NodeJS.Timeout;
	private running: Promise<void> | undefined;
	private seeded = false;

	constructor(
		private readonly deps: {
			config: BotConfig;
			reports: ReportService;
			store: ReportStore;
			logger: BotLogger;
			now: () => number;
		},
	) {
		const { config } = deps;
		this.entries = config.reports.map((schedule) => ({
			key: createHash('sha256')
				.update(
					JSON.stringify([
						schedule.cron,
						schedule.group ?? null,
						schedule.asset ?? null,
						schedule.channel,
						schedule.days,
						schedule.title ?? null,
					]),
				)
				.digest('hex')
				.slice(0, 16),
			schedule,
			cron: cronOf(schedule, config.timeZone),
		}));
		this.timer = setInterval(() => void this.tick(), 1000);
		this.timer.unref();
		void this.tick();
	}

	stop(): Promise<void> {
		clearInterval(this.timer);
		return this.running ?? Promise.resolve();
	}

	/** Runs every due occurrence; resolves when they are requested. */
	tick(): Promise<void> {
		this.running ??= this.fireDue()
			.catch((error: unknown) =>
				this.deps.logger.error(
					`reports: schedules not checked (${errorText(error)}); tried again in a second`,
				),
			)
			.finally(() => (this.running = undefined));
		return this.running;
	}

	/** A schedule seen for the first time starts from now: nothing before it is "missed". */
	private async seed(now: number): Promise<void> {
		for (const entry of this.entries) {
			await this.deps.store.addSchedule(entry.key, now);
		}
		this.seeded = true;
	}

	private async fireDue(): Promise<void> {
		const now = this.deps.now();
		if (!this.seeded) await this.seed(now);
		for (const entry of this.entries) {
			const row = await this.deps.store.schedule(entry.key);
			if (!row) continue;
			let occurrence: number | undefined;
			if (row.claimed_at !== null && row.report_id === null) {
				occurrence = row.claimed_at; // claimed, then the bot stopped before the report was recorded
			} else {
				const next = entry.cron.nextRun(new Date(row.last_at));
				if (!next || next.getTime() > now) continue;
				// Several missed while down: only the latest is made (the report covers the days before it).
				let latest = next.getTime();
				for (
					let n = entry.cron.nextRun(new Date(latest));
					n && n.getTime() <= now;
					n = entry.cron.nextRun(new Date(latest))
				)
					latest = n.getTime();
				occurrence = latest;
				// Claimed only if no one claimed it meanwhile (another replica): it fires once.
				if (!(await this.deps.store.claimOccurrence(entry.key, occurrence, row.last_at))) continue;
			}
			await this.fire(entry, occurrence);
		}
	}

	private async fire(
		entry: { key: string; schedule: Schedule },
		occurrence: number,
	): Promise<void> {
		const { schedule } = entry;
		const target = String(schedule.group ?? schedule.asset);
		const adopted = await this.deps.reports.findRequested(entry.key, occurrence);
		if (adopted !== undefined) {
			await this.deps.store.setScheduleReport(entry.key, adopted);
			return;
		}
		const outcome = await this.deps.reports.request({
			target,
			...lastDays(schedule.days, occurrence),
			title: schedule.title,
			channel: schedule.channel,
			schedule: `${schedule.cron}${schedule.timeZone ? ` ${schedule.timeZone}` : ''}`,
			scheduleKey: `${entry.key}:${occurrence}`,
		});
		if (outcome.kind === 'started') {
			await this.deps.store.setScheduleReport(entry.key, outcome.job.reportId);
			this.deps.logger.info(
				`reports: scheduled report ${outcome.job.reportId} (${outcome.job.title}) requested for ${new Date(occurrence).toISOString()}`,
			);
		} else {
			// Refused for good (the group is gone, the level forbids it): said in the channel, not retried.
			await this.deps.store.setScheduleReport(entry.key, 0);
			this.deps.logger.warn(`reports: scheduled report of ${target} refused: ${outcome.message}`);
			await this.deps.reports.announceRefusal(
				schedule.channel,
				`:x: The scheduled report of ${target} (${schedule.cron}) was not made: ${outcome.message}`,
			);
		}
	}
}
