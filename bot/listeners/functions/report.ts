/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { App, webApi } from '@slack/bolt';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseReportRequest, type ReportRequestText } from '../../features/reports/request';
import type { ReportJob, ReportService } from '../../features/reports/service';
import { refusal } from '../access';
import type { ListenerDeps } from '../deps';
import { runStep, StepFailure, type StepLimits, type StepOutputs } from './run';

export const REQUEST_REPORT = 'request_report';

const optional = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** The step's inputs as `/drive report` reads them, with the same checks before any request. */
export function reportRequest(inputs: Record<string, unknown>, now: number): ReportRequestText {
	const target = String(inputs.target ?? '')
		.replace(/["“”']/g, '')
		.trim();
	if (!target)
		throw new StepFailure(
			'Name the asset (name, serial number or id) or the asset group to report on.',
		);
	const period = optional(inputs.period);
	// The period alone first: a word that is not one would otherwise be read as the title.
	const checked = parseReportRequest(`"${target}" ${period ?? ''}`, now);
	if ('error' in checked) throw new StepFailure(checked.error);
	if (checked.title !== undefined)
		throw new StepFailure(
			`"${period}" is not a period: write 7d or 30d (7 to 90 days ending today), or two dates as 2026-10-01..2026-10-31 (UTC+8).`,
		);
	const title = optional(inputs.title);
	const parsed = parseReportRequest(`"${target}" ${period ?? ''} ${title ?? ''}`, now);
	if ('error' in parsed) throw new StepFailure(parsed.error);
	return parsed;
}

/** Waits until the report's PDF is in Slack (or the platform failed it); the report service does the work. */
async function finished(
	reports: ReportService,
	reportId: number,
	checkMs: number,
	stopped: () => boolean,
): Promise<ReportJob> {
	for (;;) {
		const known = await reports.job(reportId);
		if (known?.status === 'done') return known.job;
		if (known?.status === 'failed') {
			throw new StepFailure(
				`The platform could not make “${known.job.title}”. ${await reports.likelyReason(known.job)}`,
			);
		}
		if (stopped()) throw new StepFailure('stopped');
		await sleep(checkMs);
	}
}

async function fileLink(client: webApi.WebClient, job: ReportJob): Promise<string> {
	if (job.fileId) {
		const info = await client.files.info({ file: job.fileId });
		if (info.file?.permalink) return info.file.permalink;
	}
	// No file id (a bot restarted mid-delivery): the message the PDF was posted under.
	if (job.channelId && job.ts) {
		const answer = await client.chat.getPermalink({ channel: job.channelId, message_ts: job.ts });
		if (answer.permalink) return answer.permalink;
	}
	throw new StepFailure(
		`“${job.title}” was posted in <#${job.channelId ?? job.channel}>, but Slack gave no link to it. Open the channel to find the PDF.`,
	);
}

/**
 * Request report: the checks and the request of `/drive report`, the "creating" message and the
 * PDF in its thread as always; the step completes with the PDF's link once it is there, however
 * long the platform takes within the step's limit (60 minutes by default).
 */
export function registerReportStep(app: App, deps: ListenerDeps, limits: StepLimits): void {
	const { config, logger } = deps;
	app.function(REQUEST_REPORT, async ({ inputs, complete, fail, client }) => {
		const channel = String(inputs.channel ?? '');
		let done = false;
		const minutes = Math.round(limits.reportMs / 60_000);
		await runStep(
			REQUEST_REPORT,
			limits.reportMs,
			`The report was not ready within ${minutes >= 2 ? `${minutes} minutes` : `${Math.round(limits.reportMs / 1000)} s`}, so the step stopped instead of holding up the workflow. The PDF is still posted in <#${channel}> when the platform has made it.`,
			async (): Promise<StepOutputs> => {
				const { reports } = deps;
				if (!reports)
					throw new StepFailure(
						'Reports are not available in this bot: it has nowhere to post files. Ask its administrator.',
					);
				const user = optional(inputs.user);
				const refused = refusal(user ? config.allow : { ...config.allow, users: [] }, {
					user,
					channel,
				});
				if (refused) throw new StepFailure(refused);
				const request = reportRequest(inputs, Date.now());
				const outcome = await reports.request({ ...request, channel, requestedBy: user });
				if (outcome.kind === 'refused') throw new StepFailure(outcome.message);
				const job = await finished(reports, outcome.job.reportId, limits.reportCheckMs, () => done);
				return {
					file_url: await fileLink(client, job),
					report_title: job.title,
					period: `${job.startDate} to ${job.endDate}`,
				};
			},
			{ complete: (outputs) => complete({ outputs }), fail: (error) => fail({ error }), logger },
		).finally(() => {
			done = true;
		});
	});
}
