import type { ReportService } from '../../features/reports/service';
import { type BotLogger, errorText } from '../../log';
import { type Job, repeat } from './job';

/**
 * The reports still Creating, looked up on the platform (E22): those left by the previous run or leader at once,
 * then every 15 s when polling (E22 is the only way to learn a report finished), every minute beside the push
 * channel. A standby never calls the platform for them; it only answers Slack.
 */
export function startReportChecks(
	reports: ReportService,
	options: { pollOnly: boolean; logger: BotLogger },
): Job {
	return repeat(
		options.pollOnly ? 15_000 : 60_000,
		(stopped) => reports.checkPending(stopped),
		(error) =>
			options.logger.warn(
				`reports: pending reports not checked (${errorText(error)}); tried again at the next check`,
			),
		{ atStart: true },
	);
}
