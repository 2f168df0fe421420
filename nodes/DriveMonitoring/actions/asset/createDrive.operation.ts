import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../types';
import { getIdParameter, resolveIdParameter, getTextParameter, locator } from '../common';
import { toItems } from '../output';

const neta21 = { show: { gatewayType: ['NETA21'] } };
const iotPanel = { show: { gatewayType: ['IOTPanel'] } };

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		description: 'Up to 30 characters',
	},
	{
		displayName: 'Serial Number',
		name: 'serialNumber',
		type: 'string',
		default: '',
		required: true,
		description: "The drive's serial number, up to 30 characters",
	},
	locator('assetGroup'),
	locator('plant'),
	{
		displayName: 'Gateway Type',
		name: 'gatewayType',
		type: 'options',
		default: 'NETA21',
		options: [
			{ name: 'NETA-21', value: 'NETA21' },
			{ name: 'IoT Panel', value: 'IOTPanel' },
		],
	},
	{
		displayName: 'Gateway Serial Number',
		name: 'gatewaySerialNumber',
		type: 'string',
		default: '',
		required: true,
		displayOptions: neta21,
	},
	{
		displayName: 'Drive Model',
		name: 'driveModel',
		type: 'string',
		default: '',
		required: true,
		displayOptions: iotPanel,
	},
	{
		displayName: 'SIM ICCID',
		name: 'simIccid',
		type: 'string',
		default: '',
		required: true,
		displayOptions: iotPanel,
	},
	{
		displayName: 'Device Node ID',
		name: 'deviceNodeId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 01',
		description: 'Node number of the drive behind the gateway (IoT Panel: two digits, e.g. 01)',
	},
];

export const createDrive: Operation = {
	option: {
		name: 'Create Drive',
		value: 'createDrive',
		action:
			'Create a drive asset. CHANGES THE FLEET: registers a new drive asset by serial number in a group and returns its ID; use only when a person asked to add a drive',
		description:
			'Register a drive behind a NETA-21 or IoT Panel gateway in an asset group and plant (drives only; not for motors or powertrains)',
	},
	properties,
	async execute(client, itemIndex) {
		const gatewayType = this.getNodeParameter('gatewayType', itemIndex) as 'NETA21' | 'IOTPanel';
		const deviceNodeId = getTextParameter.call(this, 'deviceNodeId', 'Device Node ID', itemIndex);
		const assetReference =
			gatewayType === 'NETA21'
				? {
						NETA21: {
							gatewaySN: getTextParameter.call(
								this,
								'gatewaySerialNumber',
								'Gateway Serial Number',
								itemIndex,
							),
							deviceNodeId,
						},
					}
				: {
						IOTPanel: {
							driveModel: getTextParameter.call(this, 'driveModel', 'Drive Model', itemIndex),
							deviceNodeId,
							simiccid: getTextParameter.call(this, 'simIccid', 'SIM ICCID', itemIndex),
						},
					};
		const created = await client.assets.createDrive({
			name: getTextParameter.call(this, 'name', 'Name', itemIndex),
			serialNumber: getTextParameter.call(this, 'serialNumber', 'Serial Number', itemIndex),
			assetGroupId: await resolveIdParameter.call(this, client, 'assetGroup', itemIndex),
			plantId: getIdParameter.call(this, 'plant', itemIndex),
			gatewayType,
			assetReference,
		});
		return toItems(created);
	},
};
