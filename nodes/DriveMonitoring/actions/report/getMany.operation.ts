import { assetRead } from '../assetRead';

export const getMany = assetRead(
	{
		name: 'Get Many',
		value: 'getMany',
		action:
			'Get reports of an asset: list the reports of one asset (ID, type, status, time); use to find a report to download',
		description:
			'List the reports of an asset created in the last 7 days with their status (Creating, Created, Failed), one item per report',
	},
	async (client, assetId) => await client.assetData.listReports({ assetId }),
);
