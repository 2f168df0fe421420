import type { Operation } from '../types';
import { getIdParameter, locator } from '../common';
import { toItems } from '../output';

export const getMany: Operation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get reports of an asset',
		description: 'List the reports of an asset created in the last 7 days with their status (Creating, Created, Failed), one item per report',
	},
	readOnly: true,
	properties: [locator('asset')],
	async execute(client, itemIndex) {
		const assetId = getIdParameter.call(this, 'asset', itemIndex);
		return toItems(await client.assetData.listReports({ assetId }));
	},
};
