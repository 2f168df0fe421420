import type { SqlScope } from '../../state/scope';

/** Where a report schedule is: the last occurrence it fired for, and the report that occurrence asked for. */
export interface ScheduleRow {
	last_at: number;
	/** An occurrence claimed, with no report recorded yet (null once one is, or none was claimed). */
	claimed_at: number | null;
	/** The report the claimed occurrence asked for; 0 when it was refused. */
	report_id: number | null;
}

/** The reports' tables: report jobs in progress (and how they ended), and the schedules' occurrences claimed. */
export class ReportStore {
	constructor(private readonly scope: SqlScope) {}

	private get sql() {
		return this.scope.sql;
	}

	async saveJob(reportId: number, status: string, job: unknown): Promise<void> {
		await this.sql.run(
			'INSERT INTO report_jobs (report_id, status, job, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (report_id) DO UPDATE SET status = excluded.status, job = excluded.job, updated_at = excluded.updated_at',
			reportId,
			status,
			JSON.stringify(job),
			Date.now(),
		);
	}

	async job<T>(reportId: number): Promise<{ status: string; job: T } | undefined> {
		const row = await this.sql.get<{ status: string; job: string }>(
			'SELECT status, job FROM report_jobs WHERE report_id = ?',
			reportId,
		);
		return row && { status: row.status, job: JSON.parse(row.job) as T };
	}

	/** Jobs of one status, oldest report first. */
	async jobsIn<T>(status: string): Promise<T[]> {
		return (
			await this.sql.all<{ job: string }>(
				'SELECT job FROM report_jobs WHERE status = ? ORDER BY report_id',
				status,
			)
		).map((r) => JSON.parse(r.job) as T);
	}

	/** Every job, whatever its status, with its report id. */
	async allJobs<T>(): Promise<Array<{ reportId: number; job: T }>> {
		return (
			await this.sql.all<{ report_id: number; job: string }>(
				'SELECT report_id, job FROM report_jobs',
			)
		).map((r) => ({ reportId: r.report_id, job: JSON.parse(r.job) as T }));
	}

	schedule(key: string): Promise<ScheduleRow | undefined> {
		return this.sql.get<ScheduleRow>(
			'SELECT last_at, claimed_at, report_id FROM report_schedules WHERE key = ?',
			key,
		);
	}

	/** A schedule seen for the first time starts at `now`; one known already keeps its place. */
	async addSchedule(key: string, now: number): Promise<void> {
		await this.sql.run(
			'INSERT INTO report_schedules (key, last_at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING',
			key,
			now,
		);
	}

	/** Claims `occurrence` unless another claim moved the schedule on since `lastAt` was read: true when this one won. */
	async claimOccurrence(key: string, occurrence: number, lastAt: number): Promise<boolean> {
		const claim = await this.sql.run(
			'UPDATE report_schedules SET last_at = ?, claimed_at = ?, report_id = NULL WHERE key = ? AND last_at = ?',
			occurrence,
			occurrence,
			key,
			lastAt,
		);
		return claim.changes > 0;
	}

	/** The report the claimed occurrence asked for (0: refused, not asked again). */
	async setScheduleReport(key: string, reportId: number): Promise<void> {
		await this.sql.run('UPDATE report_schedules SET report_id = ? WHERE key = ?', reportId, key);
	}
}
