import type { Operation } from '../types';
import { resolveIdParameter, getTextParameter, locator } from '../common';
import { toItems } from '../output';

export const getContent: Operation = {
	option: {
		name: 'Get Content',
		value: 'getContent',
		action:
			'Get the content of a parameter backup: returns the parameter values stored in one parameter backup (by backup ID); use to check or compare drive settings',
		description:
			'Get the parameter values stored in one backup of a drive, one item per parameter (or per group)',
	},
	readOnly: true,
	properties: [
		locator('asset'),
		{
			displayName: 'Backup ID',
			name: 'backupId',
			type: 'string',
			default: '',
			required: true,
			description: 'The "ID" field of Parameter Backup > Get Many',
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'parameter',
			options: [
				{
					name: 'One Item per Parameter',
					value: 'parameter',
					description: 'Rows with group title, ID, name, value, unit, minimum and maximum',
				},
				{
					name: 'One Item per Group',
					value: 'group',
					description: 'Groups as the API returns them',
				},
			],
		},
	],
	async execute(client, itemIndex) {
		const assetId = await resolveIdParameter.call(this, client, 'asset', itemIndex);
		const parameterSetId = getTextParameter.call(this, 'backupId', 'Backup ID', itemIndex);
		const groups = await client.assetData.getParameterBackup({ assetId, parameterSetId });
		if (this.getNodeParameter('output', itemIndex) === 'group') return toItems(groups);
		return toItems(
			groups.flatMap((group) =>
				group.parameters.map((parameter) => ({ group: group.title, ...parameter })),
			),
		);
	},
};
