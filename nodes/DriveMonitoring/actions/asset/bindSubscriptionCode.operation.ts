import type { Operation } from '../types';
import { resolveIdParameter, getTextParameter, locator } from '../common';
import { doneItem } from '../output';

export const bindSubscriptionCode: Operation = {
	option: {
		name: 'Bind Subscription Code',
		value: 'bindSubscriptionCode',
		action:
			'Bind a subscription code to an asset. CHANGES THE FLEET: binds a subscription code to an asset (by ID); use only when a person gave the code',
		description:
			'Activate a subscription on a drive or motor with a subscription code (not for powertrains; NETA-21 assets take Premium codes only)',
	},
	properties: [
		locator('asset'),
		{
			displayName: 'Subscription Code',
			name: 'subscriptionCode',
			type: 'string',
			default: '',
			required: true,
		},
	],
	async execute(client, itemIndex) {
		const assetId = await resolveIdParameter.call(this, client, 'asset', itemIndex);
		const subscriptionCode = getTextParameter.call(
			this,
			'subscriptionCode',
			'Subscription Code',
			itemIndex,
		);
		await client.subscription.bind({ assetId, subscriptionCode });
		return doneItem({ assetId, subscriptionCode });
	},
};
