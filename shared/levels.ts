// The spec's level table as questions callers ask: may this level do X, how far back may it
// read, and how to explain a 102403 in words a maintenance engineer understands.
import {
	CONDITION_TYPES,
	LEVEL_FEATURES,
	LEVELS,
	type EndpointId,
	type Feature,
	type Level,
	type LevelFeatures,
} from './spec';

export const FEATURE_LABELS: Record<Feature, string> = {
	eventHistory: 'Event history',
	eventLoggerFile: 'Event logger files',
	trendSignalHistory: 'Trend and signal history',
	healthConditions: 'Health conditions',
	cbm: 'CBM analysis and commissioning-date updates',
	reports: 'Reports',
	parameterBackups: 'Parameter backups',
};

/** The feature each level-gated endpoint uses (E14/E17 are gated by their history range). */
export const ENDPOINT_FEATURE: Partial<Record<EndpointId, Feature>> = {
	E14: 'eventHistory',
	E15: 'eventLoggerFile',
	E17: 'trendSignalHistory',
	E18: 'healthConditions',
	E19: 'cbm',
	E20: 'cbm',
	E21: 'reports',
	E22: 'reports',
	E23: 'reports',
	E24: 'parameterBackups',
	E25: 'parameterBackups',
};

export function isLevel(value: unknown): value is Level {
	return typeof value === 'string' && (LEVELS as readonly string[]).includes(value);
}

/** Read a level name in any casing ("premium" -> "Premium"); undefined when it is not one. */
export function toLevel(value: unknown): Level | undefined {
	if (typeof value !== 'string') return undefined;
	return LEVELS.find((l) => l.toLowerCase() === value.trim().toLowerCase());
}

export function levelFeatures(level: Level): LevelFeatures {
	return LEVEL_FEATURES[level];
}

/** Whether a level allows a feature at all (history features: always, within their range). */
export function levelAllows(level: Level, feature: Feature): boolean {
	const f = LEVEL_FEATURES[level];
	switch (feature) {
		case 'eventHistory':
		case 'trendSignalHistory':
			return true;
		case 'healthConditions':
			return f.healthConditions.length > 0;
		default:
			return f[feature];
	}
}

/** Every feature a level allows, for display ("what does this asset's level give me?"). */
export function allowedFeatures(level: Level): Feature[] {
	return (Object.keys(FEATURE_LABELS) as Feature[]).filter((f) => levelAllows(level, f));
}

/** Days back from now that E14 (events) or E17 (trend/signal) may reach at a level: 90 or 365. */
export function historyDays(level: Level, kind: 'events' | 'trendSignal'): number {
	return kind === 'events'
		? LEVEL_FEATURES[level].eventHistoryDays
		: LEVEL_FEATURES[level].trendSignalHistoryDays;
}

/** The levels that allow a feature (for history features: the levels with the longest range). */
export function levelsAllowing(feature: Feature): Level[] {
	if (feature === 'eventHistory' || feature === 'trendSignalHistory') {
		const key = feature === 'eventHistory' ? 'eventHistoryDays' : 'trendSignalHistoryDays';
		const longest = Math.max(...LEVELS.map((l) => LEVEL_FEATURES[l][key]));
		return LEVELS.filter((l) => LEVEL_FEATURES[l][key] === longest);
	}
	if (feature === 'healthConditions')
		return LEVELS.filter(
			(l) => LEVEL_FEATURES[l].healthConditions.length === CONDITION_TYPES.length,
		);
	return LEVELS.filter((l) => levelAllows(l, feature));
}

function orList(items: readonly string[]): string {
	return items.length <= 1
		? (items[0] ?? '')
		: `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** "Event logger files need Standard or Premium" (+ "; this asset is Basic" when the level is known). */
export function explainLevelDenial(feature: Feature, level?: Level): string {
	const label = FEATURE_LABELS[feature];
	let need: string;
	if (feature === 'eventHistory' || feature === 'trendSignalHistory') {
		const kind = feature === 'eventHistory' ? 'events' : 'trendSignal';
		const ranges = LEVELS.map((l) => `${l} ${historyDays(l, kind)} days`).join(', ');
		need = `${label} reaches back ${level ? `${historyDays(level, kind)} days at ${level}` : `as far as the level allows (${ranges})`}; older data needs ${orList(levelsAllowing(feature))}`;
	} else if (feature === 'healthConditions') {
		need = level
			? `At ${level} the health conditions are ${orList(LEVEL_FEATURES[level].healthConditions)}; all five need ${orList(levelsAllowing(feature))}`
			: `All health conditions need ${orList(levelsAllowing(feature))}`;
	} else {
		need = `${label} need${label.endsWith('s') ? '' : 's'} ${orList(levelsAllowing(feature))}`;
	}
	return level &&
		feature !== 'healthConditions' &&
		feature !== 'eventHistory' &&
		feature !== 'trendSignalHistory'
		? `${need}; this asset is ${level}.`
		: `${need}.`;
}

/** The explanation for a 102403 answered by an endpoint, when that endpoint is level-gated. */
export function explainEndpointDenial(endpoint: EndpointId, level?: Level): string | undefined {
	const feature = ENDPOINT_FEATURE[endpoint];
	return feature ? explainLevelDenial(feature, level) : undefined;
}
