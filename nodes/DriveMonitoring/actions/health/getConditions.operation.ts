import type { Operation } from '../types';
import { getIdParameter, locator } from '../common';
import { toItems } from '../output';

export const getConditions: Operation = {
	option: {
		name: 'Get Conditions',
		value: 'getConditions',
		action: 'Get the health conditions of an asset',
		description:
			'Get the latest health conditions of an asset (Overall, Availability, Environment, Reliability, Stress: Good, Tolerable, Poor or Unknown), one item per condition; the subscription level limits which are returned',
	},
	readOnly: true,
	properties: [locator('asset')],
	async execute(client, itemIndex) {
		const assetId = getIdParameter.call(this, 'asset', itemIndex);
		const conditions = await client.assetData.getConditions({ assetId });
		return toItems(conditions.map((condition) => ({ assetId, ...condition })));
	},
};
