// Parameter shapes used by several operations, and the readers that turn them into the core's
// inputs. Readers refuse bad values with a NodeOperationError that names the field, the value
// and the rule, before any request is sent.
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { DateTime } from 'luxon';
import { resolveTarget, type TargetKind } from '../../../shared/resolve/directory';
import type { DriveMonitoringClient } from '../transport';

type LocatorKind = 'organization' | 'assetGroup' | 'plant' | 'asset' | 'report' | 'subscriber';

const LOCATORS: Record<
	LocatorKind,
	{
		displayName: string;
		searchListMethod: string;
		placeholder: string;
		idPattern: string;
		description: string;
	}
> = {
	organization: {
		displayName: 'Organization',
		searchListMethod: 'searchOrganizations',
		placeholder: 'e.g. 1001 or Mill A',
		idPattern: '^[0-9]+$',
		description:
			'The organization (for asset lists and asset groups: an end-user organization): its ID, or its name or part of it',
	},
	assetGroup: {
		displayName: 'Asset Group',
		searchListMethod: 'searchAssetGroups',
		placeholder: 'e.g. 2001 or Pumps',
		idPattern: '^[0-9]+$',
		description:
			'The asset group, listed as "Organization / Group": its ID, or its name or part of it',
	},
	plant: {
		displayName: 'Plant',
		searchListMethod: 'searchPlants',
		placeholder: 'e.g. 3001',
		idPattern: '^[0-9]+$',
		description: 'The plant, listed as "Organization / Plant"',
	},
	asset: {
		displayName: 'Asset',
		searchListMethod: 'searchAssets',
		placeholder: 'e.g. 40001 or Pump 3',
		idPattern: '^[0-9]+$',
		description: 'The drive or motor: its ID, or its name, serial number or part of either',
	},
	report: {
		displayName: 'Report',
		searchListMethod: 'searchReports',
		placeholder: 'e.g. 9001',
		idPattern: '^[0-9]+$',
		description: 'A report of the asset from the last 7 days',
	},
	subscriber: {
		displayName: 'Data-Subscription User',
		searchListMethod: 'searchSubscribers',
		placeholder: 'e.g. 0b7c3f1e-5d0a-4c51-9a9e-3f7f3c0e2a11',
		idPattern: '^[0-9a-fA-F-]{8,}$',
		description: "The organization's data-subscription user",
	},
};

/** A resource locator: pick from a searchable list, or type an ID. */
export function locator(
	kind: LocatorKind,
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	const spec = LOCATORS[kind];
	const byName = isNamed(kind);
	return {
		displayName: spec.displayName,
		name: kind,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: spec.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: spec.searchListMethod, searchable: true },
			},
			{
				// Named kinds take a name in the ID mode too: a model's $fromAI() fills this mode, and
				// existing workflows keep their mode name.
				displayName: byName ? 'By ID or Name' : 'By ID',
				name: 'id',
				type: 'string',
				placeholder: spec.placeholder,
				...(byName
					? {}
					: {
							validation: [
								{
									type: 'regex',
									properties: {
										regex: spec.idPattern,
										errorMessage: `Not a valid ${spec.displayName} ID`,
									},
								},
							],
						}),
			},
		],
		...overrides,
	};
}

/** The ID behind a resource locator, as an integer; refused before any request when it is not one. */
export function getIdParameter(
	this: IExecuteFunctions,
	name: LocatorKind,
	itemIndex: number,
): number {
	const value = this.getNodeParameter(name, itemIndex, undefined, {
		extractValue: true,
	}) as unknown;
	const text = typeof value === 'number' ? String(value) : String(value ?? '').trim();
	if (!/^[0-9]+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
		throw new NodeOperationError(
			this.getNode(),
			`${LOCATORS[name].displayName}: ${JSON.stringify(value ?? '')} is not a valid ID; send its numeric ID (a positive whole number)`,
			{
				itemIndex,
				description: `The ${LOCATORS[name].displayName} ID must be a positive whole number. Pick one from the list or check the expression.`,
			},
		);
	}
	return Number(text);
}

function isNamed(kind: LocatorKind): kind is TargetKind {
	return kind === 'asset' || kind === 'assetGroup' || kind === 'organization';
}

/**
 * The ID behind an asset, asset group or organization locator: an ID is used as is (no request);
 * a name, serial number or part of one is resolved once per execution, and anything that is not
 * exactly one target is refused before the operation's own request, with the candidates listed.
 */
export async function resolveIdParameter(
	this: IExecuteFunctions,
	client: DriveMonitoringClient,
	name: TargetKind,
	itemIndex: number,
): Promise<number> {
	const value = this.getNodeParameter(name, itemIndex, undefined, {
		extractValue: true,
	}) as unknown;
	const text = typeof value === 'number' ? String(value) : String(value ?? '').trim();
	if (text === '') return getIdParameter.call(this, name, itemIndex);
	const resolved = await resolveTarget(client, name, text);
	if ('id' in resolved) return resolved.id;
	throw new NodeOperationError(this.getNode(), resolved.refusal, {
		itemIndex,
		description: `Pick the ${LOCATORS[name].displayName} from the list, or enter its ID or a name that matches only it.`,
	});
}

/** A string ID behind a resource locator (report IDs are numbers, data-subscription users UUIDs). */
export function getStringIdParameter(
	this: IExecuteFunctions,
	name: LocatorKind,
	itemIndex: number,
): string {
	const value = String(
		this.getNodeParameter(name, itemIndex, undefined, { extractValue: true }) ?? '',
	).trim();
	if (!new RegExp(LOCATORS[name].idPattern).test(value)) {
		throw new NodeOperationError(
			this.getNode(),
			`${LOCATORS[name].displayName}: ${JSON.stringify(value)} is not a valid ID`,
			{
				itemIndex,
				description: `Pick the ${LOCATORS[name].displayName} from the list or enter its ID.`,
			},
		);
	}
	return value;
}

/** A required text parameter, trimmed; refused when empty. */
export function getTextParameter(
	this: IExecuteFunctions,
	name: string,
	displayName: string,
	itemIndex: number,
): string {
	const value = String(this.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (value === '') {
		throw new NodeOperationError(this.getNode(), `${displayName} is empty`, {
			itemIndex,
			description: `Enter a value for "${displayName}".`,
		});
	}
	return value;
}

/**
 * A date-time parameter as an instant. The date picker gives wall time without an offset: it is
 * read in the workflow's time zone, as everywhere else in n8n. Values with an offset are taken as is.
 */
export function getDateParameter(
	this: IExecuteFunctions,
	name: string,
	displayName: string,
	itemIndex: number,
): Date {
	const raw = this.getNodeParameter(name, itemIndex, '') as unknown;
	const parsed = toDateTime(raw, this.getTimezone());
	if (!parsed) {
		throw new NodeOperationError(
			this.getNode(),
			`${displayName}: ${JSON.stringify(raw)} is not a date; send an ISO 8601 date-time such as 2026-05-01T08:00:00Z`,
			{
				// A model sees only the message (n8n's agent drops the description): the message says what to send.
				itemIndex,
				description: `Pick a date in "${displayName}" or give an ISO 8601 date-time such as 2026-05-01T08:00:00Z.`,
			},
		);
	}
	return parsed.toJSDate();
}

/** A calendar date (YYYY-MM-DD) from a date picker, as the user sees it (no time-zone shift). */
export function getCalendarDateParameter(
	this: IExecuteFunctions,
	name: string,
	displayName: string,
	itemIndex: number,
): string {
	const raw = this.getNodeParameter(name, itemIndex, '') as unknown;
	const parsed = toDateTime(raw, this.getTimezone(), { keepLocalDate: true });
	if (!parsed) {
		throw new NodeOperationError(
			this.getNode(),
			`${displayName}: ${JSON.stringify(raw)} is not a date; send one as YYYY-MM-DD`,
			{
				itemIndex,
				description: `Pick a date in "${displayName}" or give one as YYYY-MM-DD.`,
			},
		);
	}
	return parsed.toISODate() as string;
}

function toDateTime(
	raw: unknown,
	zone: string,
	options: { keepLocalDate?: boolean } = {},
): DateTime | undefined {
	let value: DateTime | undefined;
	if (raw instanceof Date) value = DateTime.fromJSDate(raw);
	else if (DateTime.isDateTime(raw)) value = raw;
	else if (typeof raw === 'string' && raw.trim() !== '') {
		// setZone keeps an explicit offset's wall time (for calendar dates); zone applies to naive values.
		value = DateTime.fromISO(raw.trim(), { zone, setZone: options.keepLocalDate === true });
		if (!value.isValid) value = DateTime.fromSQL(raw.trim(), { zone });
	}
	return value?.isValid ? value : undefined;
}

export const timeRangeDefaults = {
	last7Days: '={{ $now.minus({ days: 7 }).startOf("minute").toISO() }}',
	last24Hours: '={{ $now.minus({ hours: 24 }).startOf("minute").toISO() }}',
	last30Days: '={{ $now.minus({ days: 30 }).startOf("minute").toISO() }}',
	now: '={{ $now.startOf("minute").toISO() }}',
};

/** Start and end date pickers. */
export function timeRange(defaultStart: string, what: string): INodeProperties[] {
	const defaultEnd = timeRangeDefaults.now;
	return [
		{
			displayName: 'Start Time',
			name: 'startTime',
			type: 'dateTime',
			default: defaultStart,
			required: true,
			description: `Start of the ${what}, as an ISO 8601 date-time such as 2026-05-01T08:00:00Z (read in the workflow's time zone unless it carries an offset)`,
		},
		{
			displayName: 'End Time',
			name: 'endTime',
			type: 'dateTime',
			default: defaultEnd,
			required: true,
			description: `End of the ${what}, as an ISO 8601 date-time such as 2026-05-01T08:00:00Z; the current time for "until now"`,
		},
	];
}

/** The Options collection of ranged queries (E14, E17): the switch for automatic splitting. */
export function rangeOptions(windowDays: number): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Split Long Ranges',
				name: 'splitLongRanges',
				type: 'boolean',
				default: true,
				description: `Whether to query ranges longer than the API's ${windowDays}-day window in ${windowDays}-day pieces and merge them. When off, the API cuts the range to ${windowDays} days after the start.`,
			},
		],
	};
}

/**
 * Requests a read operation keeps in flight by default: a year of events (53 seven-day pieces, the
 * longest history the platform keeps) goes out in one round. n8n's HTTP Request node sends every
 * item's request at once; the platform publishes no rate limit (assumption H1).
 */
export const DEFAULT_PARALLEL_REQUESTS = 64;
export const MAX_PARALLEL_REQUESTS = 100;

/** The Parallel Requests option of every read operation (in its Options collection). */
export const parallelRequestsOption: INodeProperties = {
	displayName: 'Parallel Requests',
	name: 'parallelRequests',
	type: 'number',
	default: DEFAULT_PARALLEL_REQUESTS,
	typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS, numberPrecision: 0 },
	description: `How many requests this node keeps in flight at once, across its input items and the pieces of a long time range (default ${DEFAULT_PARALLEL_REQUESTS}, at most ${MAX_PARALLEL_REQUESTS}). A request the platform refuses as too many (HTTP 429) is sent again after the wait it asks for; lower this if that happens often.`,
};

/** The node's Parallel Requests for this execution (read from the first item), checked before any request. */
export function getParallelRequests(this: IExecuteFunctions): number {
	const value =
		(this.getNodeParameter('options', 0, {}) as { parallelRequests?: unknown }).parallelRequests ??
		DEFAULT_PARALLEL_REQUESTS;
	if (
		typeof value !== 'number' ||
		!Number.isInteger(value) ||
		value < 1 ||
		value > MAX_PARALLEL_REQUESTS
	) {
		throw new NodeOperationError(
			this.getNode(),
			`Parallel Requests: ${JSON.stringify(value)} is not a whole number from 1 to ${MAX_PARALLEL_REQUESTS}`,
			{
				description: `Set Options > Parallel Requests to how many requests may run at once (default ${DEFAULT_PARALLEL_REQUESTS}).`,
			},
		);
	}
	return value;
}

/** Whether a ranged query splits long ranges (on unless switched off). */
export function splitsLongRanges(this: IExecuteFunctions, itemIndex: number): boolean {
	return (
		(this.getNodeParameter('options', itemIndex, {}) as { splitLongRanges?: boolean })
			.splitLongRanges !== false
	);
}

export const simplifyOption: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

export function binaryPropertyOption(defaultName = 'data'): INodeProperties {
	return {
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: defaultName,
		required: true,
		hint: 'The name of the output binary field to put the file in',
	};
}

export const linkOnlyOption: INodeProperties = {
	displayName: 'Return Link Only',
	name: 'linkOnly',
	type: 'boolean',
	default: false,
	description:
		'Whether to return only the temporary download link (valid 10 minutes) instead of downloading the file',
};
