import type { Operation } from '../types';
import { resolveIdParameter, locator } from '../common';
import { assetListItems, assetListProperties } from './assetList';

export const getManyInGroup: Operation = {
	option: {
		name: 'Get Many in Group',
		value: 'getManyInGroup',
		action:
			'Get assets of an asset group: list the assets of one asset group (ID, name, type, status); use to see what is in a group or a line',
		description:
			'List the assets of one asset group of an end-user organization, one item per asset',
	},
	readOnly: true,
	properties: [
		locator('organization', { description: 'The end-user organization of the group' }),
		locator('assetGroup'),
		...assetListProperties,
	],
	async execute(client, itemIndex) {
		const orgId = await resolveIdParameter.call(this, client, 'organization', itemIndex);
		const assetGroupId = await resolveIdParameter.call(this, client, 'assetGroup', itemIndex);
		return assetListItems.call(
			this,
			await client.organization.listGroupAssets({ orgId, assetGroupId }),
			itemIndex,
		);
	},
};
