import type { Operation } from '../types';
import {
	getDateParameter,
	resolveIdParameter,
	locator,
	timeRange,
	timeRangeDefaults,
} from '../common';
import { toItems } from '../output';
import { withUtcInstants } from '../../../../shared/time';

export const getMany: Operation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		action:
			'Get parameter backups of a drive: list the parameter backups of one drive in a time range (ID, time, kind); use to find a backup before reading its content',
		description:
			'List the parameter backups of a drive taken in a time range (at most 365 days), one item per backup',
	},
	readOnly: true,
	properties: [locator('asset'), ...timeRange(timeRangeDefaults.last30Days, 'backup time range')],
	async execute(client, itemIndex) {
		const assetId = await resolveIdParameter.call(this, client, 'asset', itemIndex);
		const startTime = getDateParameter.call(this, 'startTime', 'Start Time', itemIndex);
		const endTime = getDateParameter.call(this, 'endTime', 'End Time', itemIndex);
		// backupTime is UTC+8 wall time: backupAt is the same instant in UTC.
		const backups = await client.assetData.listParameterBackups({ assetId, startTime, endTime });
		return toItems(backups.map((backup) => withUtcInstants(backup, ['backupTime'])));
	},
};
