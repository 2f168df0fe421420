import { assetStandingRefusal } from '../../../shared/errors';
import { isPowerTrain } from '../../../shared/fleet';
import { explainLevelDenial } from '../../../shared/levels';
import { ceilToSecond } from '../../../shared/time';
import type { AssetRef } from '../../kernel/alert';
import { type BotLogger, errorText } from '../../log';
import type { AssetDirectory } from '../../platform/directory';
import type { AssetListItem, DrivePlatform, ParamConfig } from '../../platform/types';
import type { Publisher } from '../../kernel/publisher';
import { renderSeriesChart } from './render';
import { findParameter, type LatestValue, latestValues, mainParameters } from './signals';
import { chartPoints, textChart } from './text';

const RANGE = /^(\d{1,3})(h|d)$/i;
const MAX_HOURS = 30 * 24;

export type TrendAnswer =
	| {
			kind: 'trend';
			asset: AssetRef;
			parameter: { label: string; unit: string; code: string };
			range: string;
			points: number;
			gaps: number;
			min?: number;
			avg?: number;
			max?: number;
			band: boolean;
			textChart: string;
			/** At most 20 averaged points, labelled in the bot's zone: Slack's chart block. */
			chart?: Array<{ label: string; value: number }>;
			/** Points the PNG was drawn from (one per platform point). */
			drawn?: number;
			/** Where the PNG went; undefined when there was nowhere to upload it. */
			postedTo?: string;
	  }
	| { kind: 'usage'; message: string }
	| { kind: 'refused'; message: string };

/** Slack's chart block takes few categories: 20 keeps each label readable. */
const CHART_POINTS = 20;

/** `11-21 14:00` (or `14:05` within a day): a chart category, well within 20 characters. */
function shortTime(epochMs: number, timeZone: string, hours: number): string {
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-CA', {
			timeZone,
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			hourCycle: 'h23',
		})
			.formatToParts(new Date(epochMs))
			.map((p) => [p.type, p.value]),
	);
	return hours <= 24
		? `${parts.hour}:${parts.minute}`
		: `${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

function zoneLabel(timeZone: string): string {
	return /^[+-]\d{2}:\d{2}$/.test(timeZone) ? `UTC${timeZone}` : timeZone;
}

/** `/drive trend` and the signals of `/drive status` (E16, E17), charts drawn by chart.js (B40 to B42). */
export class TrendService {
	constructor(
		private readonly deps: {
			platform: DrivePlatform;
			directory: AssetDirectory;
			publisher?: Publisher;
			timeZone: string;
			logger: BotLogger;
			now: () => number;
		},
	) {}

	/** The latest values of the main signals, or why there are none; never throws. */
	async latest(assetId: number): Promise<LatestValue[] | { denied: string }> {
		try {
			const config = await this.deps.platform.assetData.getTrendSignalConfig({ assetId });
			const main = mainParameters(config);
			if (main.length === 0) return [];
			const end = ceilToSecond(new Date(this.deps.now()));
			// Raw points (a window under an hour); the collection period is well inside 15 minutes.
			const data = await this.deps.platform.assetData.queryTrendSignalData({
				assetId,
				parameters: main.map((p) => p.code),
				startTime: new Date(end.getTime() - 15 * 60_000),
				endTime: end,
			});
			return latestValues(data.paramDatas);
		} catch (error) {
			if (assetStandingRefusal(error) === 'levelDenied')
				return { denied: explainLevelDenial('trendSignalHistory') };
			this.deps.logger.debug(`signals of asset ${assetId} not read (${errorText(error)})`);
			return [];
		}
	}

	/** `<asset> <signal> [24h|7d|30d]`: the asset is the longest leading part of the text that names one. */
	async trend(
		text: string,
		channel: string | undefined,
		ref: (id: number) => Promise<AssetRef>,
	): Promise<TrendAnswer> {
		const words = text.trim().split(/\s+/).filter(Boolean);
		const range =
			words.length > 2 && RANGE.test(words[words.length - 1])
				? (words.pop() as string).toLowerCase()
				: '24h';
		const m = RANGE.exec(range) as RegExpExecArray;
		const hours = Number(m[1]) * (m[2].toLowerCase() === 'd' ? 24 : 1);
		if (hours < 1 || hours > MAX_HOURS)
			return {
				kind: 'usage',
				message: `The period "${range}" must be between 1h and 30d (24h, 7d or 30d).`,
			};
		if (words.length < 2)
			return {
				kind: 'usage',
				message: '`trend` needs an asset and a signal, e.g. `trend pump-3 current 7d`.',
			};
		await this.deps.directory.ensure();
		let asset: AssetListItem | undefined;
		let signalWords: string[] = [];
		for (let split = words.length - 1; split >= 1 && !asset; split--) {
			const found = this.deps.directory.lookup(
				words
					.slice(0, split)
					.join(' ')
					.replace(/^["“']|["”']$/g, ''),
			);
			if (found.kind === 'found') {
				asset = found.asset;
				signalWords = words.slice(split);
			}
		}
		if (!asset)
			return {
				kind: 'refused',
				message: `No single asset matches the start of "${words.slice(0, -1).join(' ')}". Name it by serial number or id.`,
			};
		if (isPowerTrain(asset))
			return {
				kind: 'refused',
				message: `${asset.name} is a PowerTrain: its signals belong to its drive and motor. Ask for one of them.`,
			};
		const name = asset.name ?? `asset ${asset.id}`;
		return this.chart(asset, signalWords, range, hours, channel, ref).catch((error: unknown) => {
			if (assetStandingRefusal(error) === 'levelDenied')
				return { kind: 'refused', message: explainLevelDenial('trendSignalHistory') } as const;
			if (assetStandingRefusal(error) === 'expired')
				return {
					kind: 'refused',
					message: `The subscription of ${name} has expired, so its signals cannot be read. Renew it, then ask again.`,
				} as const;
			throw error;
		});
	}

	private async chart(
		asset: AssetListItem,
		signalWords: string[],
		range: string,
		hours: number,
		channel: string | undefined,
		ref: (id: number) => Promise<AssetRef>,
	): Promise<TrendAnswer> {
		const config = await this.deps.platform.assetData.getTrendSignalConfig({ assetId: asset.id });
		const match = findParameter(config, signalWords.join(' '));
		if ('candidates' in match) {
			const list = match.candidates
				.map((p: ParamConfig) => `${p.label || p.name} (${p.code})`)
				.join(', ');
			return {
				kind: 'usage',
				message: `"${signalWords.join(' ')}" is not one signal of ${asset.name}. Its signals: ${list}.`,
			};
		}
		const parameter = match.found;
		const end = ceilToSecond(new Date(this.deps.now()));
		const data = await this.deps.platform.assetData.queryTrendSignalData({
			assetId: asset.id,
			parameters: [parameter.code],
			startTime: new Date(end.getTime() - hours * 3_600_000),
			endTime: end,
		});
		const series =
			data.paramDatas.find((s) => s.config.code === parameter.code) ?? data.paramDatas[0];
		const assetRef = await ref(asset.id);
		const label = parameter.label || parameter.name || parameter.code;
		const present = series
			? series.timestamp
					.map((_, i) => series.avg[i] ?? series.value[i])
					.filter((v): v is number => v !== null && v !== undefined)
			: [];
		const answer: TrendAnswer = {
			kind: 'trend',
			asset: assetRef,
			parameter: { label, unit: parameter.unit ?? '', code: parameter.code },
			range,
			points: series?.timestamp.length ?? 0,
			gaps: (series?.timestamp.length ?? 0) - present.length,
			min: present.length
				? Math.min(...present, ...(series?.min ?? []).filter((v): v is number => v !== null))
				: undefined,
			avg: present.length
				? Math.round((present.reduce((a, b) => a + b, 0) / present.length) * 100) / 100
				: undefined,
			max: present.length
				? Math.max(...present, ...(series?.max ?? []).filter((v): v is number => v !== null))
				: undefined,
			band: false,
			textChart: series ? textChart(series) : '(no data)',
			chart: series
				? chartPoints(series, CHART_POINTS, (ms) => shortTime(ms, this.deps.timeZone, hours))
				: undefined,
		};
		if (series && series.timestamp.length > 0 && this.deps.publisher && channel) {
			const chart = renderSeriesChart(series, {
				title: `${assetRef.name} · ${label} · last ${range}`,
				timeZone: this.deps.timeZone,
				zoneLabel: zoneLabel(this.deps.timeZone),
			});
			answer.band = chart.band;
			answer.drawn = chart.points;
			await this.deps.publisher.upload(
				channel,
				{
					data: chart.png,
					filename: `trend-${assetRef.serialNumber}-${parameter.code}-${range}.png`,
					title: `${assetRef.name}: ${label}, last ${range}`,
					altText: `${label} of ${assetRef.name} over the last ${range}`,
				},
				`:chart_with_upwards_trend: ${label} of ${assetRef.name} (${assetRef.serialNumber}), last ${range}: ${answer.points} points${answer.gaps ? `, ${answer.gaps} without value (gaps)` : ''}`,
			);
			answer.postedTo = channel;
		}
		return answer;
	}
}
