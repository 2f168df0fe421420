import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { Asset } from '../../../../shared/schemas';
import { toItems } from '../output';
import { simplifyOption } from '../common';
import { simplifyAsset } from './simplify';
import { withMembers } from '../../../../shared/fleet';

/** Fields shared by the two asset lists (E3, E4): a type filter and Simplify. */
export const assetListProperties: INodeProperties[] = [
	{
		displayName: 'Asset Types',
		name: 'assetTypes',
		type: 'multiOptions',
		default: [],
		options: [
			{ name: 'Drive', value: 'Drive' },
			{ name: 'Motor', value: 'Motor' },
			{ name: 'PowerTrain', value: 'PowerTrain' },
		],
		description:
			'Only assets of these types, including the drive and motor inside each powertrain (all top-level assets when empty). Asset data operations accept drives and motors, not powertrains.',
	},
	simplifyOption,
];

export function assetListItems(
	this: IExecuteFunctions,
	assets: Asset[],
	itemIndex: number,
): INodeExecutionData[] {
	const types = this.getNodeParameter('assetTypes', itemIndex, []) as string[];
	const kept =
		types.length > 0
			? withMembers(assets).filter((asset) => types.includes(asset.assetType))
			: assets;
	return toItems(this.getNodeParameter('simplify', itemIndex) ? kept.map(simplifyAsset) : kept);
}
