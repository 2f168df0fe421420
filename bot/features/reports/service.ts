import {
	DriveMonitoringApiError,
	ValidationError,
	assetStandingRefusal,
} from '../../../shared/errors';
import { isPowerTrain, membersOf } from '../../../shared/fleet';
import { explainLevelDenial, toLevel } from '../../../shared/levels';
import { utc8DateToInstant } from '../../../shared/time';
import { type BotLogger, errorText } from '../../log';
import type { AssetDirectory } from '../../platform/directory';
import type { AssetListItem, DrivePlatform, PlatformReport } from '../../platform/types';
import type { SqlScope } from '../../state/scope';
import type { ConnectivityTracker } from '../connectivity/tracker';
import { REPORT_MIN_AGE_DAYS, type ReportRequestText } from './request';
import { ReportStore } from './store';
import type { SlackMessage } from '../../kernel/message';
import type { Publisher } from '../../kernel/publisher';

/** What a report message says about its report (persisted with the job). */
export interface ReportView {
	reportId: number;
	title: string;
	/** `drive report of Pump 3 (SN)` or `fleet report of group Line 3 (12 assets)`. */
	what: string;
	startDate: string;
	endDate: string;
	requestedBy?: string;
	schedule?: string;
}

/** How the messages of a report look (bot/blocks/report.ts); the service decides when each is posted. */
export interface ReportMessages {
	creating(view: ReportView): SlackMessage;
	ready(view: ReportView): SlackMessage;
	failed(view: ReportView, reason: string): SlackMessage;
}

/** A report the bot asked for and has not finished with (persisted: a restart picks it up). */
export interface ReportJob extends ReportView {
	/** The asset E22 and E23 are asked about (the first of the report). */
	assetId: number;
	assetIds: number[];
	channel: string;
	channelId?: string;
	ts?: string;
	/** Epoch ms (the bot's clock) the report was requested. */
	requestedAt: number;
	/** The platform said Created; the file is still to be delivered. */
	ready?: boolean;
	/** `<schedule key>:<occurrence ms>` for a scheduled report. */
	scheduleKey?: string;
	/** The PDF in Slack, once posted (the Request report step links to it). */
	fileId?: string;
	/** Failed deliveries so far (link, download or upload); given up after MAX_DELIVERIES. */
	deliveries?: number;
}

/** A report whose file cannot be delivered after this many tries (about 5 minutes when pushed) is given up, and said. */
const MAX_DELIVERIES = 5;

export type ReportOutcome =
	| { kind: 'started'; job: ReportJob; note?: string }
	| { kind: 'refused'; message: string };

export interface ReportServiceDeps {
	platform: DrivePlatform;
	directory: AssetDirectory;
	scope: SqlScope;
	publisher: Publisher;
	messages: ReportMessages;
	logger: BotLogger;
	now: () => number;
	/** Polling source: E22 is the only way to learn a report finished. Push: a fallback after `fallbackAfterMs`. */
	pollOnly: boolean;
	fallbackAfterMs?: number;
	connectivity?: ConnectivityTracker;
}

const DAY = 86_400_000;

/**
 * Reports in Slack (assumptions B35 to B39): E21 after the checks the spec states, a message in the
 * channel at once, and when the AssetReport push (or E22, polled) says Created, the PDF from the
 * 10-minute link (E23) uploaded into that message's thread; Failed is said with its likely reason.
 */
export class ReportService {
	private readonly inFlight = new Set<number>();
	private readonly store: ReportStore;

	constructor(private readonly deps: ReportServiceDeps) {
		this.store = new ReportStore(deps.scope);
	}

	private async save(job: ReportJob, status: 'creating' | 'done' | 'failed'): Promise<void> {
		await this.store.saveJob(job.reportId, status, job);
	}

	async job(reportId: number): Promise<{ status: string; job: ReportJob } | undefined> {
		return this.store.job<ReportJob>(reportId);
	}

	async pending(): Promise<ReportJob[]> {
		return this.store.jobsIn<ReportJob>('creating');
	}

	/** The assets a target names: a group's drives and motors (fleet report), or one asset (drive report). */
	private async resolve(
		target: string,
	): Promise<
		| { kind: 'group'; name: string; assets: AssetListItem[] }
		| { kind: 'asset'; asset: AssetListItem }
		| { kind: 'refused'; message: string }
	> {
		const { directory } = this.deps;
		await directory.ensure();
		const q = target.trim().toLowerCase();
		const byId = /^group:(\d+)$/.exec(q);
		const inGroup = directory
			.all()
			.filter((a) =>
				byId
					? a.assetGroupId === Number(byId[1])
					: (a.assetGroupName ?? '').toLowerCase() === q ||
						`group ${a.assetGroupName ?? ''}`.toLowerCase() === q,
			);
		const groups = new Map(inGroup.map((a) => [a.assetGroupId, a]));
		if (groups.size > 1) {
			const list = [...groups.values()]
				.map(
					(a) =>
						`group:${a.assetGroupId} (${a.organizationName ?? 'organization ' + a.organizationId})`,
				)
				.join(', ');
			return {
				kind: 'refused',
				message: `Several organizations have a group called "${target}": ${list}. Name the one you mean by its id, e.g. \`report ${list.split(' ')[0]} 7d\`.`,
			};
		}
		if (inGroup.length > 0)
			return {
				kind: 'group',
				name: inGroup[0].assetGroupName ?? target,
				assets: inGroup.filter((a) => !isPowerTrain(a)),
			};
		const found = directory.lookup(target);
		if (found.kind === 'none') {
			const hint = found.suggestions.length
				? ` Did you mean ${found.suggestions
						.slice(0, 3)
						.map((a) => `"${a.name ?? a.id}"`)
						.join(', ')}?`
				: '';
			return { kind: 'refused', message: `No asset or asset group is called "${target}".${hint}` };
		}
		if (found.kind === 'ambiguous')
			return {
				kind: 'refused',
				message: `${found.total} assets match "${target}": ${found.matches
					.slice(0, 5)
					.map((a) => `${a.name} (id ${a.id})`)
					.join(', ')}. Name one by its id or serial number.`,
			};
		if (isPowerTrain(found.asset)) {
			const members = membersOf(found.asset)
				.map((a) => `${a.assetType} ${a.name ?? a.id} (id ${a.id})`)
				.join(' or ');
			return {
				kind: 'refused',
				message: `${found.asset.name ?? 'This asset'} is a PowerTrain, which the platform does not report on. Report its ${members || 'drive or motor'} instead.`,
			};
		}
		return { kind: 'asset', asset: found.asset };
	}

	/** When an asset can first be reported (it must be 7 days old), or undefined when it can now. */
	private async tooYoung(assetId: number): Promise<string | undefined> {
		const detail = await this.deps.directory.detail(assetId);
		const created = detail.createdOn ? Date.parse(detail.createdOn) : Number.NaN;
		if (Number.isNaN(created) || this.deps.now() - created >= REPORT_MIN_AGE_DAYS * DAY)
			return undefined;
		return new Date(created + REPORT_MIN_AGE_DAYS * DAY).toISOString().slice(0, 10);
	}

	/** Checks, E21, the job, the "creating…" message. Never throws: a refusal is a sentence. */
	async request(
		input: ReportRequestText & {
			channel: string;
			requestedBy?: string;
			schedule?: string;
			scheduleKey?: string;
		},
	): Promise<ReportOutcome> {
		try {
			const target = await this.resolve(input.target);
			if (target.kind === 'refused') return target;
			let assets: AssetListItem[];
			let note: string | undefined;
			if (target.kind === 'asset') {
				const from = await this.tooYoung(target.asset.id);
				if (from)
					return {
						kind: 'refused',
						message: `${target.asset.name} was added less than ${REPORT_MIN_AGE_DAYS} days ago; the platform reports on it from ${from}.`,
					};
				assets = [target.asset];
			} else {
				// The platform refuses a whole fleet report for one asset it cannot report on: those are left out, and said.
				const young: string[] = [];
				const unreportable: string[] = [];
				assets = [];
				for (const asset of target.assets) {
					const level = await this.level(asset.id);
					if (level === undefined || level === 'Entry')
						unreportable.push(asset.name ?? String(asset.id));
					else if (await this.tooYoung(asset.id)) young.push(asset.name ?? String(asset.id));
					else assets.push(asset);
				}
				if (assets.length === 0)
					return {
						kind: 'refused',
						message: `Group ${target.name} has no drive or motor the platform can report on: each is at Entry level, without an active subscription, or added less than ${REPORT_MIN_AGE_DAYS} days ago.`,
					};
				const left = [
					...(young.length
						? [`added less than ${REPORT_MIN_AGE_DAYS} days ago: ${young.join(', ')}`]
						: []),
					...(unreportable.length
						? [
								`no reports at their subscription (Entry or none active): ${unreportable.join(', ')}`,
							]
						: []),
				];
				if (left.length) note = `Left out (${left.join('; ')}).`;
			}
			const drive = target.kind === 'asset';
			const what = drive
				? `drive report of ${target.asset.name} (${target.asset.serialNumber})`
				: `fleet report of group ${target.name} (${assets.length} assets)`;
			const title = (
				input.title ?? (drive ? `Drive report ${target.asset.name}` : `Fleet report ${target.name}`)
			).slice(0, 50);
			const report = await this.deps.platform.assetData.createReport({
				assetIds: assets.map((a) => a.id),
				title,
				subTitle: `${input.startDate} to ${input.endDate}`,
				reportType: drive ? 'UserDriveReport' : 'UserFleetReport',
				startDate: input.startDate,
				endDate: input.endDate,
			});
			const job: ReportJob = {
				reportId: report.id,
				title,
				what,
				startDate: input.startDate,
				endDate: input.endDate,
				requestedBy: input.requestedBy,
				schedule: input.schedule,
				assetId: assets[0].id,
				assetIds: assets.map((a) => a.id),
				channel: input.channel,
				requestedAt: this.deps.now(),
				scheduleKey: input.scheduleKey,
			};
			await this.save(job, 'creating');
			await this.announce(job);
			// A report can finish before its message was posted (a fast platform): look now.
			if (report.status !== 'Creating') await this.onStatus(report.id, report.status);
			return { kind: 'started', job, note };
		} catch (error) {
			return { kind: 'refused', message: await this.sentence(error, input.target) };
		}
	}

	/** The report a schedule's occurrence already asked for (a crash after E21), if any. */
	async findRequested(scheduleKey: string, occurrence: number): Promise<number | undefined> {
		return (await this.store.allJobs<ReportJob>()).find(
			(r) => r.job.scheduleKey === `${scheduleKey}:${occurrence}`,
		)?.reportId;
	}

	/** A report that will not come (refused schedule, undeliverable file), said in its channel or thread. */
	async announceRefusal(channel: string, text: string, threadTs?: string): Promise<void> {
		await this.deps.publisher
			.post(
				channel,
				{ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] },
				threadTs,
			)
			.catch((error: unknown) =>
				this.deps.logger.warn(`reports: refusal not posted in ${channel} (${errorText(error)})`),
			);
	}

	private async announce(job: ReportJob): Promise<void> {
		try {
			const posted = await this.deps.publisher.post(job.channel, this.deps.messages.creating(job));
			job.channelId = posted.channelId;
			job.ts = posted.ts;
			await this.save(job, 'creating');
		} catch (error) {
			// The PDF still comes, in the channel instead of a thread.
			this.deps.logger.warn(
				`reports: "creating" message of report ${job.reportId} not posted in ${job.channel} (${errorText(error)})`,
			);
		}
	}

	/** A refusal in the user's terms (never endpoint numbers or raw codes). */
	private async sentence(error: unknown, target: string): Promise<string> {
		if (error instanceof ValidationError)
			return `The report request was refused before sending: ${error.field} ${error.rule}.`;
		if (assetStandingRefusal(error) === 'levelDenied') {
			const found = this.deps.directory.lookup(target);
			const level = found.kind === 'found' ? await this.level(found.asset.id) : undefined;
			return explainLevelDenial('reports', level);
		}
		if (assetStandingRefusal(error) === 'expired')
			return `The subscription of ${target} has expired, so the platform makes no reports for it. Renew the subscription, then ask again.`;
		if (error instanceof DriveMonitoringApiError)
			return `The platform refused the report: ${error.meaning}${error.apiMessage ? ` (${error.apiMessage})` : ''}.`;
		this.deps.logger.warn(`reports: request for ${target} failed (${errorText(error)})`);
		return `The report could not be requested: the platform did not answer (${errorText(error)}). Try again in a few minutes.`;
	}

	/** The level of the active subscription; undefined when none is active (or it cannot be read). */
	private async level(assetId: number) {
		try {
			const subscriptions = await this.deps.platform.assets.listSubscriptions({ assetId });
			return toLevel(subscriptions.find((s) => s.status === 'Activated')?.level);
		} catch {
			return undefined;
		}
	}

	/** An AssetReport push (or an E22 status): Created delivers the PDF, Failed is announced. */
	async onStatus(reportId: number, status: string): Promise<void> {
		const known = await this.job(reportId);
		if (!known || known.status !== 'creating') return; // not ours, or already finished
		if (status === 'Created') await this.deliver(known.job);
		else if (status === 'Failed') await this.fail(known.job);
	}

	async onPushedReport(report: Pick<PlatformReport, 'id' | 'status'>): Promise<void> {
		await this.onStatus(report.id, report.status);
	}

	private async deliver(job: ReportJob): Promise<void> {
		if (this.inFlight.has(job.reportId)) return;
		this.inFlight.add(job.reportId);
		try {
			job.ready = true;
			await this.save(job, 'creating');
			// The link lives 10 minutes (A7): fetched only now, used at once.
			const link = await this.deps.platform.assetData.getReportDownload({
				assetId: job.assetId,
				reportId: job.reportId,
			});
			if (!link.fileTemplink)
				throw new Error(`the platform gave no link (status ${link.status ?? 'unknown'})`);
			const file = await this.deps.platform.files.download(link.fileTemplink);
			// A proxy's or firewall's page answered with 200 must not reach the channel as the report.
			if (file.data.subarray(0, 5).toString('latin1') !== '%PDF-')
				throw new Error(
					`the link answered ${file.mimeType} (${file.data.length} bytes), not a PDF`,
				);
			const filename = /\.pdf$/i.test(file.fileName) ? file.fileName : `report-${job.reportId}.pdf`;
			const channel = job.channelId ?? job.channel;
			job.fileId = await this.deps.publisher.upload(
				channel,
				{ data: file.data, filename, title: job.title },
				`:page_facing_up: ${job.title}: ${job.what}, ${job.startDate} to ${job.endDate} (UTC+8)`,
				job.ts,
			);
			await this.save(job, 'done');
			if (job.ts)
				await this.deps.publisher
					.update(channel, job.ts, this.deps.messages.ready(job))
					.catch((e: unknown) =>
						this.deps.logger.warn(
							`reports: message of report ${job.reportId} not updated (${errorText(e)})`,
						),
					);
			this.deps.logger.info(
				`reports: report ${job.reportId} (${job.title}) posted in ${job.channel}`,
			);
		} catch (error) {
			job.deliveries = (job.deliveries ?? 0) + 1;
			if (job.deliveries < MAX_DELIVERIES) {
				await this.save(job, 'creating');
				this.deps.logger.warn(
					`reports: report ${job.reportId} not delivered yet (${errorText(error)}); tried again shortly`,
				);
			} else {
				await this.save(job, 'failed');
				this.deps.logger.error(
					`reports: report ${job.reportId} given up after ${job.deliveries} tries (${errorText(error)})`,
				);
				const text = `:x: “${job.title}” was made, but its PDF could not be posted here (${errorText(error)}). Download it from the platform's portal, or ask again.`;
				await this.announceRefusal(job.channelId ?? job.channel, text, job.ts);
			}
		} finally {
			this.inFlight.delete(job.reportId);
		}
	}

	private async fail(job: ReportJob): Promise<void> {
		const reason = await this.likelyReason(job);
		await this.save(job, 'failed');
		const message = this.deps.messages.failed(job, reason);
		const channel = job.channelId ?? job.channel;
		try {
			if (job.ts) {
				await this.deps.publisher.update(channel, job.ts, message);
				await this.deps.publisher.post(
					channel,
					{ text: message.text, blocks: message.blocks.slice(0, 1) },
					job.ts,
				);
			} else await this.deps.publisher.post(channel, message);
		} catch (error) {
			this.deps.logger.warn(
				`reports: failure of report ${job.reportId} not announced (${errorText(error)})`,
			);
		}
	}

	/** The platform gives no reason (spec: Report has none): the likeliest one, from what we know (B38). */
	async likelyReason(job: Pick<ReportJob, 'assetIds' | 'startDate' | 'endDate'>): Promise<string> {
		const start = utc8DateToInstant(job.startDate).getTime();
		const end = utc8DateToInstant(job.endDate).getTime();
		const reasons: string[] = [];
		let missing = 0;
		for (const id of job.assetIds) {
			try {
				const detail = await this.deps.platform.assets.get({ id });
				const created = detail.createdOn ? Date.parse(detail.createdOn) : Number.NaN;
				const name = detail.name ?? `asset ${id}`;
				if (created >= end)
					reasons.push(`${name} was added after the period ended, so it has no data in it`);
				else if (created > start)
					reasons.push(`${name} was added during the period, so part of it has no data`);
				const link = await this.deps.connectivity?.link(id);
				if (link?.state === 'offline' && Date.parse(link.since) <= start)
					reasons.push(`${name} has been offline since before the period began`);
			} catch (error) {
				if (error instanceof DriveMonitoringApiError && error.code === 102201) missing++;
			}
		}
		if (missing === job.assetIds.length)
			return 'Likely reason: the asset was deleted before the report was made.';
		if (reasons.length > 0)
			return `Likely reason: ${reasons.slice(0, 3).join('; ')}. Try a period when the assets sent data.`;
		return 'The platform gives no reason; most often no data was collected for the assets in the period. Try another period, or ask again later.';
	}

	/**
	 * E22 for reports still Creating: always when polling, in push mode for those the push has not settled.
	 * `stopped`: asked before each report, so a check being stopped ends after the report it is at.
	 */
	async checkPending(stopped: () => boolean = () => false): Promise<void> {
		const now = this.deps.now();
		for (const job of await this.pending()) {
			if (stopped()) return;
			if (job.ready) {
				await this.deliver(job);
				continue;
			}
			if (!this.deps.pollOnly && now - job.requestedAt < (this.deps.fallbackAfterMs ?? 120_000))
				continue;
			try {
				const reports = await this.deps.platform.assetData.listReports({ assetId: job.assetId });
				const report = reports.find((r) => r.id === job.reportId);
				if (report) await this.onStatus(report.id, report.status);
				else if (now - job.requestedAt > 7 * DAY) {
					// E22 lists the last 7 days only: it will never be seen again.
					await this.save(job, 'failed');
					this.deps.logger.warn(
						`reports: report ${job.reportId} is no longer listed by the platform; given up`,
					);
				}
			} catch (error) {
				this.deps.logger.warn(
					`reports: status of report ${job.reportId} not read (${errorText(error)})`,
				);
			}
		}
	}
}
