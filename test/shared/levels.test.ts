import {
	allowedFeatures,
	explainEndpointDenial,
	explainLevelDenial,
	historyDays,
	levelAllows,
	levelsAllowing,
	toLevel,
} from '../../shared';

describe('the level table', () => {
	test('what each level allows', () => {
		expect(levelAllows('Basic', 'eventLoggerFile')).toBe(false);
		expect(levelAllows('Standard', 'eventLoggerFile')).toBe(true);
		expect(levelAllows('Entry', 'reports')).toBe(false);
		expect(levelAllows('Basic', 'reports')).toBe(true);
		expect(levelAllows('Basic', 'cbm')).toBe(false);
		expect(allowedFeatures('Entry')).not.toContain('cbm');
		expect(allowedFeatures('Premium')).toContain('cbm');
		expect(historyDays('Basic', 'events')).toBe(90);
		expect(historyDays('Premium', 'trendSignal')).toBe(365);
		expect(levelsAllowing('cbm')).toEqual(['Standard', 'Premium']);
	});

	test('explains a 102403 in plain words', () => {
		expect(explainLevelDenial('eventLoggerFile', 'Basic')).toBe(
			'Event logger files need Standard or Premium; this asset is Basic.',
		);
		expect(explainLevelDenial('reports', 'Entry')).toBe(
			'Reports need Basic, Standard or Premium; this asset is Entry.',
		);
		expect(explainEndpointDenial('E19', 'Entry')).toMatch(
			/^CBM analysis .* need Standard or Premium; this asset is Entry\.$/,
		);
		expect(explainEndpointDenial('E14', 'Basic')).toMatch(
			/90 days at Basic; older data needs Standard or Premium/,
		);
		expect(explainEndpointDenial('E1')).toBeUndefined();
	});

	test('reads level names in any casing', () => {
		expect(toLevel('premium')).toBe('Premium');
		expect(toLevel('Gold')).toBeUndefined();
	});
});
