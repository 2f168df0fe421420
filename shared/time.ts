// Explicit UTC and UTC+8 conversions (assumption A5). Nothing here reads the machine's time zone:
// UTC+8 wall time is computed by shifting the instant by exactly eight hours.
import { ValidationError, type EndpointRef } from './errors';

export const UTC8_OFFSET_MS = 8 * 60 * 60 * 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_UTC8 = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
const PLUS8_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?\+08:?00$/;

export type TimeInput = Date | string;

function pad(n: number, width = 2): string {
	return String(n).padStart(width, '0');
}

function isCalendarDate(y: number, m: number, d: number): boolean {
	const t = new Date(Date.UTC(y, m - 1, d));
	return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** `YYYY-MM-DDThh:mm:ssZ`, the spec's UTC form (milliseconds dropped). */
export function formatUtc(instant: Date): string {
	return `${instant.toISOString().slice(0, 19)}Z`;
}

/**
 * The instant rounded up to a whole second. The wire carries whole seconds and a range's end is
 * exclusive, so an end of "now" sent as is would leave out what happened earlier in this second.
 */
export function ceilToSecond(instant: Date): Date {
	return new Date(Math.ceil(instant.getTime() / 1000) * 1000);
}

/** The instant rounded down to a whole second (a range's start: it keeps what the truncation would keep). */
export function floorToSecond(instant: Date): Date {
	return new Date(Math.floor(instant.getTime() / 1000) * 1000);
}

/** Wall-clock fields of an instant in UTC+8. */
function utc8Parts(instant: Date): {
	y: number;
	m: number;
	d: number;
	hh: number;
	mm: number;
	ss: number;
} {
	const t = new Date(instant.getTime() + UTC8_OFFSET_MS);
	return {
		y: t.getUTCFullYear(),
		m: t.getUTCMonth() + 1,
		d: t.getUTCDate(),
		hh: t.getUTCHours(),
		mm: t.getUTCMinutes(),
		ss: t.getUTCSeconds(),
	};
}

/** The UTC+8 calendar date of an instant, `YYYY-MM-DD` (E21 request dates). */
export function formatUtc8Date(instant: Date): string {
	const p = utc8Parts(instant);
	return `${pad(p.y, 4)}-${pad(p.m)}-${pad(p.d)}`;
}

/** The UTC+8 wall time of an instant, `YYYY-MM-DD hh:mm:ss` (the form of backup times). */
export function formatUtc8DateTime(instant: Date): string {
	const p = utc8Parts(instant);
	return `${formatUtc8Date(instant)} ${pad(p.hh)}:${pad(p.mm)}:${pad(p.ss)}`;
}

/** The instant at which a UTC+8 date (`YYYY-MM-DD`) begins: 16:00 UTC on the day before. */
export function utc8DateToInstant(date: string): Date {
	const m = DATE.exec(date.trim());
	if (!m || !isCalendarDate(+m[1], +m[2], +m[3]))
		throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
	return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]) - UTC8_OFFSET_MS);
}

/** The instant of a UTC+8 wall time written `YYYY-MM-DD hh:mm[:ss]` (parameter backup times). */
export function utc8DateTimeToInstant(dateTime: string): Date {
	const text = dateTime.trim();
	if (ISO_WITH_ZONE.test(text)) return new Date(text); // already carries its offset
	const m = DATE_TIME_UTC8.exec(text);
	if (!m || !isCalendarDate(+m[1], +m[2], +m[3]) || +m[4] > 23 || +m[5] > 59 || +(m[6] ?? 0) > 59) {
		throw new RangeError(`not a YYYY-MM-DD hh:mm:ss date-time: ${JSON.stringify(dateTime)}`);
	}
	return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0)) - UTC8_OFFSET_MS);
}

/**
 * An instant from caller input: a Date, an ISO 8601 date-time with `Z` or an offset, or a bare
 * `YYYY-MM-DD` (read as 00:00 UTC). A date-time without a zone is refused rather than guessed.
 */
export function parseInstant(value: unknown, field: string, endpoint?: EndpointRef): Date {
	const refuse = (rule: string): never => {
		throw new ValidationError({ field, value, rule, endpoint });
	};
	if (value instanceof Date) {
		if (Number.isNaN(value.getTime())) refuse('must be a valid date');
		return value;
	}
	if (typeof value !== 'string')
		return refuse('must be a Date or an ISO 8601 date-time string such as 2024-11-21T08:00:00Z');
	const text = value.trim();
	const dateOnly = DATE.exec(text);
	if (dateOnly) {
		if (!isCalendarDate(+dateOnly[1], +dateOnly[2], +dateOnly[3])) refuse('is not a calendar date');
		return new Date(`${text}T00:00:00Z`);
	}
	if (!ISO_WITH_ZONE.test(text)) {
		return refuse(
			'must be an ISO 8601 date-time with Z or an offset (e.g. 2024-11-21T08:00:00Z); a time without a zone is ambiguous',
		);
	}
	const parsed = new Date(text);
	if (Number.isNaN(parsed.getTime())) refuse('is not a valid date-time');
	return parsed;
}

/**
 * An E21 request date (UTC+8 calendar date): `YYYY-MM-DD` as is, a date-time with an explicit
 * `+08:00` offset (its date), or a Date (its UTC+8 date). Other offsets are refused: the
 * calendar day they mean in UTC+8 is not what the caller wrote.
 */
export function parseUtc8Date(value: unknown, field: string, endpoint?: EndpointRef): string {
	const rule =
		'must be a UTC+8 date YYYY-MM-DD (or a date-time with an explicit +08:00 offset, or a Date)';
	if (value instanceof Date) {
		if (Number.isNaN(value.getTime())) throw new ValidationError({ field, value, rule, endpoint });
		return formatUtc8Date(value);
	}
	if (typeof value === 'string') {
		const text = value.trim();
		const m = DATE.exec(text);
		if (m && isCalendarDate(+m[1], +m[2], +m[3])) return text;
		const withOffset = PLUS8_DATE_TIME.exec(text);
		if (withOffset && !Number.isNaN(new Date(text).getTime())) return withOffset[1];
	}
	throw new ValidationError({ field, value, rule, endpoint });
}

/** Whole days from one `YYYY-MM-DD` date to another (negative when `to` is earlier). */
export function daysBetweenDates(from: string, to: string): number {
	return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * The UTC instant of a UTC+8 value as the platform writes it (a `YYYY-MM-DD` date: when that day
 * begins in UTC+8; a `YYYY-MM-DD hh:mm:ss` wall time), as ISO 8601 UTC; null when empty or unreadable.
 */
export function utc8ToUtcIso(value: string | null | undefined): string | null {
	if (typeof value !== 'string' || value.trim() === '') return null;
	try {
		const instant = DATE.test(value.trim())
			? utc8DateToInstant(value)
			: utc8DateTimeToInstant(value);
		return formatUtc(instant);
	} catch {
		return null;
	}
}

/**
 * A record with, beside each UTC+8 field, its UTC instant: `predictedRunPlanDate` gets
 * `predictedRunPlanAt`, `backupTime` gets `backupAt`, `date` gets `dateAt`. The platform's own
 * values stay as they are.
 */
export function withUtcInstants<T extends Record<string, unknown>>(
	record: T,
	fields: ReadonlyArray<keyof T & string>,
): T & Record<string, string | null> {
	const out: Record<string, unknown> = { ...record };
	for (const field of fields) {
		if (!(field in record)) continue;
		const base = field.replace(/(Date|Time)$/, '');
		out[`${base === field ? field : base}At`] = utc8ToUtcIso(record[field] as string | null);
	}
	return out as T & Record<string, string | null>;
}
