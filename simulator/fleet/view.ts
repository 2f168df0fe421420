import type { Level } from '../../shared/spec';
import type { Platform } from '../platform';
import { isoUtc } from '../time';
import { isCbmCapable, type AssetRec } from './model';

/** A read-only view of the fleet, for tests and demos to pick assets by kind. */
export interface AssetSummary
	extends Pick<
		AssetRec,
		| 'id'
		| 'orgId'
		| 'groupId'
		| 'plantId'
		| 'name'
		| 'serialNumber'
		| 'assetType'
		| 'modelType'
		| 'gatewayType'
		| 'powerTrainId'
		| 'memberIds'
	> {
	/** The gating level, 'expired' when every subscription ended. */
	level: Level | 'expired';
	/** True when the asset never had a subscription (it then stands at Entry). */
	unsubscribed: boolean;
	cbmCapable: boolean;
	createdOn: string;
}

export interface FleetView {
	assets(): AssetSummary[];
	orgs(): Array<{
		id: number;
		name: string;
		orgType: string;
		authorizedCpIds: number[];
		groupIds: number[];
		plantIds: number[];
	}>;
}

/** The fleet as it stands on the platform's simulated clock. */
export function fleetView(platform: Platform): FleetView {
	const clock = platform.clock;
	return {
		assets: () =>
			platform.store.assets().map((a) => {
				const standing = platform.store.standing(a, clock.now());
				return {
					id: a.id,
					orgId: a.orgId,
					groupId: a.groupId,
					plantId: a.plantId,
					name: a.name,
					serialNumber: a.serialNumber,
					assetType: a.assetType,
					modelType: a.modelType,
					gatewayType: a.gatewayType,
					level: standing.kind === 'expired' ? 'expired' : standing.level,
					unsubscribed: standing.kind === 'never',
					cbmCapable: isCbmCapable(a),
					createdOn: isoUtc(a.createdOn),
					powerTrainId: a.powerTrainId,
					memberIds: a.memberIds && [...a.memberIds],
				};
			}),
		orgs: () =>
			platform.store.orgs().map((o) => ({
				id: o.id,
				name: o.name,
				orgType: o.orgType,
				authorizedCpIds: [...o.authorizedCpIds],
				groupIds: platform.store.groupsOf(o.id).map((g) => g.id),
				plantIds: platform.store.plantsOf(o.id).map((p) => p.id),
			})),
	};
}
