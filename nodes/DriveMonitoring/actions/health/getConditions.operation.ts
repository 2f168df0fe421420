import { assetRead } from '../assetRead';

export const getConditions = assetRead(
	{
		name: 'Get Conditions',
		value: 'getConditions',
		action:
			'Get the health conditions of an asset: returns the health of one asset: Overall, Availability, Environment, Reliability and Stress, each Good, Tolerable, Poor or Unknown; use for "is it healthy?"',
		description:
			'Get the latest health conditions of an asset (Overall, Availability, Environment, Reliability, Stress: Good, Tolerable, Poor or Unknown), one item per condition; the subscription level limits which are returned',
	},
	async (client, assetId) =>
		(await client.assetData.getConditions({ assetId })).map((condition) => ({
			assetId,
			...condition,
		})),
);
