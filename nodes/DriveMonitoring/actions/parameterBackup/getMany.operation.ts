import type { Operation } from '../types';
import { getDateParameter, getIdParameter, locator, timeRange, timeRangeDefaults } from '../common';
import { toItems } from '../output';

export const getMany: Operation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get parameter backups of a drive',
		description: 'List the parameter backups of a drive taken in a time range (at most 365 days), one item per backup',
	},
	readOnly: true,
	properties: [locator('asset'), ...timeRange(timeRangeDefaults.last30Days, 'backup time range')],
	async execute(client, itemIndex) {
		const assetId = getIdParameter.call(this, 'asset', itemIndex);
		const startTime = getDateParameter.call(this, 'startTime', 'Start Time', itemIndex);
		const endTime = getDateParameter.call(this, 'endTime', 'End Time', itemIndex);
		return toItems(await client.assetData.listParameterBackups({ assetId, startTime, endTime }));
	},
};
