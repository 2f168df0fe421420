import { assetRead } from '../assetRead';

export const getConditions = assetRead(
	{
		name: 'Get Conditions',
		value: 'getConditions',
		action: 'Get the health conditions of an asset',
		description:
			'Get the latest health conditions of an asset (Overall, Availability, Environment, Reliability, Stress: Good, Tolerable, Poor or Unknown), one item per condition; the subscription level limits which are returned',
	},
	async (client, assetId) =>
		(await client.assetData.getConditions({ assetId })).map((condition) => ({ assetId, ...condition })),
);
