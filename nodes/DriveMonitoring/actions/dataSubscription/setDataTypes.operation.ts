import { NodeOperationError } from 'n8n-workflow';
import type { Operation } from '../types';
import { getStringIdParameter, getTextParameter, locator } from '../common';
import { toItems } from '../output';

type DataType = 'AssetEvent' | 'AssetState' | 'AssetReport' | 'AssetCBM';

export const setDataTypes: Operation = {
	option: {
		name: 'Set Data Types',
		value: 'setDataTypes',
		action:
			'Set the pushed data types. CHANGES THE FLEET: sets which data types are pushed to the data subscription; use only when a person asked',
		description:
			'Choose which data is pushed to the data-subscription user (events, hourly online state, finished reports, daily CBM) and on which topic; replaces the previous choice',
	},
	properties: [
		locator('subscriber'),
		{
			displayName: 'Topic Name',
			name: 'topicName',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Data Types',
			name: 'dataTypes',
			type: 'multiOptions',
			default: ['AssetEvent'],
			required: true,
			options: [
				{ name: 'CBM Results (Daily)', value: 'AssetCBM' },
				{ name: 'Events (Real Time)', value: 'AssetEvent' },
				{ name: 'Finished Reports', value: 'AssetReport' },
				{ name: 'Online State (Hourly)', value: 'AssetState' },
			],
		},
	],
	async execute(client, itemIndex) {
		const subCustomerId = getStringIdParameter.call(this, 'subscriber', itemIndex);
		const topicName = getTextParameter.call(this, 'topicName', 'Topic Name', itemIndex);
		const subDataTypes = this.getNodeParameter('dataTypes', itemIndex) as DataType[];
		if (!Array.isArray(subDataTypes) || subDataTypes.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Data Types is empty', {
				itemIndex,
				description: 'Select at least one data type to push.',
			});
		}
		return toItems(
			await client.dataSubscription.setDataTypes({ subCustomerId, topicName, subDataTypes }),
		);
	},
};
