/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import {
	daysBetweenDates,
	formatUtc,
	formatUtc8Date,
	formatUtc8DateTime,
	parseInstant,
	parseUtc8Date,
	utc8DateTimeToInstant,
	utc8DateToInstant,
	utc8ToUtcIso,
	withUtcInstants,
	ValidationError,
} from '../../shared';

describe('UTC+8 dates at day boundaries', () => {
	test('15:59:59Z is still the same UTC+8 day, 16:00:00Z is the next one', () => {
		expect(formatUtc8Date(new Date('2024-11-20T15:59:59Z'))).toBe('2024-11-20');
		expect(formatUtc8Date(new Date('2024-11-20T16:00:00Z'))).toBe('2024-11-21');
	});

	test('year and leap-day boundaries', () => {
		expect(formatUtc8Date(new Date('2024-12-31T16:00:00Z'))).toBe('2025-01-01');
		expect(formatUtc8Date(new Date('2024-02-28T16:00:00Z'))).toBe('2024-02-29');
		expect(formatUtc8DateTime(new Date('2024-12-31T23:30:05Z'))).toBe('2025-01-01 07:30:05');
	});

	test('a UTC+8 date begins at 16:00 UTC the day before', () => {
		expect(utc8DateToInstant('2024-11-21').toISOString()).toBe('2024-11-20T16:00:00.000Z');
		expect(utc8DateToInstant('2025-01-01').toISOString()).toBe('2024-12-31T16:00:00.000Z');
		expect(() => utc8DateToInstant('2024-02-30')).toThrow(RangeError);
	});

	test('a UTC+8 wall time reads back to the instant it was written from', () => {
		const instant = new Date('2024-03-01T15:59:59Z');
		const text = formatUtc8DateTime(instant);
		expect(text).toBe('2024-03-01 23:59:59');
		expect(utc8DateTimeToInstant(text).toISOString()).toBe(instant.toISOString());
		expect(utc8DateTimeToInstant('2024-03-02 00:00:00').toISOString()).toBe(
			'2024-03-01T16:00:00.000Z',
		);
		expect(() => utc8DateTimeToInstant('2024-03-02 24:00:00')).toThrow(RangeError);
	});

	test('does not depend on the machine time zone', () => {
		const previous = process.env.TZ;
		process.env.TZ = 'America/Los_Angeles';
		try {
			expect(formatUtc8Date(new Date('2024-11-20T16:00:00Z'))).toBe('2024-11-21');
			expect(utc8DateToInstant('2024-11-21').toISOString()).toBe('2024-11-20T16:00:00.000Z');
		} finally {
			process.env.TZ = previous;
		}
	});
});

describe('caller times', () => {
	test('UTC instants are written without milliseconds', () => {
		expect(formatUtc(new Date('2024-11-21T08:00:00.789Z'))).toBe('2024-11-21T08:00:00Z');
	});

	test('ISO strings with a zone, Dates and bare dates are accepted', () => {
		expect(parseInstant('2024-11-21T08:00:00+08:00', 'startTime').toISOString()).toBe(
			'2024-11-21T00:00:00.000Z',
		);
		expect(parseInstant('2024-11-21', 'startTime').toISOString()).toBe('2024-11-21T00:00:00.000Z');
		expect(parseInstant(new Date(0), 'startTime').getTime()).toBe(0);
	});

	test('a date-time without a zone is refused, naming field, value and rule', () => {
		const error = catchError(() => parseInstant('2024-11-21T08:00:00', 'startTime'));
		expect(error).toBeInstanceOf(ValidationError);
		expect(error).toMatchObject({ field: 'startTime', value: '2024-11-21T08:00:00' });
		expect((error as ValidationError).rule).toMatch(/zone/);
		expect(catchError(() => parseInstant('2024-13-01', 'endTime'))).toMatchObject({
			field: 'endTime',
			rule: 'is not a calendar date',
		});
	});

	test('E21 dates: YYYY-MM-DD as is, +08:00 date-times by their date, Dates by their UTC+8 date, other offsets refused', () => {
		expect(parseUtc8Date('2024-11-21', 'startDate')).toBe('2024-11-21');
		expect(parseUtc8Date('2024-11-21T23:30:00+08:00', 'startDate')).toBe('2024-11-21');
		expect(parseUtc8Date(new Date('2024-11-20T16:30:00Z'), 'startDate')).toBe('2024-11-21');
		expect(catchError(() => parseUtc8Date('2024-11-21T00:00:00Z', 'startDate'))).toMatchObject({
			field: 'startDate',
		});
		expect(catchError(() => parseUtc8Date('21/11/2024', 'endDate'))).toMatchObject({
			field: 'endDate',
		});
	});

	test('whole days between dates', () => {
		expect(daysBetweenDates('2024-02-01', '2024-03-01')).toBe(29);
		expect(daysBetweenDates('2024-11-21', '2024-11-14')).toBe(-7);
	});
});

function catchError(fn: () => unknown): unknown {
	try {
		fn();
	} catch (error) {
		return error;
	}
	throw new Error('expected an error');
}

describe('UTC instants beside UTC+8 values', () => {
	test('a UTC+8 date begins at 16:00 UTC the day before; a wall time is 8 hours ahead; the platform value stays', () => {
		const out = withUtcInstants(
			{
				predictedRunPlanDate: '2026-05-01',
				predictedNoPlanDate: null,
				backupTime: '2026-05-01 07:30:00',
				date: '',
				other: 1,
			},
			['predictedRunPlanDate', 'predictedNoPlanDate', 'backupTime', 'date'],
		);
		expect(out).toEqual({
			predictedRunPlanDate: '2026-05-01',
			predictedRunPlanAt: '2026-04-30T16:00:00Z',
			predictedNoPlanDate: null,
			predictedNoPlanAt: null,
			backupTime: '2026-05-01 07:30:00',
			backupAt: '2026-04-30T23:30:00Z',
			date: '',
			dateAt: null,
			other: 1,
		});
	});

	test('an unreadable value gets null rather than a wrong instant', () => {
		expect(utc8ToUtcIso('May 1st')).toBeNull();
	});
});
