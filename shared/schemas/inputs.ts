// Input schemas of the endpoints: each turns caller input into the request's values, or refuses
// it with a rule the ValidationError quotes (field, value, rule) before anything is sent.
import { z } from 'zod/v4';
import { DEVICE_UNIT_TYPES, GATEWAY_TYPES, LIMITS, REPORT_TYPES, SUB_DATA_TYPES } from '../spec';
import {
	DAY_MS,
	daysBetweenDates,
	formatUtc,
	parseInstant,
	parseUtc8Date,
	type TimeInput,
} from '../time';
import { ValidationError, type EndpointRef } from '../errors';

class Refusal {
	constructor(readonly rule: string) {}
}

/** Refuse the current field with a rule (inside a `field` converter). */
export function refuse(rule: string): never {
	throw new Refusal(rule);
}

type Outcome<T> = { ok: true; value: T } | { ok: false; refusal?: Refusal; error?: unknown };

function attempt<T>(convert: () => T): Outcome<T> {
	try {
		return { ok: true, value: convert() };
	} catch (error) {
		return error instanceof Refusal ? { ok: false, refusal: error } : { ok: false, error };
	}
}

const NO_FAILURE = Symbol('no failure');

/** Run a converter, reporting a refusal as an issue at `path` (unexpected errors propagate). */
export function check<T>(
	ctx: z.RefinementCtx,
	path: PropertyKey[] | undefined,
	convert: () => T,
	input?: unknown,
): T {
	return refusedOrValue(ctx, path, input, convert, undefined);
}

/** `convert(value)` without a closure or an outcome object per call (this runs for every field of every request). */
function refusedOrValue<T, V>(
	ctx: z.RefinementCtx,
	path: PropertyKey[] | undefined,
	input: unknown,
	convert: (value: V) => T,
	value: V,
): T {
	let result: T | undefined;
	let failure: unknown = NO_FAILURE;
	try {
		result = convert(value);
	} catch (error) {
		failure = error;
	}
	if (failure === NO_FAILURE) return result as T;
	if (!(failure instanceof Refusal)) throw failure;
	ctx.addIssue({
		code: 'custom',
		message: failure.rule,
		input,
		...(path ? { path: path as Array<string | number> } : {}),
	});
	return z.NEVER;
}

/** A field whose TypeScript input type is `In`, converted by `convert` or refused with its rule. */
export function field<In, Out>(convert: (value: In) => Out) {
	return z
		.custom<In>(() => true)
		.transform((value, ctx) => refusedOrValue(ctx, undefined, value, convert, value));
}

const ID_RULE = 'must be a positive integer id';

function toId(value: number | string): number {
	const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) refuse(ID_RULE);
	return n;
}

export const id = field(toId);

/** A long id kept as a numeral string, so ids beyond 2^53 survive (event ids). */
export const longId = field((value: number | string | bigint): string => {
	if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
	if (typeof value === 'bigint' && value > 0n) return value.toString();
	if (typeof value === 'string' && /^\d{1,19}$/.test(value.trim()) && !/^0+$/.test(value.trim()))
		return value.trim();
	return refuse(ID_RULE);
});

export function name(max: number) {
	return field((value: string): string => {
		if (typeof value !== 'string') refuse(`must be a text of 1 to ${max} characters`);
		const trimmed = value.trim();
		if (trimmed === '') refuse('must not be empty');
		if ([...trimmed].length > max) refuse(`must be at most ${max} characters`);
		return trimmed;
	});
}

export function optionalText(max: number) {
	return field((value: string | undefined | null): string => {
		if (value === undefined || value === null) return '';
		if (typeof value !== 'string') refuse(`must be a text of at most ${max} characters`);
		if ([...value].length > max) refuse(`must be at most ${max} characters`);
		return value;
	});
}

export const nonEmptyText = field((value: string): string => {
	if (typeof value !== 'string' || value.trim() === '') refuse('must be a non-empty text');
	return value.trim();
});

export const uuid = field((value: string): string => {
	if (
		typeof value !== 'string' ||
		!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value.trim())
	) {
		refuse('must be a UUID such as 3f2b6c1e-8d4a-4e2b-9c1f-2a7b5d9e0c11');
	}
	return value.trim();
});

/** The spec's enum table as a rule: "one of NETA21 (1), IOTPanel (2)". */
function enumRule(table: Record<string, number>): string {
	return `one of ${Object.entries(table)
		.map(([n, v]) => `${n} (${v})`)
		.join(', ')}`;
}

/**
 * One of the spec's enum names (any casing, spaces ignored) or its number as the spec prints it
 * (1, or "1") -> its request number.
 */
function enumNumber(table: Record<string, number>, value: unknown): number | undefined {
	const numbers = Object.values(table);
	const numeric =
		typeof value === 'number'
			? value
			: typeof value === 'string' && /^\s*\d+\s*$/.test(value)
				? Number(value)
				: undefined;
	if (numeric !== undefined) return numbers.includes(numeric) ? numeric : undefined;
	const wanted = typeof value === 'string' ? value.replace(/\s+/g, '').toLowerCase() : undefined;
	const match = Object.keys(table).find((n) => n.toLowerCase() === wanted);
	return match === undefined ? undefined : table[match];
}

export function enumName<T extends Record<string, number>>(table: T) {
	return field((value: (keyof T & string) | T[keyof T]): T[keyof T] => {
		const number = enumNumber(table, value);
		if (number === undefined) refuse(`must be ${enumRule(table)}`);
		return number as T[keyof T];
	});
}

/** An instant (Date, ISO 8601 with Z/offset, or YYYY-MM-DD as 00:00 UTC) -> the spec's UTC form. */
/** Turn a ValidationError of the time helpers into a refusal of the current field. */
function asRefusal<T>(convert: () => T): T {
	const outcome = attempt(convert);
	if (outcome.ok) return outcome.value;
	if (outcome.error instanceof ValidationError) return refuse(outcome.error.rule);
	throw outcome.error;
}

export const instant = field(
	(value: TimeInput): Date => asRefusal(() => parseInstant(value, 'value')),
);
export const utc8Date = field((value: TimeInput): string =>
	asRefusal(() => parseUtc8Date(value, 'value')),
);

function timeRange<S extends string, E extends string>(
	start: S,
	end: E,
	maxDays?: number,
	maxRule?: string,
) {
	return (v: Record<S | E, Date>, ctx: z.RefinementCtx): void => {
		if (!(v[start] instanceof Date) || !(v[end] instanceof Date)) return; // already refused field by field
		const from = v[start].getTime();
		const to = v[end].getTime();
		if (to <= from)
			ctx.addIssue({
				code: 'custom',
				path: [end],
				message: `must be after ${start} (${formatUtc(v[start])})`,
			});
		else if (maxDays !== undefined && to - from > maxDays * DAY_MS)
			ctx.addIssue({
				code: 'custom',
				path: [end],
				message: maxRule ?? `must be at most ${maxDays} days after ${start}`,
			});
	};
}

// ---- Organization (E3 to E6) and subscription (E7)

export const OrgInput = z.object({ orgId: id });
export const GroupAssetsInput = z.object({ orgId: id, assetGroupId: id });
export const CreateAssetGroupInput = z.object({ orgId: id, name: name(LIMITS.assetGroupNameMax) });
export const BindSubscriptionInput = z.object({ assetId: id, subscriptionCode: nonEmptyText });

// ---- Asset management (E8 to E13)

export const AssetIdInput = z.object({ id });
export const AssetIdOnlyInput = z.object({ assetId: id });
export const RenameAssetInput = z.object({ id, name: name(LIMITS.assetNameMax) });
export const MoveAssetInput = z.object({ assetId: id, assetGroupId: id });

/** The gateway block of E10, flat (its fields in any casing), or nested under NETA21 / IOTPanel as the spec prints it. */
export interface AssetReferenceInput {
	gatewaySN?: string;
	deviceNodeId?: string | number;
	driveModel?: string;
	simiccid?: string;
	NETA21?: { GatewaySN?: string; DeviceNodeId?: string | number; [key: string]: unknown };
	IOTPanel?: {
		DriveModel?: string;
		DeviceNodeId?: string | number;
		SIMICCID?: string;
		[key: string]: unknown;
	};
	[key: string]: unknown;
}

function pick(source: Record<string, unknown>, key: string): unknown {
	const hit = Object.keys(source).find((k) => k.toLowerCase() === key.toLowerCase());
	return hit === undefined ? undefined : source[hit];
}

function required(value: unknown, what: string): string {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string' || value.trim() === '') refuse(`${what} is required`);
	return value.trim();
}

export const CreateDriveInput = z
	.object({
		name: name(LIMITS.assetNameMax),
		assetGroupId: id,
		plantId: id,
		serialNumber: name(LIMITS.serialNumberMax),
		gatewayType: enumName(GATEWAY_TYPES),
		assetReference: z.custom<AssetReferenceInput>(() => true),
	})
	.transform((v, ctx) => {
		if (typeof v.gatewayType !== 'number') return z.NEVER; // already refused
		const gateway = v.gatewayType === GATEWAY_TYPES.NETA21 ? 'NETA21' : 'IOTPanel';
		const raw = v.assetReference as unknown;
		if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
			ctx.addIssue({
				code: 'custom',
				path: ['assetReference'],
				message: `must be an object with the ${gateway} gateway fields`,
			});
			return z.NEVER;
		}
		const outer = raw as Record<string, unknown>;
		const nested = pick(outer, gateway);
		const block = (nested && typeof nested === 'object' ? nested : outer) as Record<
			string,
			unknown
		>;
		const base =
			nested && typeof nested === 'object' ? ['assetReference', gateway] : ['assetReference'];
		const other = gateway === 'NETA21' ? 'IOTPanel' : 'NETA21';
		if (pick(outer, other) !== undefined && !nested) {
			ctx.addIssue({
				code: 'custom',
				path: ['assetReference', other],
				message: `holds the ${other} block but gatewayType is ${gateway}`,
			});
			return z.NEVER;
		}
		let reference: Record<string, string>;
		if (gateway === 'NETA21') {
			const gatewaySN = check(ctx, [...base, 'gatewaySN'], () =>
				required(pick(block, 'gatewaySN'), 'the NETA21 gateway serial number'),
			);
			const deviceNodeId = check(ctx, [...base, 'deviceNodeId'], () => {
				const text = required(pick(block, 'deviceNodeId'), 'the device node id');
				if (!/^\d+$/.test(text)) refuse('must be a numeral (digits only) for NETA21');
				return text;
			});
			reference = { GatewaySN: gatewaySN, DeviceNodeId: deviceNodeId };
		} else {
			const driveModel = check(ctx, [...base, 'driveModel'], () =>
				required(pick(block, 'driveModel'), 'the drive model'),
			);
			const deviceNodeId = check(ctx, [...base, 'deviceNodeId'], () => {
				const text = required(pick(block, 'deviceNodeId'), 'the device node id');
				if (!/^\d{1,2}$/.test(text)) refuse('must be a two-digit numeral (00 to 99) for IOT Panel');
				return text.padStart(2, '0');
			});
			const simiccid = check(ctx, [...base, 'simiccid'], () =>
				required(pick(block, 'simiccid'), 'the SIM ICCID'),
			);
			reference = { DriveModel: driveModel, DeviceNodeId: deviceNodeId, SIMICCID: simiccid };
		}
		// E10's body in the spec's PascalCase names (assumption A1).
		return {
			Name: v.name,
			AssetGroupId: v.assetGroupId,
			PlantId: v.plantId,
			SerialNumber: v.serialNumber,
			GatewayType: v.gatewayType,
			AssetReference: { [gateway]: reference },
		};
	});

// ---- Asset data (E14 to E25)

export const ListEventsInput = z
	.object({ assetId: id, startTime: instant, endTime: instant })
	.superRefine(timeRange('startTime', 'endTime'));

export const EventLoggerInput = z.object({ assetId: id, eventId: longId });

const parameterCodes = field((value: string[]): string[] => {
	if (!Array.isArray(value) || value.length === 0)
		refuse('must list at least one parameter code (from getTrendSignalConfig)');
	const codes = value.map((c) => (typeof c === 'string' ? c.trim() : ''));
	const bad = codes.findIndex((c) => c === '');
	if (bad >= 0) refuse(`entry ${bad} is not a parameter code`);
	return [...new Set(codes)];
});

export const TrendSignalDataInput = z
	.object({ assetId: id, parameters: parameterCodes, startTime: instant, endTime: instant })
	.superRefine(timeRange('startTime', 'endTime'));

export const CommissioningDateInput = z
	.object({
		assetId: id,
		deviceUnitType: enumName(DEVICE_UNIT_TYPES),
		commissioningDate: instant,
	})
	.superRefine((v, ctx) => {
		// A component cannot have been commissioned in the future (the platform refuses it, S8).
		if (v.commissioningDate instanceof Date && v.commissioningDate.getTime() > Date.now()) {
			ctx.addIssue({
				code: 'custom',
				path: ['commissioningDate'],
				message: `must not be in the future (now is ${formatUtc(new Date())})`,
			});
		}
	});

export const CreateReportInput = z
	.object({
		assetIds: field((value: Array<number | string>): Array<number | string> => {
			if (!Array.isArray(value) || value.length === 0) refuse('must list at least one asset id');
			return value;
		}),
		title: name(LIMITS.reportTitleMax),
		subTitle: optionalText(LIMITS.reportSubTitleMax).optional(),
		reportType: enumName(REPORT_TYPES),
		startDate: utc8Date,
		endDate: utc8Date,
	})
	.transform((v, ctx) => {
		if (
			!Array.isArray(v.assetIds) ||
			typeof v.startDate !== 'string' ||
			typeof v.endDate !== 'string'
		)
			return z.NEVER; // already refused
		const assetIds = v.assetIds.map((raw, i) => check(ctx, ['assetIds', i], () => toId(raw)));
		if (new Set(assetIds).size !== assetIds.length)
			ctx.addIssue({ code: 'custom', path: ['assetIds'], message: 'must not repeat an asset id' });
		if (v.reportType === REPORT_TYPES.UserDriveReport && assetIds.length !== 1) {
			ctx.addIssue({
				code: 'custom',
				path: ['assetIds'],
				message: 'a UserDriveReport covers exactly one asset; use UserFleetReport for several',
			});
		}
		const days = daysBetweenDates(v.startDate, v.endDate);
		if (days < LIMITS.reportIntervalMinDays || days > LIMITS.reportIntervalMaxDays) {
			ctx.addIssue({
				code: 'custom',
				path: ['endDate'],
				message: `the report interval must be ${LIMITS.reportIntervalMinDays} to ${LIMITS.reportIntervalMaxDays} days; ${v.startDate} to ${v.endDate} is ${days} days`,
			});
		}
		return {
			assetIds,
			title: v.title,
			subTitle: v.subTitle ?? '',
			reportType: v.reportType,
			startDateTime: v.startDate,
			endDateTime: v.endDate,
		};
	});

export const ReportDownloadInput = z.object({ assetId: id, reportId: id });

export const ParameterBackupsInput = z
	.object({ assetId: id, startTime: instant, endTime: instant })
	.superRefine(
		timeRange(
			'startTime',
			'endTime',
			LIMITS.parameterBackupSpanDays,
			`the backup span is at most ${LIMITS.parameterBackupSpanDays} days`,
		),
	);

export const ParameterBackupInput = z.object({ assetId: id, parameterSetId: nonEmptyText });

// ---- Data subscription (E26 to E30)

export const SubCustomerInput = z.object({ subCustomerId: uuid });

const subDataTypeNames = Object.keys(SUB_DATA_TYPES) as Array<keyof typeof SUB_DATA_TYPES>;

export const SetDataTypesInput = z.object({
	subCustomerId: uuid,
	topicName: nonEmptyText,
	subDataTypes: field(
		(
			value: Array<
				keyof typeof SUB_DATA_TYPES | (typeof SUB_DATA_TYPES)[keyof typeof SUB_DATA_TYPES]
			>,
		): number[] => {
			if (!Array.isArray(value))
				refuse(
					`must be a list of ${subDataTypeNames.join(', ')} (or their numbers 1 to ${subDataTypeNames.length})`,
				);
			const numbers = value.map((v, i) => {
				const number = enumNumber(SUB_DATA_TYPES, v);
				if (number === undefined)
					refuse(`entry ${i} (${JSON.stringify(v)}) must be ${enumRule(SUB_DATA_TYPES)}`);
				return number;
			});
			return [...new Set(numbers)].sort((a, b) => a - b);
		},
	),
});

export type OrgInput = z.input<typeof OrgInput>;
export type GroupAssetsInput = z.input<typeof GroupAssetsInput>;
export type CreateAssetGroupInput = z.input<typeof CreateAssetGroupInput>;
export type BindSubscriptionInput = z.input<typeof BindSubscriptionInput>;
export type AssetIdInput = z.input<typeof AssetIdInput>;
export type AssetIdOnlyInput = z.input<typeof AssetIdOnlyInput>;
export type RenameAssetInput = z.input<typeof RenameAssetInput>;
export type MoveAssetInput = z.input<typeof MoveAssetInput>;
export type CreateDriveInput = z.input<typeof CreateDriveInput>;
export type ListEventsInput = z.input<typeof ListEventsInput>;
export type EventLoggerInput = z.input<typeof EventLoggerInput>;
export type TrendSignalDataInput = z.input<typeof TrendSignalDataInput>;
export type CommissioningDateInput = z.input<typeof CommissioningDateInput>;
export type CreateReportInput = z.input<typeof CreateReportInput>;
export type ReportDownloadInput = z.input<typeof ReportDownloadInput>;
export type ParameterBackupsInput = z.input<typeof ParameterBackupsInput>;
export type ParameterBackupInput = z.input<typeof ParameterBackupInput>;
export type SubCustomerInput = z.input<typeof SubCustomerInput>;
export type SetDataTypesInput = z.input<typeof SetDataTypesInput>;

/** Parse endpoint input, or throw the ValidationError of the first refused field. */
export function validateInput<S extends z.ZodType>(
	endpoint: EndpointRef,
	schema: S,
	input: unknown,
): z.output<S> {
	const parsed = schema.safeParse(input);
	if (parsed.success) return parsed.data;
	const issue = parsed.error.issues[0];
	const path = issue?.path ?? [];
	const field =
		path.length === 0
			? 'input'
			: path
					.map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
					.join('.')
					.replace(/\.\[/g, '[');
	throw new ValidationError({
		field,
		value: valueAt(input, path),
		rule: issue?.message ?? 'is invalid',
		endpoint,
	});
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
	let current: unknown = input;
	for (const key of path) {
		if (current === null || typeof current !== 'object') return undefined;
		const record = current as Record<string, unknown>;
		const hit =
			typeof key === 'string'
				? Object.keys(record).find((k) => k.toLowerCase() === key.toLowerCase())
				: String(key);
		current = hit === undefined ? undefined : record[hit];
	}
	return current;
}
