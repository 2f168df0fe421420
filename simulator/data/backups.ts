import type { AssetRec } from '../fleet/model';
import { pickBy, unit } from '../random';
import { DAY, HOUR, dayIndex, utc8DateTime } from '../time';

export interface BackupItem {
	id: string;
	time: number;
	name: string;
}

const GROUPS: Array<{ title: string; params: Array<[string, string, string, number, number]> }> = [
	{
		title: '99 Motor data',
		params: [
			['99.04', 'Motor control mode', '', 0, 1],
			['99.06', 'Motor nominal current', 'A', 0, 6400],
			['99.07', 'Motor nominal voltage', 'V', 0, 960],
			['99.09', 'Motor nominal speed', 'rpm', 0, 30000],
		],
	},
	{
		title: '30 Limits',
		params: [
			['30.11', 'Minimum speed', 'rpm', -30000, 30000],
			['30.12', 'Maximum speed', 'rpm', -30000, 30000],
			['30.17', 'Maximum current', 'A', 0, 30000],
		],
	},
	{
		title: '23 Speed reference ramp',
		params: [
			['23.12', 'Acceleration time 1', 's', 0, 1800],
			['23.13', 'Deceleration time 1', 's', 0, 1800],
		],
	},
	{
		title: '31 Fault functions',
		params: [
			['31.19', 'Motor phase loss', '', 0, 1],
			['31.20', 'Earth fault', '', 0, 2],
		],
	},
];

/** Parameter backups of drives (E24, E25): about one every ten days, plus one on connection day. */
export class BackupSource {
	constructor(private readonly seed: number) {}

	list(asset: AssetRec, start: number, end: number, now: number): BackupItem[] {
		const out: BackupItem[] = [];
		const first = Math.max(dayIndex(start), dayIndex(asset.createdOn));
		const last = dayIndex(Math.min(end, now));
		for (let day = first; day <= last; day++) {
			const item = this.onDay(asset, day);
			if (item && item.time >= start && item.time <= end && item.time <= now) out.push(item);
		}
		return out;
	}

	find(asset: AssetRec, id: string, now: number): BackupItem | undefined {
		const m = /^PB-(\d+)-(\d+)$/.exec(id);
		if (!m || Number(m[1]) !== asset.id) return undefined;
		const item = this.onDay(asset, Number(m[2]));
		return item && item.time <= now ? item : undefined;
	}

	content(
		asset: AssetRec,
		item: BackupItem,
	): Array<{ title: string; parameters: Array<Record<string, string>> }> {
		return GROUPS.map((group, g) => ({
			title: group.title,
			parameters: group.params.map(([paraId, name, unitName, min, max], p) => {
				const u = unit(this.seed, asset.id, g, p, Math.floor(item.time / (30 * DAY)));
				const value =
					paraId === '99.04'
						? pickBy(['DTC', 'Scalar'], u)
						: max <= 2
							? String(Math.floor(u * (max + 1)))
							: String(Math.round(min + (max - min) * 0.05 + u * (max - min) * 0.2));
				return { paraId, name, value, unit: unitName, minimum: String(min), maximum: String(max) };
			}),
		}));
	}

	private onDay(asset: AssetRec, day: number): BackupItem | undefined {
		const connectionDay = day === dayIndex(asset.createdOn);
		if (!connectionDay && unit(this.seed, asset.id, day, 61) >= 0.1) return undefined;
		const time = Math.max(
			asset.createdOn,
			day * DAY + Math.floor(unit(this.seed, asset.id, day, 62) * 23) * HOUR,
		);
		const name = connectionDay
			? 'Commissioning backup'
			: `Backup ${utc8DateTime(time).slice(0, 10)}`;
		return { id: `PB-${asset.id}-${day}`, time, name };
	}
}
