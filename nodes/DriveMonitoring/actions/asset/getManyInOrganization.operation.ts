import type { Operation } from '../types';
import { resolveIdParameter, locator } from '../common';
import { assetListItems, assetListProperties } from './assetList';

export const getManyInOrganization: Operation = {
	option: {
		name: 'Get Many in Organization',
		value: 'getManyInOrganization',
		action:
			'Get assets of an organization: list the assets of an organization (ID, name, type, status, group); a long list answers with the newest 20 and the total; use to find an asset ID by name',
		description:
			'List the drives, motors and powertrains of an end-user organization, one item per asset',
	},
	readOnly: true,
	properties: [
		locator('organization', { description: 'The end-user organization' }),
		...assetListProperties,
	],
	async execute(client, itemIndex) {
		const orgId = await resolveIdParameter.call(this, client, 'organization', itemIndex);
		return assetListItems.call(this, await client.organization.listAssets({ orgId }), itemIndex);
	},
};
