import type { Level } from '../../shared/spec';
import type { AssetRec, FleetData, GroupRec, OrgRec, PlantRec, SubscriptionRec } from './model';

export type SubscriptionStatus = 'Nonactivated' | 'Activated' | 'Expired';

/** An asset's standing: its level, or why it has none. */
export type AssetStanding =
	| { kind: 'active'; level: Level }
	| { kind: 'expired' }
	| { kind: 'never'; level: Level };

/** Level of an asset that never had a subscription (see docs/assumptions.md, Simulator). */
export const UNSUBSCRIBED_LEVEL: Level = 'Entry';

export function subscriptionStatus(sub: SubscriptionRec, now: number): SubscriptionStatus {
	if (now < sub.startAt) return 'Nonactivated';
	return now < sub.endAt ? 'Activated' : 'Expired';
}

/** Lookups and rules over the fleet: organization scope and subscription standing. */
export class FleetStore {
	constructor(readonly data: FleetData) {}

	org(id: number): OrgRec | undefined {
		return this.data.orgs.get(id);
	}

	group(id: number): GroupRec | undefined {
		return this.data.groups.get(id);
	}

	plant(id: number): PlantRec | undefined {
		return this.data.plants.get(id);
	}

	asset(id: number): AssetRec | undefined {
		return this.data.assets.get(id);
	}

	orgs(): OrgRec[] {
		return [...this.data.orgs.values()];
	}

	assets(): AssetRec[] {
		return [...this.data.assets.values()];
	}

	groupsOf(orgId: number): GroupRec[] {
		return [...this.data.groups.values()].filter((g) => g.orgId === orgId);
	}

	plantsOf(orgId: number): PlantRec[] {
		return [...this.data.plants.values()].filter((p) => p.orgId === orgId);
	}

	/** EUs whose data the caller may see: VENDOR all, CP those that authorized it, EU itself. */
	visibleEuIds(caller: OrgRec): number[] {
		if (caller.orgType === 'EU') return [caller.id];
		return this.orgs()
			.filter(
				(o) =>
					o.orgType === 'EU' &&
					(caller.orgType === 'VENDOR' || o.authorizedCpIds.includes(caller.id)),
			)
			.map((o) => o.id);
	}

	canSeeOrg(caller: OrgRec, euId: number): boolean {
		return this.visibleEuIds(caller).includes(euId);
	}

	/** Top-level assets of an EU (members of a PowerTrain appear inside it), optionally of one group. */
	topLevelAssets(orgId: number, groupId?: number): AssetRec[] {
		return this.assets().filter(
			(a) =>
				a.orgId === orgId &&
				a.powerTrainId === null &&
				(groupId === undefined || a.groupId === groupId),
		);
	}

	/** The standing that gates an asset: a PowerTrain stands as its drive does. */
	standing(asset: AssetRec, now: number): AssetStanding {
		const subject = asset.memberIds ? (this.asset(asset.memberIds[0]) ?? asset) : asset;
		const active = subject.subscriptions.filter((s) => subscriptionStatus(s, now) === 'Activated');
		if (active.length > 0)
			return { kind: 'active', level: highestLevel(active.map((s) => s.level)) };
		if (subject.subscriptions.some((s) => subscriptionStatus(s, now) === 'Expired'))
			return { kind: 'expired' };
		return { kind: 'never', level: UNSUBSCRIBED_LEVEL };
	}
}

const ORDER: Record<Level, number> = { Entry: 0, Basic: 1, Standard: 2, Premium: 3 };

export function highestLevel(levels: Level[]): Level {
	return levels.reduce((best, l) => (ORDER[l] > ORDER[best] ? l : best), levels[0]);
}
