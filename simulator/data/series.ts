import type { AssetRec } from '../fleet/model';
import { hash32, unit } from '../random';
import { DAY, HOUR, MINUTE, SECOND } from '../time';

export interface ParamConfig {
	name: string;
	code: string;
	label: string;
	unit: string;
}

interface ParamDef extends ParamConfig {
	base: number;
	swing: number;
	noise: number;
}

const DRIVE_TRENDS: ParamDef[] = [
	{
		name: 'Motor speed used',
		code: '01.01',
		label: 'Speed',
		unit: 'rpm',
		base: 1200,
		swing: 300,
		noise: 15,
	},
	{
		name: 'Motor current',
		code: '01.07',
		label: 'Current',
		unit: 'A',
		base: 38,
		swing: 12,
		noise: 1.5,
	},
	{
		name: 'Motor torque',
		code: '01.10',
		label: 'Torque',
		unit: '%',
		base: 55,
		swing: 20,
		noise: 3,
	},
	{ name: 'DC voltage', code: '01.11', label: 'DC bus', unit: 'V', base: 560, swing: 8, noise: 2 },
	{
		name: 'Output power',
		code: '01.14',
		label: 'Power',
		unit: 'kW',
		base: 21,
		swing: 7,
		noise: 0.8,
	},
];
const DRIVE_SIGNALS: ParamDef[] = [
	{
		name: 'Inverter temperature',
		code: '05.11',
		label: 'Inverter temp',
		unit: '°C',
		base: 48,
		swing: 9,
		noise: 0.6,
	},
	{
		name: 'Cabinet temperature',
		code: '05.20',
		label: 'Cabinet temp',
		unit: '°C',
		base: 34,
		swing: 5,
		noise: 0.4,
	},
	{
		name: 'Fan on-time counter',
		code: '05.04',
		label: 'Fan on-time',
		unit: 'h',
		base: 12000,
		swing: 0,
		noise: 0,
	},
];
const MOTOR_TRENDS: ParamDef[] = [
	{
		name: 'Vibration velocity',
		code: 'VIB_RMS',
		label: 'Vibration',
		unit: 'mm/s',
		base: 2.1,
		swing: 0.6,
		noise: 0.15,
	},
	{
		name: 'Skin temperature',
		code: 'TEMP_SKIN',
		label: 'Temperature',
		unit: '°C',
		base: 52,
		swing: 8,
		noise: 0.5,
	},
	{ name: 'Speed', code: 'SPEED', label: 'Speed', unit: 'rpm', base: 1480, swing: 20, noise: 3 },
];
const MOTOR_SIGNALS: ParamDef[] = [
	{
		name: 'Bearing condition',
		code: 'BEARING',
		label: 'Bearing',
		unit: 'gE',
		base: 0.4,
		swing: 0.1,
		noise: 0.05,
	},
	{
		name: 'Operating hours',
		code: 'RUN_HOURS',
		label: 'Run hours',
		unit: 'h',
		base: 8000,
		swing: 0,
		noise: 0,
	},
];

/** Raw collection period (assumption in docs: 30 seconds) and the aggregate step of the spec. */
export const RAW_PERIOD_MS = 30 * SECOND;
export const AGGREGATE_MS = 5 * MINUTE;
/** Share of asset-hours in which the gateway was offline: their points are '-'. */
const OFFLINE_SHARE = 0.03;

function definitions(asset: AssetRec): { trends: ParamDef[]; signals: ParamDef[] } {
	return asset.assetType === 'Motor'
		? { trends: MOTOR_TRENDS, signals: MOTOR_SIGNALS }
		: { trends: DRIVE_TRENDS, signals: DRIVE_SIGNALS };
}

function configOf({ name, code, label, unit: unitName }: ParamDef): ParamConfig {
	return { name, code, label, unit: unitName };
}

function findDefinition(asset: AssetRec, code: string): ParamDef | undefined {
	const { trends, signals } = definitions(asset);
	return [...trends, ...signals].find((d) => d.code.toLowerCase() === code.toLowerCase());
}

export type Point = number | '-';

export interface ParamData {
	config: ParamConfig;
	avg: Point[];
	max: Point[];
	min: Point[];
	value: Point[];
	timestamp: string[];
}

interface ForcedState {
	online: boolean;
	since: number;
}

/** Forced states kept per asset: a test or a demo forces a handful; older ones fall back to the seeded hours. */
const FORCED_KEPT = 8;

/** Time series, and whether an asset's gateway was online: shared by E17, E8 and the hourly state. */
export class SeriesSource {
	/**
	 * Online states forced by control.setOnline and setGatewayOnline, each from a moment on, oldest first: a gateway
	 * forced online and later offline was online in between, whatever the seeded hours say.
	 */
	private readonly forced = new Map<number, ForcedState[]>();

	constructor(private readonly seed: number) {}

	force(assetId: number, online: boolean, since: number): void {
		// A force replaces what was forced from the same moment on; the oldest are forgotten past a few.
		const states = (this.forced.get(assetId) ?? [])
			.filter((f) => f.since < since)
			.slice(-(FORCED_KEPT - 1));
		states.push({ online, since });
		this.forced.set(assetId, states);
	}

	/** The forced state in effect at `time`, if any. */
	private forcedAt(assetId: number, time: number): ForcedState | undefined {
		const states = this.forced.get(assetId);
		if (!states) return undefined;
		for (let i = states.length - 1; i >= 0; i--) if (states[i].since <= time) return states[i];
		return undefined;
	}

	config(asset: AssetRec): { trends: ParamConfig[]; signals: ParamConfig[] } {
		const { trends, signals } = definitions(asset);
		return { trends: trends.map(configOf), signals: signals.map(configOf) };
	}

	findParam(asset: AssetRec, code: string): ParamConfig | undefined {
		const def = findDefinition(asset, code);
		return def && configOf(def);
	}

	/** The last raw collection point at or before `now` while online; undefined if none within two days of it. */
	latestOnline(asset: AssetRec, now: number): number | undefined {
		// Back through the forced states: an offline one sends the search to the moment before it began.
		let from = now;
		for (
			let forced = this.forcedAt(asset.id, from);
			forced;
			forced = this.forcedAt(asset.id, from)
		) {
			if (forced.online) {
				// A gateway brought back online sends at once: its return is a collection point, even before
				// the next raw period, instead of the seeded hour before it (offline at some hours of the day).
				const latest =
					forced.since >= asset.createdOn
						? Math.max(forced.since, from - (from % RAW_PERIOD_MS))
						: from - (from % RAW_PERIOD_MS);
				return latest >= asset.createdOn ? latest : undefined;
			}
			from = forced.since - 1;
		}
		for (
			let t = from - (from % RAW_PERIOD_MS), steps = 0;
			t >= asset.createdOn && steps < (2 * DAY) / RAW_PERIOD_MS;
			t -= RAW_PERIOD_MS, steps++
		) {
			if (this.online(asset, t)) return t;
		}
		return undefined;
	}

	online(asset: AssetRec, time: number): boolean {
		const forced = this.forcedAt(asset.id, time);
		if (forced) return forced.online && time >= asset.createdOn;
		return (
			time >= asset.createdOn &&
			unit(this.seed, asset.id, Math.floor(time / HOUR), 77) >= OFFLINE_SHARE
		);
	}

	/** Raw points for spans up to an hour, 5-minute aggregates above (the spec's E17 rule). */
	query(asset: AssetRec, config: ParamConfig, start: number, end: number, now: number): ParamData {
		const def = findDefinition(asset, config.code) as ParamDef;
		const codeHash = hash32(...[...def.code].map((c) => c.charCodeAt(0)));
		const phase = unit(this.seed, asset.id, codeHash) * 2 * Math.PI;
		let onlineHour = Number.NaN;
		let onlineNow = false;
		const sample = (time: number): Point => {
			if (time < asset.createdOn) return '-';
			const hour = Math.floor(time / HOUR);
			if (hour !== onlineHour) {
				onlineHour = hour;
				onlineNow = this.online(asset, time);
			}
			if (!onlineNow) return '-';
			if (def.swing === 0) return round(def.base + ((time - asset.createdOn) / HOUR) * 0.8);
			const daily = Math.sin((2 * Math.PI * (time % DAY)) / DAY + phase);
			const noise =
				(hash32(this.seed, asset.id, codeHash, Math.floor(time / RAW_PERIOD_MS)) / 0x100000000 -
					0.5) *
				2 *
				def.noise;
			return round(def.base + def.swing * daily + noise);
		};
		const out: ParamData = { config, avg: [], max: [], min: [], value: [], timestamp: [] };
		const last = Math.min(end, now);
		const aggregate = end - start > HOUR;
		const step = aggregate ? AGGREGATE_MS : RAW_PERIOD_MS;
		const push = (avg: Point, max: Point, min: Point, value: Point, t: number): void => {
			out.avg.push(avg);
			out.max.push(max);
			out.min.push(min);
			out.value.push(value);
			out.timestamp.push(String(t));
		};
		for (let t = Math.ceil(start / step) * step; t <= last; t += step) {
			if (!aggregate) {
				const v = sample(t);
				push(v, v, v, v, t);
				continue;
			}
			let sum = 0;
			let count = 0;
			let max = -Infinity;
			let min = Infinity;
			let lastValue = 0;
			for (let r = t; r < t + AGGREGATE_MS && r <= last; r += RAW_PERIOD_MS) {
				const v = sample(r);
				if (v === '-') continue;
				sum += v;
				count++;
				max = Math.max(max, v);
				min = Math.min(min, v);
				lastValue = v;
			}
			if (count === 0) push('-', '-', '-', '-', t);
			else push(round(sum / count), max, min, lastValue, t);
		}
		return out;
	}
}

function round(n: number): number {
	return Math.round(n * 100) / 100;
}
