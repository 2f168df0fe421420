import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';
import { callSignal } from '../../../../shared/timers/wait';
import { formatDuration } from '../../../../shared/errors';
import { resolveTarget } from '../../../../shared/resolve/directory';
import type { Report } from '../../../../shared/schemas';
import type { DriveMonitoringClient } from '../../transport';
import type { Operation } from '../types';
import {
	binaryPropertyOption,
	getCalendarDateParameter,
	resolveIdParameter,
	getTextParameter,
	locator,
} from '../common';
import { toItems } from '../output';
import { downloadAsItem, linkExpiresAt } from '../../helpers/files';

const waiting = { show: { waitUntilReady: [true] } };

const properties: INodeProperties[] = [
	{
		displayName: 'Report Type',
		name: 'reportType',
		type: 'options',
		default: 'UserDriveReport',
		options: [
			{ name: 'Single Asset (Drive Report)', value: 'UserDriveReport' },
			{ name: 'Several Assets (Fleet Report)', value: 'UserFleetReport' },
		],
	},
	{ ...locator('asset'), displayOptions: { show: { reportType: ['UserDriveReport'] } } },
	{
		displayName: 'Asset Names or IDs',
		name: 'assetIds',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getAssets' },
		default: [],
		required: true,
		displayOptions: { show: { reportType: ['UserFleetReport'] } },
		description:
			'Assets in the fleet report. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		hint: 'An expression may also give names: a name, serial number or part of one that matches only that asset (text is split at commas)',
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		required: true,
		description: 'Up to 50 characters',
	},
	{
		displayName: 'Subtitle',
		name: 'subTitle',
		type: 'string',
		default: '',
		description: 'Up to 50 characters',
	},
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		default: '={{ $now.setZone("Asia/Shanghai").minus({ days: 7 }).toISODate() }}',
		required: true,
		description: "First day of the report, as a calendar date in the platform's time zone (UTC+8)",
	},
	{
		displayName: 'End Date',
		name: 'endDate',
		type: 'dateTime',
		default: '={{ $now.setZone("Asia/Shanghai").toISODate() }}',
		required: true,
		description: 'Last day of the report; the report covers 7 to 90 days',
	},
	{
		displayName: 'Wait Until Ready',
		name: 'waitUntilReady',
		type: 'boolean',
		default: true,
		description:
			'Whether to wait until the report is generated and download it, instead of returning at once with status Creating',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		default: 600,
		typeOptions: { minValue: 1 },
		displayOptions: waiting,
		description: 'How long to wait for the report before failing',
	},
	{
		displayName: 'Poll Interval (Seconds)',
		name: 'pollIntervalSeconds',
		type: 'number',
		default: 15,
		typeOptions: { minValue: 0.1 },
		displayOptions: waiting,
		description: 'How often to check whether the report is ready',
	},
	{
		displayName: 'Download File',
		name: 'download',
		type: 'boolean',
		default: true,
		displayOptions: waiting,
		description:
			'Whether to download the finished report as binary data instead of returning its temporary link',
	},
	{
		...binaryPropertyOption(),
		displayOptions: { show: { waitUntilReady: [true], download: [true] } },
	},
];

export const create: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action:
			'Create a report: request a new report for an asset and return the report ID (it is generated in the background); use when a person asked for a report',
		description:
			'Generate a PDF report on one asset or a fleet over 7 to 90 days, optionally wait until it is ready and download it (Basic level and above)',
	},
	properties,
	async execute(client, itemIndex) {
		const reportType = this.getNodeParameter('reportType', itemIndex) as
			| 'UserDriveReport'
			| 'UserFleetReport';
		const assetIds =
			reportType === 'UserDriveReport'
				? [await resolveIdParameter.call(this, client, 'asset', itemIndex)]
				: await toAssetIds.call(
						this,
						client,
						this.getNodeParameter('assetIds', itemIndex),
						itemIndex,
					);
		const created = await client.assetData.createReport({
			assetIds,
			reportType,
			title: getTextParameter.call(this, 'title', 'Title', itemIndex),
			subTitle: String(this.getNodeParameter('subTitle', itemIndex, '')),
			startDate: getCalendarDateParameter.call(this, 'startDate', 'Start Date', itemIndex),
			endDate: getCalendarDateParameter.call(this, 'endDate', 'End Date', itemIndex),
		});
		if (!this.getNodeParameter('waitUntilReady', itemIndex)) return toItems(created);

		const timeoutMs = (this.getNodeParameter('timeoutSeconds', itemIndex) as number) * 1000;
		const intervalMs = (this.getNodeParameter('pollIntervalSeconds', itemIndex) as number) * 1000;
		const ready = await waitForReport.call(
			this,
			client,
			assetIds[0],
			created,
			timeoutMs,
			intervalMs,
			itemIndex,
		);
		const link = await client.assetData.getReportDownload({
			assetId: assetIds[0],
			reportId: ready.id,
		});
		const json = {
			...ready,
			fileTemplink: link.fileTemplink,
			...(link.fileTemplink ? { fileTemplinkExpiresAt: linkExpiresAt() } : {}),
		};
		if (!this.getNodeParameter('download', itemIndex) || !link.fileTemplink) return toItems(json);
		const binaryPropertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
		return [await downloadAsItem.call(this, client, link.fileTemplink, binaryPropertyName, json)];
	},
};

/**
 * The fleet's asset IDs: an ID is taken as is; a name, serial number or part of one is resolved as
 * in the other asset fields (shared/resolve), and one that is not exactly one asset is refused
 * before the report is requested, naming the entry and the candidates.
 */
async function toAssetIds(
	this: IExecuteFunctions,
	client: DriveMonitoringClient,
	value: unknown,
	itemIndex: number,
): Promise<number[]> {
	const list = (Array.isArray(value) ? value : String(value ?? '').split(','))
		.map((v) => String(v).trim())
		.filter((v) => v !== '');
	if (list.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Asset Names or IDs is empty', {
			itemIndex,
			description:
				'A fleet report needs one or more assets: their IDs, or names that match only them.',
		});
	}
	const ids: number[] = [];
	for (const entry of list) {
		const resolved = await resolveTarget(client, 'asset', entry);
		if ('refusal' in resolved) {
			throw new NodeOperationError(this.getNode(), `Asset Names or IDs: ${resolved.refusal}`, {
				itemIndex,
				description:
					'Choose the assets from the list, or give their IDs or names that match only them.',
			});
		}
		ids.push(resolved.id);
	}
	return [...new Set(ids)];
}

/**
 * Poll the report list (E22) until the report is Created; Failed, the timeout and the execution's
 * cancellation end the wait with an error. The timeout holds: no wait goes past it, and the list
 * call made last gets only the time that is left. Cancelling the execution (Stop, or Timeout
 * Workflow) ends a wait or a list call at once.
 */
async function waitForReport(
	this: IExecuteFunctions,
	client: DriveMonitoringClient,
	assetId: number,
	created: Report,
	timeoutMs: number,
	intervalMs: number,
	itemIndex: number,
): Promise<Report> {
	const cancel = this.getExecutionCancelSignal?.();
	const started = Date.now();
	const deadline = started + timeoutMs;
	const seconds = Number((timeoutMs / 1000).toFixed(3));
	let current = created;
	const cancelled = () =>
		new NodeOperationError(
			this.getNode(),
			`Stopped waiting for report ${created.id}: the execution was cancelled`,
			{
				itemIndex,
				description: `The execution was stopped (by a person, or by Timeout Workflow in the workflow settings) while the report was still ${current.status}. The platform goes on generating it: download it later with Report > Download, or run the workflow again with "Wait Until Ready" and a "Timeout (Seconds)" that fits in the workflow's timeout.`,
			},
		);
	const timedOut = () =>
		new NodeOperationError(
			this.getNode(),
			`Report ${created.id} was not ready within ${formatDuration(timeoutMs)}`,
			{
				itemIndex,
				description: `Its status is still ${current.status} after ${formatDuration(Date.now() - started)} (Timeout (Seconds) is ${seconds}). Increase "Timeout (Seconds)", or turn off "Wait Until Ready" and download it later with Report > Download.`,
			},
		);
	for (;;) {
		if (current.status === 'Created') return current;
		if (current.status === 'Failed') {
			throw new NodeOperationError(this.getNode(), `Report ${created.id} failed to generate`, {
				itemIndex,
				description:
					'The platform marked the report as Failed. Check that every asset is at least 7 days old and try again.',
			});
		}
		if (cancel?.aborted) throw cancelled();
		const left = deadline - Date.now();
		if (left <= 0) throw timedOut();
		// The last wait ends at the deadline, never after it; n8n's sleep rejects only when the signal aborts.
		await sleep(Math.min(intervalMs, left), cancel).catch(() => {
			throw cancelled();
		});
		const remaining = deadline - Date.now();
		if (remaining <= 0) throw timedOut();
		// The list call gets what is left of the timeout, and ends with the execution; other
		// errors go on to the node's error handling (which request, what to do).
		const bound = callSignal([cancel], remaining);
		const listed = await client.assetData
			.listReports({ assetId }, { signal: bound.signal })
			.then(
				(reports) => reports.find((report) => report.id === created.id),
				(error: unknown) => {
					if (cancel?.aborted) throw cancelled();
					if (bound.deadlinePassed()) throw timedOut();
					return Promise.reject(error);
				},
			)
			.finally(() => bound.clear());
		if (listed) current = listed;
	}
}
