import { LEVEL_FEATURES, type Level, type LevelFeatures } from '../../shared/spec';
import type { AssetRec, GroupRec, OrgRec, PlantRec } from '../fleet/model';
import { ApiError } from '../http/envelope';
import type { Fields } from '../http/fields';
import type { Platform } from '../platform';

export interface ApiContext {
	platform: Platform;
	caller: OrgRec;
	params: Record<string, string>;
	query: Fields;
	body: Fields;
}

export type Handler = (ctx: ApiContext) => unknown;

/** An EU the caller may act on (E3, E4, E5). */
export function requireEu(ctx: ApiContext, orgId: number): OrgRec {
	const org = ctx.platform.store.org(orgId);
	if (!org) throw new ApiError(101201, `organization ${orgId}`);
	if (org.orgType !== 'EU')
		throw new ApiError(
			101401,
			`organization ${orgId} is a ${org.orgType}, this operation takes an EU organization`,
		);
	if (ctx.caller.orgType === 'CP' && !org.authorizedCpIds.includes(ctx.caller.id)) {
		throw new ApiError(
			101202,
			`organization ${orgId} has not authorized service provider ${ctx.caller.id}`,
		);
	}
	if (!ctx.platform.store.canSeeOrg(ctx.caller, orgId))
		throw new ApiError(
			101401,
			`organization ${orgId} is outside the caller's organization ${ctx.caller.id}`,
		);
	return org;
}

/** An EU or CP the caller may read statistics of (E6). */
export function requireStatisticsOrg(ctx: ApiContext, orgId: number): OrgRec {
	const org = ctx.platform.store.org(orgId);
	if (!org) throw new ApiError(101201, `organization ${orgId}`);
	if (org.id === ctx.caller.id || ctx.caller.orgType === 'VENDOR') return org;
	if (org.orgType === 'EU') return requireEu(ctx, orgId);
	throw new ApiError(
		101401,
		`organization ${orgId} is outside the caller's organization ${ctx.caller.id}`,
	);
}

export function requireGroup(ctx: ApiContext, groupId: number, orgId?: number): GroupRec {
	const group = ctx.platform.store.group(groupId);
	if (!group) throw new ApiError(103201, `asset group ${groupId}`);
	if (
		!ctx.platform.store.canSeeOrg(ctx.caller, group.orgId) ||
		(orgId !== undefined && group.orgId !== orgId)
	) {
		throw new ApiError(103401, `asset group ${groupId} belongs to another organization`);
	}
	return group;
}

export function requirePlant(ctx: ApiContext, plantId: number, orgId: number): PlantRec {
	const plant = ctx.platform.store.plant(plantId);
	if (!plant) throw new ApiError(104201, `plant ${plantId}`);
	if (!ctx.platform.store.canSeeOrg(ctx.caller, plant.orgId) || plant.orgId !== orgId) {
		throw new ApiError(104401, `plant ${plantId} belongs to another organization`);
	}
	return plant;
}

/** An asset in the caller's scope: 102201 when unknown, 102401 when outside the scope. */
export function requireAsset(ctx: ApiContext, assetId: number): AssetRec {
	const asset = ctx.platform.store.asset(assetId);
	if (!asset) throw new ApiError(102201, `asset ${assetId}`);
	if (!ctx.platform.store.canSeeOrg(ctx.caller, asset.orgId))
		throw new ApiError(
			102401,
			`asset ${assetId} belongs to an organization outside the caller's scope`,
		);
	return asset;
}

/** The spec: PowerTrain is not supported by the subscription, asset-management and asset-data endpoints. */
export function requireDriveOrMotor(asset: AssetRec): void {
	if (asset.assetType === 'PowerTrain')
		throw new ApiError(
			102202,
			`asset ${asset.id} is a PowerTrain; this endpoint supports Drive and Motor`,
		);
}

export function requireDrive(asset: AssetRec, what: string): void {
	requireDriveOrMotor(asset);
	if (asset.assetType !== 'Drive')
		throw new ApiError(
			102202,
			`asset ${asset.id} is a ${asset.assetType}; ${what} exist for drives only`,
		);
}

/** A monitored Drive or Motor with a usable subscription: 102202, 102205, then the level's feature. */
export function requireAssetData(
	ctx: ApiContext,
	assetId: number,
	feature?: (f: LevelFeatures) => boolean,
	what = 'this function',
): { asset: AssetRec; level: Level } {
	const asset = requireAsset(ctx, assetId);
	requireDriveOrMotor(asset);
	const standing = ctx.platform.store.standing(asset, ctx.platform.now());
	if (standing.kind === 'expired')
		throw new ApiError(102205, `asset ${assetId} has no active subscription; bind a new code (E7)`);
	if (feature && !feature(LEVEL_FEATURES[standing.level])) {
		throw new ApiError(
			102403,
			`${what} is not available at the ${standing.level} level of asset ${assetId}`,
		);
	}
	return { asset, level: standing.level };
}
