import type { Operation } from '../types';
import { resolveIdParameter, locator } from '../common';
import { doneItem } from '../output';

export const move: Operation = {
	option: {
		name: 'Move',
		value: 'move',
		action:
			'Move an asset to another group. CHANGES THE FLEET: moves an asset (by ID) to another asset group; use only when a person asked to move it',
		description: 'Move an asset to another asset group',
	},
	properties: [
		locator('asset'),
		locator('assetGroup', {
			displayName: 'Target Asset Group',
			description: 'The group the asset moves to',
		}),
	],
	async execute(client, itemIndex) {
		const assetId = await resolveIdParameter.call(this, client, 'asset', itemIndex);
		const assetGroupId = await resolveIdParameter.call(this, client, 'assetGroup', itemIndex);
		await client.assets.move({ assetId, assetGroupId });
		return doneItem({ assetId, assetGroupId });
	},
};
