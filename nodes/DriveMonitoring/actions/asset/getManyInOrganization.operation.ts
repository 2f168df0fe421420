import type { Operation } from '../types';
import { getIdParameter, locator, simplifyOption } from '../common';
import { toItems } from '../output';
import { simplifyAsset } from './simplify';

export const getManyInOrganization: Operation = {
	option: {
		name: 'Get Many in Organization',
		value: 'getManyInOrganization',
		action: 'Get assets of an organization',
		description: 'List the drives, motors and powertrains of an end-user organization, one item per asset',
	},
	properties: [locator('organization', { description: 'The end-user organization' }), simplifyOption],
	async execute(client, itemIndex) {
		const orgId = getIdParameter.call(this, 'organization', itemIndex);
		const assets = await client.organization.listAssets({ orgId });
		return toItems(this.getNodeParameter('simplify', itemIndex) ? assets.map(simplifyAsset) : assets);
	},
};
