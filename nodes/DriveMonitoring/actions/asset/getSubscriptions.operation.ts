import { assetRead } from '../assetRead';

export const getSubscriptions = assetRead(
	{
		name: 'Get Subscriptions',
		value: 'getSubscriptions',
		action:
			'Get subscriptions of an asset: returns the subscriptions of one asset (level, start and end dates); use to see which data and history an asset has',
		description:
			"List an asset's subscriptions (code, type, level Entry/Basic/Standard/Premium, status, dates), one item each",
	},
	async (client, assetId) => await client.assets.listSubscriptions({ assetId }),
);
