import type { Operation } from '../types';
import { getIdParameter, locator } from '../common';
import { toItems } from '../output';

export const getSubscriptions: Operation = {
	option: {
		name: 'Get Subscriptions',
		value: 'getSubscriptions',
		action: 'Get subscriptions of an asset',
		description: "List an asset's subscriptions (code, type, level Entry/Basic/Standard/Premium, status, dates), one item each",
	},
	readOnly: true,
	properties: [locator('asset')],
	async execute(client, itemIndex) {
		const assetId = getIdParameter.call(this, 'asset', itemIndex);
		return toItems(await client.assets.listSubscriptions({ assetId }));
	},
};
