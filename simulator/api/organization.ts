import { LIMITS } from '../../shared/spec';
import type { AssetRec, OrgRec } from '../fleet/model';
import { pathInt } from '../http/fields';
import type { Platform } from '../platform';
import { isoUtc } from '../time';
import {
	requireEu,
	requireGroup,
	requireStatisticsOrg,
	type ApiContext,
	type Handler,
} from './context';

function organizationPayload(org: OrgRec, platform: Platform): Record<string, unknown> {
	const provider =
		org.orgType === 'EU' ? platform.store.org(org.authorizedCpIds[0] ?? -1) : undefined;
	return {
		id: org.id,
		name: org.name,
		orgType: org.orgType,
		industry: org.industry,
		province: org.province,
		city: org.city,
		district: org.district,
		address: org.address,
		contact: org.contact,
		phone: org.phone,
		serviceProviderName: provider?.name ?? null,
		serviceProviderContactName: provider?.contact ?? null,
		serviceProviderContactPhone: provider?.phone ?? null,
	};
}

function groupsAndPlants(platform: Platform, orgId: number): Record<string, unknown> {
	return {
		assetGroups: platform.store.groupsOf(orgId).map((g) => ({ id: g.id, name: g.name })),
		plants: platform.store.plantsOf(orgId).map((p) => ({
			id: p.id,
			name: p.name,
			province: p.province,
			city: p.city,
			district: p.district,
			address: p.address,
			latitude: p.latitude,
			longitude: p.longitude,
			zipCode: p.zipCode,
			description: p.description,
			createdOn: isoUtc(p.createdOn),
		})),
	};
}

const getOrganization: Handler = (ctx) => organizationPayload(ctx.caller, ctx.platform);

const getNodes: Handler = ({ caller, platform }) => {
	const isEu = caller.orgType === 'EU';
	// VENDOR: every other organization; CP: the EUs that authorized it (A2: payload name serverOrgs).
	const served = isEu
		? []
		: platform.store
				.orgs()
				.filter(
					(o) =>
						o.id !== caller.id &&
						(caller.orgType === 'VENDOR' ||
							(o.orgType === 'EU' && o.authorizedCpIds.includes(caller.id))),
				);
	return {
		orgId: caller.id,
		orgName: caller.name,
		orgType: caller.orgType,
		...(isEu ? groupsAndPlants(platform, caller.id) : { assetGroups: [], plants: [] }),
		serverOrgs: served.map((o) => ({
			orgId: o.id,
			orgName: o.name,
			orgType: o.orgType,
			...groupsAndPlants(platform, o.id),
		})),
	};
};

const listAssets: Handler = (ctx) => {
	const org = requireEu(ctx, pathInt(ctx.params, 'orgid'));
	return ctx.platform.store.topLevelAssets(org.id).map((a) => ctx.platform.assetListItem(a));
};

const listGroupAssets: Handler = (ctx) => {
	const org = requireEu(ctx, pathInt(ctx.params, 'orgid'));
	const group = requireGroup(ctx, pathInt(ctx.params, 'assetgroupid'), org.id);
	return ctx.platform.store
		.topLevelAssets(org.id, group.id)
		.map((a) => ctx.platform.assetListItem(a));
};

const createAssetGroup: Handler = (ctx) => {
	const orgId = ctx.body.int('orgId');
	const name = ctx.body.string('name', { max: LIMITS.assetGroupNameMax });
	const org = requireEu(ctx, orgId);
	const data = ctx.platform.data;
	const group = { id: data.ids.group++, orgId: org.id, name };
	data.groups.set(group.id, group);
	return { id: group.id, name: group.name };
};

function counts(assets: AssetRec[]): { drive: number; motor: number; powertrain: number } {
	return {
		drive: assets.filter((a) => a.assetType === 'Drive').length,
		motor: assets.filter((a) => a.assetType === 'Motor').length,
		powertrain: assets.filter((a) => a.assetType === 'PowerTrain').length,
	};
}

const getStatistics: Handler = (ctx: ApiContext) => {
	const org = requireStatisticsOrg(ctx, pathInt(ctx.params, 'orgid'));
	const store = ctx.platform.store;
	const assetsOf = (euIds: number[]): AssetRec[] =>
		store.assets().filter((a) => euIds.includes(a.orgId));
	if (org.orgType === 'EU')
		return {
			orgId: org.id,
			customerCount: null,
			...counts(assetsOf([org.id])),
			deviceStatistics: null,
		};
	const euIds = store.visibleEuIds(org);
	return {
		orgId: org.id,
		customerCount: euIds.length,
		...counts(assetsOf(euIds)),
		deviceStatistics:
			org.orgType === 'CP'
				? euIds.map((id) => ({ orgId: id, customerCount: null, ...counts(assetsOf([id])) }))
				: null,
	};
};

export const organizationHandlers = {
	E1: getOrganization,
	E2: getNodes,
	E3: listAssets,
	E4: listGroupAssets,
	E5: createAssetGroup,
	E6: getStatistics,
} satisfies Record<string, Handler>;
