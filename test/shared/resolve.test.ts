import {
	ambiguityMessage,
	CANDIDATES_SHOWN,
	resolveName,
	unknownMessage,
	type Named,
} from '../../shared/resolve/match';

const fleet: Named[] = [
	{ id: 100001, name: 'Pump 3', serialNumber: '1234567890', place: 'plant Mill A' },
	{ id: 100002, name: 'Pump 31', serialNumber: 'SN-31', place: 'plant Mill A' },
	{ id: 100003, name: 'Line 2 fan', serialNumber: 'FAN-002', place: 'plant Mill B' },
	{ id: 100004, name: 'Pump 4', serialNumber: null, place: 'plant Mill B' },
];

describe('resolveName', () => {
	it('a whole name, in any case, wins over the partial matches it is part of', () => {
		expect(resolveName('pump 3', fleet)).toEqual({ kind: 'one', target: fleet[0] });
		expect(resolveName('  PUMP 3 ', fleet)).toEqual({ kind: 'one', target: fleet[0] });
	});

	it('a unique part of a name resolves', () => {
		expect(resolveName('fan', fleet)).toEqual({ kind: 'one', target: fleet[2] });
	});

	it('a serial number, whole or in part, resolves an asset', () => {
		expect(resolveName('fan-002', fleet)).toEqual({ kind: 'one', target: fleet[2] });
		expect(resolveName('sn-3', fleet)).toEqual({ kind: 'one', target: fleet[1] });
	});

	it('digits that are an id resolve to that id', () => {
		expect(resolveName('100004', fleet)).toEqual({ kind: 'one', target: fleet[3] });
	});

	it('a part shared by several is ambiguous, the candidates sorted by name', () => {
		const result = resolveName('pump', fleet);
		expect(result).toEqual({
			kind: 'ambiguous',
			candidates: [fleet[0], fleet[1], fleet[3]],
			total: 3,
		});
	});

	it('lists at most the first candidates but counts them all', () => {
		const many = Array.from({ length: 25 }, (_, i) => ({
			id: i + 1,
			name: `Fan ${String(i).padStart(2, '0')}`,
		}));
		const result = resolveName('fan', many);
		expect(result.kind).toBe('ambiguous');
		if (result.kind !== 'ambiguous') return;
		expect(result.candidates).toHaveLength(CANDIDATES_SHOWN);
		expect(result.total).toBe(25);
		expect(ambiguityMessage('Asset', 'fan', result.candidates, result.total)).toMatch(
			/matches 25 assets: .*15 more not shown\. Send the id or a longer name\.$/,
		);
	});

	it('nothing matching, or an empty text, is none', () => {
		expect(resolveName('compressor', fleet)).toEqual({ kind: 'none' });
		expect(resolveName('  ', fleet)).toEqual({ kind: 'none' });
	});
});

describe('messages', () => {
	it('an ambiguity names each candidate with id, serial and place, and what to send', () => {
		const result = resolveName('pump 3', [
			fleet[0],
			{ ...fleet[0], id: 100009, place: 'plant Mill C' },
		]);
		expect(result.kind).toBe('ambiguous');
		if (result.kind !== 'ambiguous') return;
		expect(ambiguityMessage('Asset', 'pump 3', result.candidates, result.total)).toBe(
			'Asset "pump 3" matches 2 assets: Pump 3 (id 100001, serial 1234567890, plant Mill A); ' +
				'Pump 3 (id 100009, serial 1234567890, plant Mill C). Send the id or a longer name.',
		);
	});

	it('an unknown name says so and how to list', () => {
		expect(unknownMessage('Asset group', 'north', 'list them with Organization > Get Tree')).toBe(
			'Asset group "north" matches no asset group these credentials can see. Send an id or a name; list them with Organization > Get Tree.',
		);
	});
});
