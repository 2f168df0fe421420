import { CONDITION_TYPES, DEVICE_UNIT_TYPES, type ConditionType } from '../../shared/spec';
import type { AssetRec } from '../fleet/model';
import { unit } from '../random';
import { DAY, dayIndex, utc8Date } from '../time';

export type ConditionStatus = 'Unknown' | 'Good' | 'Tolerable' | 'Poor';
export type UnitType = keyof typeof DEVICE_UNIT_TYPES;
export type UnitStatus = 'Gray' | 'Good' | 'Yellow' | 'Red';

const CONDITION_RANK: Record<ConditionStatus, number> = {
	Unknown: 0,
	Good: 1,
	Tolerable: 2,
	Poor: 3,
};
/** Design lifetimes used to predict maintenance dates (see docs/assumptions.md, Simulator). */
const UNIT_LIFE_DAYS: Record<UnitType, number> = {
	Fan: 6 * 365,
	Capacitor: 9 * 365,
	IGBT: 12 * 365,
};
const UNIT_ORDER: UnitType[] = ['Fan', 'Capacitor', 'IGBT'];
const KPI: Record<UnitStatus, number> = { Gray: 0.0, Good: 0.01, Yellow: 0.5, Red: 1.0 };

export interface CbmResult {
	deviceUnitType: UnitType;
	deviceUnitStatus: UnitStatus;
	predictedNoPlanDate: string;
	predictedStartPlanDate: string;
	predictedRunPlanDate: string;
	deviceDayKPIs: Array<{ date: string; kpi: number }>;
}

/** Health conditions (E18) and CBM (E19, E20): derived per asset and day, with overrides from control. */
export class HealthModel {
	private readonly conditionOverrides = new Map<string, ConditionStatus>();
	private readonly unitOverrides = new Map<string, UnitStatus>();
	private readonly commissioning = new Map<string, number>();

	constructor(private readonly seed: number) {}

	conditions(
		asset: AssetRec,
		now: number,
		allowed: readonly ConditionType[],
	): Array<{ type: ConditionType; status: ConditionStatus }> {
		const day = dayIndex(now);
		const parts = CONDITION_TYPES.filter((t) => t !== 'Overall').map((type, i) => {
			const forced = this.conditionOverrides.get(`${asset.id}:${type}`);
			const roll = unit(this.seed, asset.id, day, i, 31);
			const status: ConditionStatus =
				forced ??
				(now - asset.createdOn < DAY
					? 'Unknown'
					: roll < 0.75
						? 'Good'
						: roll < 0.93
							? 'Tolerable'
							: 'Poor');
			return { type, status };
		});
		const worst = parts.reduce<ConditionStatus>(
			(w, p) => (CONDITION_RANK[p.status] > CONDITION_RANK[w] ? p.status : w),
			'Unknown',
		);
		const overall = this.conditionOverrides.get(`${asset.id}:Overall`) ?? worst;
		return [{ type: 'Overall' as ConditionType, status: overall }, ...parts].filter((c) =>
			allowed.includes(c.type),
		);
	}

	setCondition(assetId: number, type: ConditionType, status: ConditionStatus): void {
		this.conditionOverrides.set(`${assetId}:${type}`, status);
	}

	commissioningDate(asset: AssetRec, unitType: UnitType): number {
		const set = this.commissioning.get(`${asset.id}:${unitType}`);
		if (set !== undefined) return set;
		// Components were commissioned with the drive, some years before it was connected.
		return (
			asset.createdOn -
			Math.floor(unit(this.seed, asset.id, UNIT_ORDER.indexOf(unitType), 41) * 6 * 365) * DAY
		);
	}

	setCommissioningDate(assetId: number, unitType: UnitType, at: number): void {
		this.commissioning.set(`${assetId}:${unitType}`, at);
	}

	setUnitStatus(assetId: number, unitType: UnitType, status: UnitStatus): void {
		this.unitOverrides.set(`${assetId}:${unitType}`, status);
	}

	cbm(asset: AssetRec, now: number): CbmResult[] {
		return UNIT_ORDER.map((unitType) => {
			const run = this.commissioningDate(asset, unitType) + UNIT_LIFE_DAYS[unitType] * DAY;
			const startPlan = run - 365 * DAY;
			const noPlan = startPlan - 365 * DAY;
			const derived: UnitStatus =
				now - asset.createdOn < 7 * DAY
					? 'Gray'
					: now >= run - 90 * DAY
						? 'Red'
						: now >= startPlan
							? 'Yellow'
							: 'Good';
			const status = this.unitOverrides.get(`${asset.id}:${unitType}`) ?? derived;
			const kpis = [];
			for (let d = 29; d >= 0; d--) {
				const dayStart = now - d * DAY;
				// A few days without data read as unknown (0.0), as a gateway outage would.
				const gap =
					dayStart < asset.createdOn || unit(this.seed, asset.id, dayIndex(dayStart), 51) < 0.05;
				kpis.push({ date: utc8Date(dayStart), kpi: gap ? KPI.Gray : KPI[status] });
			}
			return {
				deviceUnitType: unitType,
				deviceUnitStatus: status,
				predictedNoPlanDate: noPlan > now ? utc8Date(noPlan) : '',
				predictedStartPlanDate: startPlan > now ? utc8Date(startPlan) : '',
				predictedRunPlanDate: utc8Date(run),
				deviceDayKPIs: kpis,
			};
		});
	}
}

export function unitTypeOfNumber(n: number): UnitType | undefined {
	return (Object.keys(DEVICE_UNIT_TYPES) as UnitType[]).find((k) => DEVICE_UNIT_TYPES[k] === n);
}
