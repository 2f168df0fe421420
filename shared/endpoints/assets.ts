import { z } from 'zod/v4';
import {
	AssetIdInput,
	AssetIdOnlyInput,
	CreateDriveInput,
	MoveAssetInput,
	RenameAssetInput,
} from '../schemas/inputs';
import { AssetDetail, AssetSubscription, Empty } from '../schemas/resources';
import type { EndpointContext } from './context';

export function assetEndpoints(ctx: EndpointContext) {
	return {
		/** E8: asset detail. */
		get: ctx.endpoint('E8', AssetIdInput, AssetDetail, (v) => ({ params: { id: v.id } })),
		/** E9: the asset's subscriptions (codes, levels, statuses). */
		listSubscriptions: ctx.endpoint('E9', AssetIdOnlyInput, z.array(AssetSubscription), (v) => ({
			params: { assetid: v.assetId },
		})),
		/** E10: create a drive (name and serial at most 30 characters); the body in the spec's PascalCase (A1). Never retried blindly. */
		createDrive: ctx.endpoint('E10', CreateDriveInput, AssetDetail, (body) => ({ body })),
		/** E11: rename (at most 30 characters). */
		rename: ctx.endpoint('E11', RenameAssetInput, Empty, (v) => ({
			body: { id: v.id, name: v.name },
		})),
		/** E12: move to another asset group. */
		move: ctx.endpoint('E12', MoveAssetInput, Empty, (v) => ({
			body: { assetId: v.assetId, assetGroupId: v.assetGroupId },
		})),
		/** E13: delete (not for PowerTrain). */
		delete: ctx.endpoint('E13', AssetIdInput, Empty, (v) => ({ params: { id: v.id } })),
	};
}
