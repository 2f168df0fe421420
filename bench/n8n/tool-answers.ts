/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a benchmark program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Figure "tool-answers" of `npm run bench:n8n`: what a model receives from our node as
// an AI tool against what it receives from n8n's HTTP Request tool for the same question, both
// tools of one AI Agent in the same real n8n, against the simulator. The model is the scripted
// OpenAI-compatible server of the real-n8n tests: it calls every tool, and the tool results it
// records are exactly what n8n sends a model (JSON.stringify of the tool's output items).
import type { DriveMonitoringClient } from '../../shared';
import { formatUtc } from '../../shared/time';
import type { Simulator } from '../../simulator';
import type { WorkflowJson, WorkflowNode } from '../../test/n8n/harness';
import { agentWith } from '../../test/n8n/helpers/agent-workflows';
import type { ToolCall, ToolResult } from '../../test/n8n/helpers/scripted-model';
import { CREDENTIALS, TYPES } from './packages';
import { CREDENTIAL_IDS } from './workflows';

const DAY = 86_400_000;

/**
 * The goals of the figure. A raw answer is "large" over 16 KB: the bound set for a tool answer. Below it the raw answer is no burden to cut tenfold (a list of 47 events cut to the
 * newest 20 cannot be 10x smaller and keep its 20 entries).
 */
export const TOOL_ANSWER_GOALS = { maxTokens: 4000, minRatio: 10, largeRawBytes: 16_000 } as const;

export const TOKEN_ESTIMATOR =
	'o200k_base (the tokenizer of OpenAI GPT-4o and later models), counted with js-tiktoken';

/** Counts tokens as OpenAI's current models do (o200k_base), with js-tiktoken (an ES module). */
async function tokenCounter(): Promise<(text: string) => number> {
	const [{ Tiktoken }, ranks] = await Promise.all([
		import('js-tiktoken/lite'),
		import('js-tiktoken/ranks/o200k_base'),
	]);
	const encoder = new Tiktoken(ranks.default);
	return (text) => encoder.encode(text).length;
}

/** The scripted model's credential, as the real-n8n tests name it. */
export { OPENAI_CREDENTIAL } from '../../test/n8n/helpers/agent-workflows';

type Json = Record<string, unknown>;

/** One question a technician could ask, put to both tools. */
interface Question {
	key: string;
	/** the operation of our node, as the docs name it */
	operation: string;
	question: string;
	/** our tool's parameters ($fromAI where a model fills them) */
	ours: Json;
	/** what the model sends our tool */
	oursCall: Json;
	/** the HTTP Request tool: method, URL and, for POST, the JSON body (expressions with $fromAI) */
	http: { method: 'GET' | 'POST'; url: string; query?: Record<string, string>; jsonBody?: string };
	/** what the model sends the HTTP Request tool: one call, or several when the API needs windows */
	httpCalls: Json[];
	/** what "the same facts" means here, and the check: problems found (none: the same facts) */
	facts: string;
	check(ours: unknown, raw: unknown[]): string[];
}

/** What the model fills, as `$fromAI()` calls (inside `{{ }}` of an n8n expression). */
const ai = {
	assetId: "$fromAI('assetId', 'The numeric ID of the asset, e.g. 100001', 'number')",
	startTime:
		"$fromAI('startTime', 'Start of the time range, ISO 8601 UTC, e.g. 2026-05-01T08:00:00Z', 'string')",
	endTime:
		"$fromAI('endTime', 'End of the time range, ISO 8601 UTC, e.g. 2026-05-08T08:00:00Z', 'string')",
	eventId: "$fromAI('eventId', 'The numeric ID of the event', 'number')",
	reportId: "$fromAI('reportId', 'The numeric ID of the report', 'number')",
	backupId: "$fromAI('backupId', 'The ID of the parameter backup', 'string')",
};
/** An n8n expression: text with `{{ }}` parts. */
const expr = (text: string) => `=${text}`;
const fill = (call: string) => `{{ ${call} }}`;
const asset = { __rl: true, mode: 'id', value: expr(fill(ai.assetId)) };

/** A field of an API record (PascalCase) or of our output (camelCase), by name in any case. */
function field(record: unknown, name: string): unknown {
	if (!record || typeof record !== 'object') return undefined;
	const key = Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
	return key === undefined ? undefined : (record as Json)[key];
}

/** Our answer's entries: the items, or the entries of a cut list (with its total). */
function entriesOf(ours: unknown): { entries: Json[]; total: number } {
	const items = ours as Json[];
	if (items.length === 1 && Array.isArray(items[0].entries))
		return { entries: items[0].entries as Json[], total: Number(items[0].total) };
	return { entries: items, total: items.length };
}

/** The API's payload in an HTTP Request tool answer (the envelope is one output item). */
function payloadOf(output: string): unknown {
	const parsed = JSON.parse(output) as unknown;
	const items = Array.isArray(parsed) ? parsed : [parsed];
	if (items.length !== 1 || field(items[0], 'payload') === undefined)
		throw new Error(`not an API envelope: ${output.slice(0, 300)}`);
	return field(items[0], 'payload');
}

const ids = (records: unknown[]): string[] => records.map((r) => String(field(r, 'id')));
const expectEqual = (what: string, ours: unknown, raw: unknown): string[] =>
	JSON.stringify(ours) === JSON.stringify(raw)
		? []
		: [`${what}: ours ${JSON.stringify(ours)}, raw ${JSON.stringify(raw)}`];

/** A list's facts: the total, and every entry we give is one of the raw list's, the newest first when cut. */
function sameList(ours: unknown, raw: Json[], timeField?: string): string[] {
	const { entries, total } = entriesOf(ours);
	const problems = expectEqual('count', total, raw.length);
	const rawIds = new Set(ids(raw));
	const missing = ids(entries).filter((id) => !rawIds.has(id));
	if (missing.length) problems.push(`entries not in the raw list: ${missing.join(', ')}`);
	if (timeField && entries.length < raw.length) {
		const newest = [...raw]
			.sort(
				(a, b) => Date.parse(String(field(b, timeField))) - Date.parse(String(field(a, timeField))),
			)
			.slice(0, entries.length);
		problems.push(...expectEqual('the newest entries', ids(entries).sort(), ids(newest).sort()));
	}
	return problems;
}

/** Raw E17 series of one code over several windows: numbers as our node reads them (value, else average). */
function rawSeries(windows: unknown[], code: string): { values: number[]; points: number } {
	const values: number[] = [];
	let points = 0;
	for (const payload of windows) {
		const series = (field(payload, 'paramDatas') as Json[]).find(
			(p) => field(field(p, 'config'), 'code') === code,
		);
		if (!series) continue;
		const value = field(series, 'value') as unknown[];
		const avg = field(series, 'avg') as unknown[];
		const timestamps = field(series, 'timestamp') as unknown[];
		points += timestamps.length;
		timestamps.forEach((_, i) => {
			const v = typeof value[i] === 'number' ? value[i] : avg[i];
			if (typeof v === 'number') values.push(v);
		});
	}
	return { values, points };
}

/** Windows of at most `days` days covering [start, end): what a model must ask the raw API for. */
function windows(
	start: number,
	end: number,
	days: number,
): Array<{ startTime: string; endTime: string }> {
	const out: Array<{ startTime: string; endTime: string }> = [];
	for (let from = start; from < end; from += days * DAY)
		out.push({
			startTime: formatUtc(new Date(from)),
			endTime: formatUtc(new Date(Math.min(from + days * DAY, end))),
		});
	return out;
}

export interface ToolAnswerSetup {
	sim: Simulator;
	client: DriveMonitoringClient;
	apiBase: string;
	orgId: number;
}

/** The questions, on the simulator's fleet: a Premium drive with CBM, its group, an event with a logger file, a report, a backup. */
export async function toolAnswerQuestions({
	sim,
	client,
	apiBase,
	orgId,
}: ToolAnswerSetup): Promise<Question[]> {
	const now = Math.floor(sim.clock.now() / 1000) * 1000;
	const assets = sim.fleet.assets().filter((a) => a.orgId === orgId);
	const drive = assets.find(
		(a) => a.assetType === 'Drive' && a.level === 'Premium' && a.cbmCapable,
	);
	if (!drive)
		throw new Error(
			'tool-answers: the simulator has no Premium drive with CBM in the organization',
		);
	const groupId = drive.groupId;
	const quarter = { start: now - 90 * DAY, end: now };
	const events = await client.ranges.events({
		assetId: drive.id,
		startTime: new Date(quarter.start),
		endTime: new Date(quarter.end),
	});
	const withLogger = events.find((e) => e.isHasEventLogger);
	if (!withLogger)
		throw new Error(`tool-answers: drive ${drive.id} has no event with a logger file in 90 days`);
	const config = await client.assetData.getTrendSignalConfig({ assetId: drive.id });
	const codes = config.trends.slice(0, 2).map((t) => t.code);
	const allCodes = [...config.trends, ...config.signals].map((t) => t.code);
	const month = { start: now - 30 * DAY, end: now };
	const year = {
		startTime: formatUtc(new Date(now - 365 * DAY + 60_000)),
		endTime: formatUtc(new Date(now)),
	};
	const [backup] = await client.assetData.listParameterBackups({
		assetId: drive.id,
		startTime: new Date(year.startTime),
		endTime: new Date(year.endTime),
	});
	if (!backup) throw new Error(`tool-answers: drive ${drive.id} has no parameter backup in a year`);
	const report = await readyReport(client, drive.id, now);
	const week = { startTime: formatUtc(new Date(now - 7 * DAY)), endTime: formatUtc(new Date(now)) };
	const trendRange = { start: now - 45 * DAY, end: now };
	const assetCall = { assetId: drive.id };
	const rangeQuery = { startTime: expr(fill(ai.startTime)), endTime: expr(fill(ai.endTime)) };

	return [
		{
			key: 'org_get',
			operation: 'Organization > Get',
			question: 'Which organization am I in?',
			ours: { resource: 'organization', operation: 'get' },
			oursCall: {},
			http: { method: 'GET', url: `${apiBase}/organization` },
			httpCalls: [{}],
			facts: 'id and name',
			check: (ours, [raw]) => [
				...expectEqual('id', field((ours as Json[])[0], 'id'), field(raw, 'id')),
				...expectEqual('name', field((ours as Json[])[0], 'name'), field(raw, 'name')),
			],
		},
		{
			key: 'org_tree',
			operation: 'Organization > Get Tree',
			question: 'What plants and asset groups do we have?',
			ours: { resource: 'organization', operation: 'getTree', output: 'tree' },
			oursCall: {},
			http: { method: 'GET', url: `${apiBase}/organization/nodes` },
			httpCalls: [{}],
			facts: 'every id and name of the tree',
			check: (ours, [raw]) => expectEqual('ids and names', namesAndIds(ours), namesAndIds(raw)),
		},
		{
			key: 'org_stats',
			operation: 'Organization > Get Asset Statistics',
			question: 'How many drives and motors do we have?',
			ours: {
				resource: 'organization',
				operation: 'getAssetStatistics',
				organization: { __rl: true, mode: 'id', value: String(orgId) },
			},
			oursCall: {},
			http: { method: 'GET', url: `${apiBase}/organization/${orgId}/asset/statistics` },
			httpCalls: [{}],
			facts: 'drive, motor and powertrain counts',
			check: (ours, [raw]) =>
				['drive', 'motor', 'powertrain'].flatMap((k) =>
					expectEqual(k, field((ours as Json[])[0], k), field(raw, k)),
				),
		},
		{
			key: 'assets_org',
			operation: 'Asset > Get Many in Organization',
			question: 'Which assets do we have?',
			ours: {
				resource: 'asset',
				operation: 'getManyInOrganization',
				organization: { __rl: true, mode: 'id', value: String(orgId) },
				simplify: true,
			},
			oursCall: {},
			http: { method: 'GET', url: `${apiBase}/organization/${orgId}/assets` },
			httpCalls: [{}],
			facts: 'the number of assets; each asset given is one of the list',
			check: (ours, [raw]) => sameList(ours, raw as Json[]),
		},
		{
			key: 'assets_group',
			operation: 'Asset > Get Many in Group',
			question: "What is in the drive's group?",
			ours: {
				resource: 'asset',
				operation: 'getManyInGroup',
				organization: { __rl: true, mode: 'id', value: String(orgId) },
				assetGroup: { __rl: true, mode: 'id', value: String(groupId) },
				simplify: true,
			},
			oursCall: {},
			http: { method: 'GET', url: `${apiBase}/organization/${orgId}/assetgroup/${groupId}/assets` },
			httpCalls: [{}],
			facts: 'the number of assets; each asset given is one of the list',
			check: (ours, [raw]) => sameList(ours, raw as Json[]),
		},
		{
			key: 'asset_get',
			operation: 'Asset > Get',
			question: 'What is asset N?',
			ours: { resource: 'asset', operation: 'get', asset, simplify: true },
			oursCall: assetCall,
			http: { method: 'GET', url: expr(`${apiBase}/assetmanagement/asset/${fill(ai.assetId)}`) },
			httpCalls: [assetCall],
			facts: 'id, name, serial number, group and plant',
			check: (ours, [raw]) =>
				['id', 'name', 'serialNumber'].flatMap((k) =>
					expectEqual(k, field((ours as Json[])[0], k), field(raw, k)),
				),
		},
		{
			key: 'asset_subscriptions',
			operation: 'Asset > Get Subscriptions',
			question: 'What subscription does asset N have?',
			ours: { resource: 'asset', operation: 'getSubscriptions', asset },
			oursCall: assetCall,
			http: {
				method: 'GET',
				url: expr(`${apiBase}/assetmanagement/subscription/${fill(ai.assetId)}`),
			},
			httpCalls: [assetCall],
			facts: 'the codes, levels and statuses',
			check: (ours, [raw]) =>
				expectEqual('code level status', triples(entriesOf(ours).entries), triples(raw as Json[])),
		},
		{
			key: 'events_week',
			operation: 'Event > Get Many (7 days)',
			question: 'Did asset N fault this week?',
			ours: {
				resource: 'event',
				operation: 'getMany',
				asset,
				startTime: expr(fill(ai.startTime)),
				endTime: expr(fill(ai.endTime)),
				returnAll: true,
				filters: {},
				options: {},
			},
			oursCall: { ...assetCall, ...week },
			http: {
				method: 'GET',
				url: expr(`${apiBase}/assetdata/${fill(ai.assetId)}/event`),
				query: rangeQuery,
			},
			httpCalls: [{ ...assetCall, ...week }],
			facts: 'the number of events; each event given is one of the raw ones, the newest when cut',
			check: (ours, [raw]) => sameList(ours, raw as Json[], 'eventDateTime'),
		},
		{
			key: 'events_quarter',
			operation: 'Event > Get Many (90 days)',
			question: 'Did asset N fault this quarter?',
			ours: {
				resource: 'event',
				operation: 'getMany',
				asset,
				startTime: expr(fill(ai.startTime)),
				endTime: expr(fill(ai.endTime)),
				returnAll: true,
				filters: {},
				options: {},
			},
			oursCall: {
				...assetCall,
				startTime: formatUtc(new Date(quarter.start)),
				endTime: formatUtc(new Date(quarter.end)),
			},
			http: {
				method: 'GET',
				url: expr(`${apiBase}/assetdata/${fill(ai.assetId)}/event`),
				query: rangeQuery,
			},
			// E14 answers at most 7 days: the model has to ask for every week.
			httpCalls: windows(quarter.start, quarter.end, 7).map((w) => ({ ...assetCall, ...w })),
			facts: 'the number of events over all windows; the 20 given are the newest',
			check: (ours, raw) => sameList(ours, uniqueById(raw.flat() as Json[]), 'eventDateTime'),
		},
		{
			key: 'logger_file',
			operation: 'Event > Get Logger File',
			question: 'Get the logger file of event E',
			ours: {
				resource: 'event',
				operation: 'getLoggerFile',
				asset,
				eventId: expr(fill(ai.eventId)),
				linkOnly: false,
				options: {},
			},
			oursCall: { ...assetCall, eventId: withLogger.id },
			http: {
				method: 'GET',
				url: expr(
					`${apiBase}/assetdata/${fill(ai.assetId)}/event/${fill(ai.eventId)}/eventlogger/file`,
				),
			},
			httpCalls: [{ ...assetCall, eventId: withLogger.id }],
			facts:
				'one file per logger record; ours names the file, its size and type (the bytes stay in n8n), the raw answer gives 10-minute links',
			check: (ours, [raw]) => {
				const files = (ours as Json[]).flatMap((item) => (item.files as Json[] | undefined) ?? []);
				const problems = expectEqual('files', files.length, (raw as Json[]).length);
				if (
					files.some(
						(f) => !(Number(String(f.fileSize).replace(/[^0-9.]/g, '')) > 0) || !f.fileName,
					)
				)
					problems.push(`a file without name or size: ${JSON.stringify(files)}`);
				return problems;
			},
		},
		{
			key: 'trend_config',
			operation: 'Trend/Signal > Get Configuration',
			question: 'What does asset N measure?',
			ours: { resource: 'trendSignal', operation: 'getConfiguration', asset },
			oursCall: assetCall,
			http: {
				method: 'GET',
				url: expr(`${apiBase}/assetdata/${fill(ai.assetId)}/trendsignal/config`),
			},
			httpCalls: [assetCall],
			facts: 'every code with its unit',
			check: (ours, [raw]) => {
				const rawConfigs = [
					...((field(raw, 'trends') as Json[]) ?? []),
					...((field(raw, 'signals') as Json[]) ?? []),
				];
				return expectEqual(
					'codes and units',
					codeUnits(entriesOf(ours).entries),
					codeUnits(rawConfigs),
				);
			},
		},
		{
			key: 'trend_data',
			operation: 'Trend/Signal > Get Data (45 days, 2 codes)',
			question: 'How has asset N been running the last 45 days?',
			ours: {
				resource: 'trendSignal',
				operation: 'getData',
				asset,
				parameters: codes,
				startTime: expr(fill(ai.startTime)),
				endTime: expr(fill(ai.endTime)),
				output: 'parameter',
				simplify: true,
				options: {},
			},
			oursCall: {
				...assetCall,
				startTime: formatUtc(new Date(trendRange.start)),
				endTime: formatUtc(new Date(trendRange.end)),
			},
			http: {
				method: 'POST',
				url: `${apiBase}/assetdata/asset/trendsignal/data`,
				jsonBody: expr(
					fill(
						`JSON.stringify({ assetId: ${ai.assetId}, parameters: ${JSON.stringify(codes)}, startTime: ${ai.startTime}, endTime: ${ai.endTime} })`,
					),
				),
			},
			// E17 answers at most 30 days: two calls.
			httpCalls: windows(trendRange.start, trendRange.end, 30).map((w) => ({ ...assetCall, ...w })),
			facts: 'per signal: the number of points, min, max and last value over all windows',
			check: (ours, raw) => sameSeries(codes, ours, raw),
		},
		{
			key: 'trend_all',
			operation: `Trend/Signal > Get Data (30 days, all ${allCodes.length} codes)`,
			question: 'How has asset N been running this month, every trend and signal?',
			ours: {
				resource: 'trendSignal',
				operation: 'getData',
				asset,
				parameters: allCodes,
				startTime: expr(fill(ai.startTime)),
				endTime: expr(fill(ai.endTime)),
				output: 'parameter',
				simplify: true,
				options: {},
			},
			oursCall: {
				...assetCall,
				startTime: formatUtc(new Date(month.start)),
				endTime: formatUtc(new Date(month.end)),
			},
			http: {
				method: 'POST',
				url: `${apiBase}/assetdata/asset/trendsignal/data`,
				jsonBody: expr(
					fill(
						`JSON.stringify({ assetId: ${ai.assetId}, parameters: ${JSON.stringify(allCodes)}, startTime: ${ai.startTime}, endTime: ${ai.endTime} })`,
					),
				),
			},
			httpCalls: [
				{
					...assetCall,
					startTime: formatUtc(new Date(month.start)),
					endTime: formatUtc(new Date(month.end)),
				},
			],
			facts: 'per signal: the number of points, min, max and last value',
			check: (ours, raw) => sameSeries(allCodes, ours, raw),
		},
		{
			key: 'health',
			operation: 'Health > Get Conditions',
			question: 'How healthy is asset N?',
			ours: { resource: 'health', operation: 'getConditions', asset },
			oursCall: assetCall,
			http: { method: 'GET', url: expr(`${apiBase}/assetdata/${fill(ai.assetId)}/condition`) },
			httpCalls: [assetCall],
			facts: 'every condition type with its status',
			check: (ours, [raw]) =>
				expectEqual(
					'conditions',
					pairs(ours as Json[], 'type', 'status'),
					pairs(raw as Json[], 'type', 'status'),
				),
		},
		{
			key: 'cbm',
			operation: 'CBM > Get Results',
			question: 'When is maintenance due on asset N?',
			ours: { resource: 'cbm', operation: 'getResults', asset, simplify: true },
			oursCall: assetCall,
			http: { method: 'GET', url: expr(`${apiBase}/assetdata/${fill(ai.assetId)}/cbm`) },
			httpCalls: [assetCall],
			facts:
				'every unit with its status and predicted dates (an empty date, already past, is null in ours)',
			check: (ours, [raw]) =>
				[
					'deviceUnitStatus',
					'predictedNoPlanDate',
					'predictedStartPlanDate',
					'predictedRunPlanDate',
				].flatMap((k) =>
					expectEqual(
						k,
						pairs(ours as Json[], 'deviceUnitType', k),
						pairs(raw as Json[], 'deviceUnitType', k),
					),
				),
		},
		{
			key: 'reports',
			operation: 'Report > Get Many',
			question: 'Which reports of asset N are there?',
			ours: { resource: 'report', operation: 'getMany', asset },
			oursCall: assetCall,
			http: { method: 'GET', url: expr(`${apiBase}/assetdata/${fill(ai.assetId)}/report`) },
			httpCalls: [assetCall],
			facts: 'the reports: ids and statuses',
			check: (ours, [raw]) => [
				...sameList(ours, raw as Json[]),
				...expectEqual(
					'statuses',
					pairs(entriesOf(ours).entries, 'id', 'status'),
					pairs(raw as Json[], 'id', 'status'),
				),
			],
		},
		{
			key: 'report_download',
			operation: 'Report > Download',
			question: 'Get report R',
			ours: {
				resource: 'report',
				operation: 'download',
				asset,
				report: { __rl: true, mode: 'id', value: expr(fill(ai.reportId)) },
				linkOnly: false,
				options: {},
			},
			oursCall: { ...assetCall, reportId: report },
			http: {
				method: 'GET',
				url: expr(`${apiBase}/assetdata/${fill(ai.assetId)}/report/download/${fill(ai.reportId)}`),
			},
			httpCalls: [{ ...assetCall, reportId: report }],
			facts:
				'the report: ours names the downloaded file, its size and type; the raw answer gives a 10-minute link',
			check: (ours, [raw]) => {
				const files = (ours as Json[]).flatMap((item) => (item.files as Json[] | undefined) ?? []);
				const problems = expectEqual(
					'report id',
					field((ours as Json[])[0], 'id') ?? field((ours as Json[])[0], 'reportId'),
					field(raw, 'id'),
				);
				if (files.length !== 1 || !files[0].fileName)
					problems.push(`not one described file: ${JSON.stringify(files)}`);
				return problems;
			},
		},
		{
			key: 'backups',
			operation: 'Parameter Backup > Get Many (365 days)',
			question: 'Which parameter backups of drive N are there this year?',
			ours: {
				resource: 'parameterBackup',
				operation: 'getMany',
				asset,
				startTime: expr(fill(ai.startTime)),
				endTime: expr(fill(ai.endTime)),
			},
			oursCall: { ...assetCall, ...year },
			http: {
				method: 'GET',
				url: expr(`${apiBase}/assetdata/${fill(ai.assetId)}/parameterbackup/list`),
				query: { startUTCTime: expr(fill(ai.startTime)), endUTCTime: expr(fill(ai.endTime)) },
			},
			httpCalls: [{ ...assetCall, ...year }],
			facts: 'the number of backups; each given is one of the raw list',
			check: (ours, [raw]) => sameList(ours, raw as Json[]),
		},
		{
			key: 'backup_content',
			operation: 'Parameter Backup > Get Content',
			question: 'What is in backup B?',
			ours: {
				resource: 'parameterBackup',
				operation: 'getContent',
				asset,
				backupId: expr(fill(ai.backupId)),
				output: 'parameter',
			},
			oursCall: { ...assetCall, backupId: backup.id },
			http: {
				method: 'GET',
				url: expr(`${apiBase}/assetdata/${fill(ai.assetId)}/parameterbackup/${fill(ai.backupId)}`),
			},
			httpCalls: [{ ...assetCall, backupId: backup.id }],
			facts: 'the number of parameters; each value given equals the raw one',
			check: (ours, [raw]) => {
				const rawParameters = (raw as Json[]).flatMap((g) => field(g, 'parameters') as Json[]);
				const { entries, total } = entriesOf(ours);
				const problems = expectEqual('parameters', total, rawParameters.length);
				const rawValue = new Map(
					rawParameters.map((p) => [String(field(p, 'paraId')), field(p, 'value')]),
				);
				for (const entry of entries) {
					const id = String(field(entry, 'paraId') ?? field(entry, 'id'));
					if (rawValue.get(id) !== field(entry, 'value'))
						problems.push(
							`parameter ${id}: ours ${JSON.stringify(field(entry, 'value'))}, raw ${JSON.stringify(rawValue.get(id))}`,
						);
				}
				return problems;
			},
		},
		{
			key: 'subscription_user',
			operation: 'Data Subscription > Get User',
			question: 'Who receives our pushed data?',
			ours: { resource: 'dataSubscription', operation: 'getUser' },
			oursCall: {},
			http: { method: 'GET', url: `${apiBase}/subassetdata/subcustomer` },
			httpCalls: [{}],
			facts: 'user name and topic',
			check: (ours, [raw]) =>
				['userName', 'topic'].flatMap((k) =>
					expectEqual(k, field(entriesOf(ours).entries[0], k), field((raw as Json[])[0], k)),
				),
		},
	];
}

/** Per code: our summary's point count, min, max and last value against the raw windows'. */
function sameSeries(codes: string[], ours: unknown, raw: unknown[]): string[] {
	return codes.flatMap((code) => {
		const summary = (ours as Json[]).find((s) => s.code === code);
		if (!summary) return [`no summary of ${code}`];
		const { values, points } = rawSeries(raw, code);
		return [
			...expectEqual(`${code} points`, summary.pointCount, points),
			...expectEqual(`${code} min`, summary.min, Math.min(...values)),
			...expectEqual(`${code} max`, summary.max, Math.max(...values)),
			...expectEqual(`${code} last`, (summary.last as Json).value, values[values.length - 1]),
		];
	});
}

function uniqueById(records: Json[]): Json[] {
	return [...new Map(records.map((r) => [String(field(r, 'id')), r])).values()];
}

/** key=value per record; an empty text is null, as the core reads it (a CBM date that has passed). */
function pairs(records: Json[], key: string, value: string): string[] {
	return records
		.map(
			(r) =>
				`${String(field(r, key))}=${JSON.stringify(field(r, value) === '' ? null : (field(r, value) ?? null))}`,
		)
		.sort();
}

function triples(records: Json[]): string[] {
	return records
		.map((r) => ['code', 'level', 'status'].map((k) => String(field(r, k))).join(' '))
		.sort();
}

function codeUnits(records: Json[]): string[] {
	return records.map((r) => `${String(field(r, 'code'))} ${String(field(r, 'unit'))}`).sort();
}

/** Every (id, name) pair anywhere in a tree, whatever the key case. */
function namesAndIds(tree: unknown): string[] {
	const found = new Set<string>();
	const walk = (node: unknown) => {
		if (Array.isArray(node)) return node.forEach(walk);
		if (!node || typeof node !== 'object') return;
		const id = field(node, 'id');
		const name = field(node, 'name');
		if (id !== undefined && name !== undefined) found.add(`${String(id)} ${String(name)}`);
		Object.values(node).forEach(walk);
	};
	walk(tree);
	return [...found].sort();
}

/** A report of the drive, created now if none from the last 7 days is ready. */
async function readyReport(
	client: DriveMonitoringClient,
	assetId: number,
	now: number,
): Promise<number> {
	const ready = (await client.assetData.listReports({ assetId })).find(
		(r) => r.status === 'Created',
	);
	if (ready) return ready.id;
	const created = await client.assetData.createReport({
		assetIds: [assetId],
		title: 'Bench report',
		reportType: 'UserDriveReport',
		startDate: new Date(now - 30 * DAY),
		endDate: new Date(now - DAY),
	});
	const deadline = Date.now() + 120_000;
	while (Date.now() < deadline) {
		const report = (await client.assetData.listReports({ assetId })).find(
			(r) => r.id === created.id,
		);
		if (report?.status === 'Created') return report.id;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	throw new Error(`tool-answers: report ${created.id} was not generated within 2 minutes`);
}

const toolName = (side: 'DM' | 'HTTP', question: Question) => `${side}_${question.key}`;

/** Manual Trigger > AI Agent with the scripted model and, per question, our tool and the HTTP Request tool. */
export function toolAnswersWorkflow(questions: Question[]): WorkflowJson {
	const tools = questions.flatMap((q, index): WorkflowNode[] => [
		{
			name: toolName('DM', q),
			type: `${TYPES.action}Tool`,
			typeVersion: 1,
			position: [400 + index * 160, 300],
			parameters: q.ours,
			credentials: { [CREDENTIALS.api]: CREDENTIAL_IDS.api },
		},
		{
			name: toolName('HTTP', q),
			type: 'n8n-nodes-base.httpRequestTool',
			typeVersion: 4.2,
			position: [400 + index * 160, 500],
			parameters: {
				toolDescription: `Calls the Drive Monitoring Open API: ${q.question}`,
				method: q.http.method,
				url: q.http.url,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				...(q.http.query
					? {
							sendQuery: true,
							queryParameters: {
								parameters: Object.entries(q.http.query).map(([name, value]) => ({ name, value })),
							},
						}
					: {}),
				...(q.http.jsonBody
					? { sendBody: true, specifyBody: 'json', jsonBody: q.http.jsonBody }
					: {}),
				options: {},
			},
			credentials: { httpHeaderAuth: CREDENTIAL_IDS.header },
		},
	]);
	return {
		...agentWith('benchToolAnswers', 'Answer questions about the fleet.', tools),
		name: 'Bench: tool answers (Drive Monitoring tool against HTTP Request tool)',
		active: false,
	};
}

/** The model's one turn: every question to both tools (the HTTP tool as often as the API needs). */
export function toolAnswersScript(questions: Question[]): ToolCall[] {
	return questions.flatMap((q) => [
		{ name: toolName('DM', q), arguments: q.oursCall },
		...q.httpCalls.map((args) => ({ name: toolName('HTTP', q), arguments: args })),
	]);
}

export interface ToolAnswerRow {
	key: string;
	operation: string;
	question: string;
	oursBytes: number;
	oursTokens: number;
	rawCalls: number;
	rawBytes: number;
	rawTokens: number;
	facts: string;
	factProblems: string[];
}

/** Sizes and facts from the tool results the model received (in the order the calls were made). */
export async function measureToolAnswers(
	questions: Question[],
	results: ToolResult[],
): Promise<ToolAnswerRow[]> {
	const tokensOf = await tokenCounter();
	return questions.map((q) => {
		const ours = results.filter((r) => r.name === toolName('DM', q));
		const raw = results.filter((r) => r.name === toolName('HTTP', q));
		if (ours.length !== 1 || raw.length !== q.httpCalls.length) {
			throw new Error(
				`tool-answers: ${q.key}: ${ours.length} answers of our tool and ${raw.length} of the HTTP Request tool, expected 1 and ${q.httpCalls.length}`,
			);
		}
		const oursText = ours[0].output;
		let factProblems: string[];
		try {
			factProblems = q.check(
				JSON.parse(oursText),
				raw.map((r) => payloadOf(r.output)),
			);
		} catch (error) {
			factProblems = [
				`could not compare: ${(error as Error).message}; ours ${oursText.slice(0, 300)}; raw ${raw[0].output.slice(0, 300)}`,
			];
		}
		return {
			key: q.key,
			operation: q.operation,
			question: q.question,
			oursBytes: Buffer.byteLength(oursText),
			oursTokens: tokensOf(oursText),
			rawCalls: raw.length,
			rawBytes: raw.reduce((sum, r) => sum + Buffer.byteLength(r.output), 0),
			rawTokens: raw.reduce((sum, r) => sum + tokensOf(r.output), 0),
			facts: q.facts,
			factProblems,
		};
	});
}

/** Whether a row meets the goals: under 4,000 tokens; 10x smaller where the raw answer is large; the same facts. */
export function rowMeets(row: ToolAnswerRow): boolean {
	const small = row.oursTokens < TOOL_ANSWER_GOALS.maxTokens;
	const ratioOk =
		row.rawBytes <= TOOL_ANSWER_GOALS.largeRawBytes ||
		row.rawTokens >= TOOL_ANSWER_GOALS.minRatio * row.oursTokens;
	return small && ratioOk && row.factProblems.length === 0;
}
