import { z } from 'zod/v4';
import { AssetIdInput, AssetIdOnlyInput, CreateDriveInput, MoveAssetInput, RenameAssetInput } from '../schemas/inputs';
import { AssetDetail, AssetSubscription, Empty } from '../schemas/resources';
import type { EndpointContext, RequestOptions } from './context';

export function assetEndpoints(ctx: EndpointContext) {
  return {
    /** E8: asset detail. */
    async get(input: AssetIdInput, options?: RequestOptions): Promise<AssetDetail> {
      const v = ctx.validate('E8', AssetIdInput, input);
      return ctx.call('E8', AssetDetail, { params: { id: v.id } }, options);
    },
    /** E9: the asset's subscriptions (codes, levels, statuses). */
    async listSubscriptions(input: AssetIdOnlyInput, options?: RequestOptions): Promise<AssetSubscription[]> {
      const v = ctx.validate('E9', AssetIdOnlyInput, input);
      return ctx.call('E9', z.array(AssetSubscription), { params: { assetid: v.assetId } }, options);
    },
    /** E10: create a drive (name and serial at most 30 characters). Never retried blindly. */
    async createDrive(input: CreateDriveInput, options?: RequestOptions): Promise<AssetDetail> {
      const body = ctx.validate('E10', CreateDriveInput, input);
      return ctx.call('E10', AssetDetail, { body }, options);
    },
    /** E11: rename (at most 30 characters). */
    async rename(input: RenameAssetInput, options?: RequestOptions): Promise<Empty> {
      const v = ctx.validate('E11', RenameAssetInput, input);
      return ctx.call('E11', Empty, { body: { id: v.id, name: v.name } }, options);
    },
    /** E12: move to another asset group. */
    async move(input: MoveAssetInput, options?: RequestOptions): Promise<Empty> {
      const v = ctx.validate('E12', MoveAssetInput, input);
      return ctx.call('E12', Empty, { body: { assetId: v.assetId, assetGroupId: v.assetGroupId } }, options);
    },
    /** E13: delete (not for PowerTrain). */
    async delete(input: AssetIdInput, options?: RequestOptions): Promise<Empty> {
      const v = ctx.validate('E13', AssetIdInput, input);
      return ctx.call('E13', Empty, { params: { id: v.id } }, options);
    },
  };
}
