import { daysBetweenDates, formatUtc8Date, utc8DateToInstant } from '../../../shared/time';

/** E21's limits (spec, Limits): the interval in days, the asset's minimum age, the title's length. */
export const REPORT_MIN_DAYS = 7;
export const REPORT_MAX_DAYS = 90;
export const REPORT_MIN_AGE_DAYS = 7;
export const REPORT_TITLE_MAX = 50;

const DAYS = /^(\d{1,4})d$/i;
const DATES = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/;

export interface ReportRequestText {
	/** An asset (name, serial number, id) or a group name. */
	target: string;
	/** UTC+8 dates, as E21 takes them. */
	startDate: string;
	endDate: string;
	title?: string;
}

/** The UTC+8 dates of the last `days` days, ending today (the platform's report dates are UTC+8). */
export function lastDays(days: number, now: number): { startDate: string; endDate: string } {
	const endDate = formatUtc8Date(new Date(now));
	return {
		startDate: formatUtc8Date(new Date(utc8DateToInstant(endDate).getTime() - days * 86_400_000)),
		endDate,
	};
}

function validDate(date: string): boolean {
	try {
		utc8DateToInstant(date);
		return true;
	} catch {
		return false;
	}
}

/**
 * `<asset|group> [7d|30d|Nd|from..to] [title]`: the period is the first word that is one; what
 * comes before names the asset or group (quotes allowed), what comes after is the title. The
 * rules E21 states are checked here, before any request (assumption B36).
 */
export function parseReportRequest(
	text: string,
	now: number,
): ReportRequestText | { error: string } {
	const trimmed = text.trim();
	let target: string;
	let rest: string[];
	const quoted = /^["“']([^"”']+)["”']\s*(.*)$/.exec(trimmed);
	if (quoted) {
		target = quoted[1].trim();
		rest = quoted[2].split(/\s+/).filter(Boolean);
	} else {
		const words = trimmed.split(/\s+/).filter(Boolean);
		const at = words.findIndex((w) => DAYS.test(w) || DATES.test(w));
		target = (at === -1 ? words : words.slice(0, at)).join(' ');
		rest = at === -1 ? [] : words.slice(at);
	}
	if (!target)
		return { error: '`report` needs an asset (name, serial number or id) or an asset group.' };
	const period =
		rest[0] && (DAYS.test(rest[0]) || DATES.test(rest[0])) ? (rest.shift() as string) : '7d';
	const title = rest.join(' ').trim() || undefined;
	if (title && title.length > REPORT_TITLE_MAX)
		return {
			error: `The title is ${title.length} characters; reports take at most ${REPORT_TITLE_MAX}.`,
		};
	const days = DAYS.exec(period);
	if (days) {
		const n = Number(days[1]);
		if (n < REPORT_MIN_DAYS || n > REPORT_MAX_DAYS)
			return {
				error: `A report covers ${REPORT_MIN_DAYS} to ${REPORT_MAX_DAYS} days; "${period}" is ${n}. Try 7d or 30d.`,
			};
		return { target, ...lastDays(n, now), title };
	}
	const [, startDate, endDate] = DATES.exec(period) as RegExpExecArray;
	if (!validDate(startDate) || !validDate(endDate))
		return {
			error: `"${period}" is not two dates: write it as 2026-10-01..2026-10-31 (dates in UTC+8, the platform's).`,
		};
	const span = daysBetweenDates(startDate, endDate);
	if (span < REPORT_MIN_DAYS || span > REPORT_MAX_DAYS)
		return {
			error: `A report covers ${REPORT_MIN_DAYS} to ${REPORT_MAX_DAYS} days; ${startDate} to ${endDate} is ${span} day${span === 1 ? '' : 's'}.`,
		};
	if (endDate > formatUtc8Date(new Date(now)))
		return {
			error: `The report cannot end in the future: ${endDate} is after today (${formatUtc8Date(new Date(now))}, UTC+8).`,
		};
	return { target, startDate, endDate, title };
}
