/** The spec's subscription levels and the feature table that gates them ("Conventions"). */
export const LEVELS = ['Entry', 'Basic', 'Standard', 'Premium'] as const;
export type Level = (typeof LEVELS)[number];

export const CONDITION_TYPES = [
	'Overall',
	'Availability',
	'Environment',
	'Reliability',
	'Stress',
] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

export type Feature =
	| 'eventHistory'
	| 'eventLoggerFile'
	| 'trendSignalHistory'
	| 'healthConditions'
	| 'cbm'
	| 'reports'
	| 'parameterBackups';

export interface LevelFeatures {
	/** Days back from now that E14 may reach. */
	eventHistoryDays: number;
	/** Days back from now that E17 may reach. */
	trendSignalHistoryDays: number;
	eventLoggerFile: boolean;
	/** The condition types E18 returns at this level. */
	healthConditions: readonly ConditionType[];
	/** E19 and E20. */
	cbm: boolean;
	/** E21, E22, E23. */
	reports: boolean;
	/** E24, E25: no level restriction, drives only. */
	parameterBackups: boolean;
}

export const LEVEL_FEATURES: Record<Level, LevelFeatures> = {
	Entry: {
		eventHistoryDays: 90,
		trendSignalHistoryDays: 90,
		eventLoggerFile: false,
		healthConditions: ['Overall'],
		cbm: false,
		reports: false,
		parameterBackups: true,
	},
	Basic: {
		eventHistoryDays: 90,
		trendSignalHistoryDays: 90,
		eventLoggerFile: false,
		healthConditions: ['Overall', 'Availability', 'Environment', 'Reliability'],
		cbm: false,
		reports: true,
		parameterBackups: true,
	},
	Standard: {
		eventHistoryDays: 365,
		trendSignalHistoryDays: 365,
		eventLoggerFile: true,
		healthConditions: CONDITION_TYPES,
		cbm: true,
		reports: true,
		parameterBackups: true,
	},
	Premium: {
		eventHistoryDays: 365,
		trendSignalHistoryDays: 365,
		eventLoggerFile: true,
		healthConditions: CONDITION_TYPES,
		cbm: true,
		reports: true,
		parameterBackups: true,
	},
};
