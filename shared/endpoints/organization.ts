import { z } from 'zod/v4';
import { CreateAssetGroupInput, GroupAssetsInput, OrgInput } from '../schemas/inputs';
import {
	Asset,
	AssetGroup,
	AssetStatistics,
	Organization,
	OrganizationNode,
} from '../schemas/resources';
import type { EndpointContext } from './context';

export function organizationEndpoints(ctx: EndpointContext) {
	return {
		/** E1: the caller's own organization. */
		get: ctx.endpointWithoutInput('E1', Organization),
		/** E2: the caller's tree of asset groups, plants and sub-organizations. */
		getNodes: ctx.endpointWithoutInput('E2', OrganizationNode),
		/** E3: assets of an EU organization. */
		listAssets: ctx.endpoint('E3', OrgInput, z.array(Asset), (v) => ({
			params: { orgid: v.orgId },
		})),
		/** E4: assets of one asset group. */
		listGroupAssets: ctx.endpoint('E4', GroupAssetsInput, z.array(Asset), (v) => ({
			params: { orgid: v.orgId, assetgroupid: v.assetGroupId },
		})),
		/** E5: create an asset group in an EU organization (name at most 20 characters). Never retried blindly. */
		createAssetGroup: ctx.endpoint('E5', CreateAssetGroupInput, AssetGroup, (v) => ({
			body: { orgId: v.orgId, name: v.name },
		})),
		/** E6: asset counts of an EU, or of the EUs a CP serves. */
		getAssetStatistics: ctx.endpoint('E6', OrgInput, AssetStatistics, (v) => ({
			params: { orgid: v.orgId },
		})),
	};
}
