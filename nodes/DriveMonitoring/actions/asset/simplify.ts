import type { IDataObject } from 'n8n-workflow';
import type { Asset, AssetDetail } from '../../../../shared/schemas';
import { pick } from '../output';

/** An asset list item without the nested PowerTrain members (their IDs are kept). */
export function simplifyAsset(asset: Asset): IDataObject {
	return {
		...pick(asset, [
			'id',
			'name',
			'serialNumber',
			'assetType',
			'organizationId',
			'organizationName',
			'assetGroupId',
			'assetGroupName',
		]),
		subAssetIds: asset.subAssets?.map((sub) => sub.id) ?? [],
	};
}

export function simplifyAssetDetail(detail: AssetDetail): IDataObject {
	return pick(detail, [
		'id',
		'name',
		'serialNumber',
		'assetType',
		'organization',
		'assetGroup',
		'plant',
		'modelType',
		'firmwareVersion',
		'latestDataReceived',
	]);
}
