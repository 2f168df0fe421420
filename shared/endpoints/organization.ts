import { z } from 'zod/v4';
import { Asset, AssetGroup, AssetStatistics, Organization, OrganizationNode } from '../schemas/resources';
import { CreateAssetGroupInput, GroupAssetsInput, OrgInput } from '../schemas/inputs';
import type { EndpointContext, RequestOptions } from './context';

export function organizationEndpoints(ctx: EndpointContext) {
  return {
    /** E1: the caller's own organization. */
    async get(options?: RequestOptions): Promise<Organization> {
      return ctx.call('E1', Organization, {}, options);
    },
    /** E2: the caller's tree of asset groups, plants and sub-organizations. */
    async getNodes(options?: RequestOptions): Promise<OrganizationNode> {
      return ctx.call('E2', OrganizationNode, {}, options);
    },
    /** E3: assets of an EU organization. */
    async listAssets(input: OrgInput, options?: RequestOptions): Promise<Asset[]> {
      const v = ctx.validate('E3', OrgInput, input);
      return ctx.call('E3', z.array(Asset), { params: { orgid: v.orgId } }, options);
    },
    /** E4: assets of one asset group. */
    async listGroupAssets(input: GroupAssetsInput, options?: RequestOptions): Promise<Asset[]> {
      const v = ctx.validate('E4', GroupAssetsInput, input);
      return ctx.call('E4', z.array(Asset), { params: { orgid: v.orgId, assetgroupid: v.assetGroupId } }, options);
    },
    /** E5: create an asset group in an EU organization (name at most 20 characters). Never retried blindly. */
    async createAssetGroup(input: CreateAssetGroupInput, options?: RequestOptions): Promise<AssetGroup> {
      const v = ctx.validate('E5', CreateAssetGroupInput, input);
      return ctx.call('E5', AssetGroup, { body: { orgId: v.orgId, name: v.name } }, options);
    },
    /** E6: asset counts of an EU, or of the EUs a CP serves. */
    async getAssetStatistics(input: OrgInput, options?: RequestOptions): Promise<AssetStatistics> {
      const v = ctx.validate('E6', OrgInput, input);
      return ctx.call('E6', AssetStatistics, { params: { orgid: v.orgId } }, options);
    },
  };
}
