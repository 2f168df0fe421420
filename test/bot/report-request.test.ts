import { lastDays, parseReportRequest } from '../../bot/features/reports/request';

// `/drive report` text, read as assumption B36 says; every refusal is a sentence before any request.
const now = Date.parse('2026-11-23T20:00:00Z'); // 2026-11-24 04:00 in UTC+8

test('the period is the first word shaped as one: before it the target, after it the title', () => {
	expect(parseReportRequest('Pump 3 drive 30d Monthly pump report', now)).toEqual({
		target: 'Pump 3 drive',
		startDate: '2026-10-25',
		endDate: '2026-11-24',
		title: 'Monthly pump report',
	});
	expect(parseReportRequest('"Line 3" 2026-10-01..2026-10-31 October', now)).toEqual({
		target: 'Line 3',
		startDate: '2026-10-01',
		endDate: '2026-10-31',
		title: 'October',
	});
	expect(parseReportRequest('D123456', now)).toEqual({
		target: 'D123456',
		...lastDays(7, now),
		title: undefined,
	});
	expect(lastDays(7, now)).toEqual({ startDate: '2026-11-17', endDate: '2026-11-24' });
});

test('periods outside 7 to 90 days, ending in the future or not dates are refused', () => {
	expect(parseReportRequest('pump 6d', now)).toEqual({
		error: 'A report covers 7 to 90 days; "6d" is 6. Try 7d or 30d.',
	});
	expect(parseReportRequest('pump 91d', now)).toMatchObject({
		error: expect.stringContaining('is 91'),
	});
	expect(parseReportRequest('pump 2026-11-01..2026-11-05', now)).toMatchObject({
		error: expect.stringContaining('is 4 days'),
	});
	expect(parseReportRequest('pump 2026-11-20..2026-11-30', now)).toMatchObject({
		error: expect.stringContaining('cannot end in the future'),
	});
	expect(parseReportRequest('pump 2026-02-30..2026-03-31', now)).toMatchObject({
		error: expect.stringContaining('is not two dates'),
	});
	expect(parseReportRequest(`pump 7d ${'x'.repeat(51)}`, now)).toMatchObject({
		error: expect.stringContaining('at most 50'),
	});
	expect(parseReportRequest('7d', now)).toMatchObject({
		error: expect.stringContaining('needs an asset'),
	});
});
