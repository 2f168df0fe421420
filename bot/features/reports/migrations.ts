import type { Migration } from '../../state/schema';

/** The reports' tables: schedule occurrences claimed, and report jobs in progress. */
export const REPORTS_MIGRATIONS: readonly Migration[] = [
	{
		version: 4,
		description: 'reports: schedule occurrences claimed, report jobs in progress',
		ddl: [
			'CREATE TABLE report_schedules (key TEXT PRIMARY KEY, last_at BIGINT NOT NULL, claimed_at BIGINT, report_id BIGINT)',
			'CREATE TABLE report_jobs (report_id BIGINT PRIMARY KEY, status TEXT NOT NULL, job TEXT NOT NULL, updated_at BIGINT NOT NULL)',
		],
	},
];
