import type { Operation } from '../types';
import { resolveIdParameter, locator } from '../common';
import { toItems } from '../output';

export const getAssetStatistics: Operation = {
	option: {
		name: 'Get Asset Statistics',
		value: 'getAssetStatistics',
		action:
			'Get asset counts of an organization: counts of drives, motors and powertrains of an organization; use for a fleet overview',
		description:
			'Count drives, motors and powertrains of an organization; a service provider also gets one entry per authorized customer',
	},
	readOnly: true,
	properties: [locator('organization')],
	async execute(client, itemIndex) {
		const orgId = await resolveIdParameter.call(this, client, 'organization', itemIndex);
		return toItems(await client.organization.getAssetStatistics({ orgId }));
	},
};
