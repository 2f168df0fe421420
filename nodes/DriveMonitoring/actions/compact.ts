import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Answers sized for a model. When the node runs as an AI tool (n8n's generated `…Tool` type), a
 * read operation's items become one compact answer: time series summarized, lists cut to the
 * newest entries with the total, files described instead of carried. The whole answer stays under
 * a byte bound, because n8n hands the model `JSON.stringify` of the items.
 */

export const DEFAULT_TOOL_ANSWER_BYTES = 16_000;
export const DEFAULT_LIST_ENTRIES = 20;
export const MAX_SERIES_POINTS = 100;
/** Points of all series of one answer together: many signals share them (at least 10 each). */
export const MAX_ANSWER_POINTS = 300;
const MIN_SERIES_POINTS = 10;

export const toolAnswerOptions: INodeProperties[] = [
	{
		displayName: 'Full Data (Tool Answer)',
		name: 'toolFullData',
		type: 'boolean',
		default: false,
		description:
			'Whether to give the full output when this node runs as an AI tool. Off: a compact answer (series summarized, lists cut to the newest entries, files described) sized for a model.',
	},
	{
		displayName: 'Tool Answer Limit (Bytes)',
		name: 'toolAnswerBytes',
		type: 'number',
		default: DEFAULT_TOOL_ANSWER_BYTES,
		typeOptions: { minValue: 1000, numberPrecision: 0 },
		description: 'Largest compact answer, in bytes of JSON, when this node runs as an AI tool',
	},
];

interface ToolAnswerSettings {
	compact: boolean;
	maxBytes: number;
}

/** Whether this run is an AI tool call, and how its answer is bounded (Options of the first item). */
export function toolAnswerSettings(this: IExecuteFunctions): ToolAnswerSettings {
	const options = this.getNodeParameter('options', 0, {}) as {
		toolFullData?: boolean;
		toolAnswerBytes?: unknown;
	};
	const maxBytes = options.toolAnswerBytes ?? DEFAULT_TOOL_ANSWER_BYTES;
	if (typeof maxBytes !== 'number' || !Number.isInteger(maxBytes) || maxBytes < 1000) {
		throw new NodeOperationError(
			this.getNode(),
			`Tool Answer Limit (Bytes): send a whole number of at least 1000, not ${JSON.stringify(maxBytes)}`,
		);
	}
	return {
		compact: this.getNode().type.endsWith('Tool') && options.toolFullData !== true,
		maxBytes,
	};
}

/** Whether the answer will be compacted (operations pick the shape the compactor summarizes). */
export function answersCompact(this: IExecuteFunctions): boolean {
	return toolAnswerSettings.call(this).compact;
}

type Point = { timestamp: string; value: unknown };

/**
 * One series: unit and statistics, the last value and at most `points` values: the means of equal
 * time buckets from the first point to the last (null where a bucket has no point). Only the
 * bucket values are listed, not a timestamp per value: that is most of what a model pays for.
 */
export function summarizeSeries(series: IDataObject, points = MAX_SERIES_POINTS): IDataObject {
	const { points: raw, ...config } = series as IDataObject & { points: Point[] };
	const valued = raw
		.map((p) => ({
			time: Date.parse(String(p.timestamp)),
			timestamp: p.timestamp,
			value: numberOf(p),
		}))
		.filter(
			(p): p is { time: number; timestamp: string; value: number } =>
				p.value !== undefined && Number.isFinite(p.time),
		);
	if (valued.length === 0) return { ...config, pointCount: raw.length, values: 0 };
	let min = Infinity;
	let max = -Infinity;
	let sum = 0;
	for (const { value } of valued) {
		min = Math.min(min, value);
		max = Math.max(max, value);
		sum += value;
	}
	const last = valued[valued.length - 1];
	return {
		...config,
		pointCount: raw.length,
		min,
		max,
		mean: round(sum / valued.length),
		last: { timestamp: last.timestamp, value: last.value },
		series: timeBuckets(valued, points),
	};
}

function numberOf(point: IDataObject | Point): number | undefined {
	const p = point as IDataObject;
	const value =
		typeof p.value === 'object' && p.value !== null ? (p.value as IDataObject).value : p.value;
	const candidate = value ?? p.avg;
	return typeof candidate === 'number' && Number.isFinite(candidate) ? candidate : undefined;
}

/** At most `limit` equal time buckets from the first point to the last, each the mean of its points. */
function timeBuckets(
	points: Array<{ time: number; timestamp: string; value: number }>,
	limit: number,
): IDataObject {
	const sorted = [...points].sort((a, b) => a.time - b.time);
	const from = sorted[0];
	const to = sorted[sorted.length - 1];
	const count = Math.max(1, Math.min(limit, sorted.length));
	const width = (to.time - from.time) / count;
	const sums = new Array<number>(count).fill(0);
	const counts = new Array<number>(count).fill(0);
	for (const point of sorted) {
		const index = width > 0 ? Math.min(count - 1, Math.floor((point.time - from.time) / width)) : 0;
		sums[index] += point.value;
		counts[index] += 1;
	}
	return {
		from: new Date(from.time).toISOString().replace('.000Z', 'Z'),
		to: new Date(to.time).toISOString().replace('.000Z', 'Z'),
		bucketMinutes: Math.round((width / 60_000) * 100) / 100,
		bucketMeans: sums.map((total, i) => (counts[i] ? round(total / counts[i]) : null)),
	};
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

/** The time a list entry is ordered by: its first field named like a time that parses as one. */
function timeOf(json: IDataObject): number {
	for (const [key, value] of Object.entries(json)) {
		if (!/time|date/i.test(key)) continue;
		const t =
			typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
		if (Number.isFinite(t)) return t;
	}
	return NaN;
}

/** A file item as text: its name, size, type and the binary property that holds it, never the bytes. */
function describeFiles(item: INodeExecutionData): IDataObject {
	if (!item.binary) return item.json;
	const files = Object.entries(item.binary).map(([property, file]) => ({
		binaryProperty: property,
		fileName: file.fileName,
		fileSize: file.fileSize,
		mimeType: file.mimeType,
	}));
	return { ...item.json, files };
}

/**
 * The compact answer: series summarized, a list of more than `DEFAULT_LIST_ENTRIES` entries cut to
 * the newest ones with the total, and the whole kept under `maxBytes` (fewer points and entries,
 * then a cut with a note, until it fits).
 */
export function compactAnswer(items: INodeExecutionData[], maxBytes: number): INodeExecutionData[] {
	const entries = items.map(describeFiles);
	for (
		let points = MAX_SERIES_POINTS, listSize = DEFAULT_LIST_ENTRIES;
		;
		points = Math.floor(points / 2), listSize = Math.floor(listSize / 2)
	) {
		const answer = shape(entries, points, listSize);
		const size = Buffer.byteLength(JSON.stringify(answer));
		if (size <= maxBytes) return answer;
		if (points <= 1 && listSize <= 1) {
			return [{ json: cutToFit(JSON.stringify(answer.map((i) => i.json)), maxBytes) }];
		}
	}
}

/** The last resort: the start of the answer's JSON as text, escaped quotes included, under the bound. */
function cutToFit(text: string, maxBytes: number): IDataObject {
	const cut = (length: number): IDataObject => ({
		truncated: true,
		note: 'The answer was cut to fit the tool answer limit. Ask for a shorter time range or one asset or signal at a time.',
		partialJson: text.slice(0, length),
	});
	let length = maxBytes;
	while (length > 0 && Buffer.byteLength(JSON.stringify(cut(length))) > maxBytes)
		length = Math.floor(length * 0.9);
	return cut(length);
}

function shape(entries: IDataObject[], points: number, listSize: number): INodeExecutionData[] {
	const seriesCount = entries.filter((json) => Array.isArray(json.points)).length;
	const perSeries = Math.min(
		points,
		Math.max(MIN_SERIES_POINTS, Math.floor(MAX_ANSWER_POINTS / Math.max(1, seriesCount))),
	);
	const summarized = entries.map((json) =>
		Array.isArray(json.points) ? summarizeSeries(json, perSeries) : json,
	);
	if (summarized.length <= listSize) return summarized.map((json) => ({ json }));
	const newest = summarized
		.map((json, index) => ({ json, index, time: timeOf(json) }))
		.sort((a, b) =>
			Number.isNaN(a.time) || Number.isNaN(b.time) ? a.index - b.index : b.time - a.time,
		)
		.slice(0, listSize)
		.map((e) => e.json);
	return [
		{
			json: {
				total: summarized.length,
				returned: newest.length,
				entries: newest,
				more: `These are the newest ${newest.length} of ${summarized.length}. To see others, ask for a shorter time range or filter (event types, asset), or set the node's Options > Full Data (Tool Answer).`,
			},
		},
	];
}
