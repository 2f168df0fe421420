import type { Operation } from '../types';
import { getDateParameter, resolveIdParameter, locator } from '../common';
import { toItems } from '../output';

export const setCommissioningDate: Operation = {
	option: {
		name: 'Set Commissioning Date',
		value: 'setCommissioningDate',
		action:
			'Set the commissioning date of a component. CHANGES THE FLEET: sets when a component was commissioned; use only when a person gave the date',
		description:
			'Set when a fan, IGBT or capacitor of a drive was put into service (after a replacement), so the maintenance prediction restarts from it (Standard and Premium levels only)',
	},
	properties: [
		locator('asset'),
		{
			displayName: 'Component',
			name: 'deviceUnitType',
			type: 'options',
			default: 'Fan',
			options: [
				{ name: 'Capacitor', value: 'Capacitor' },
				{ name: 'Fan', value: 'Fan' },
				{ name: 'IGBT', value: 'IGBT' },
			],
		},
		{
			displayName: 'Commissioning Date',
			name: 'commissioningDate',
			type: 'dateTime',
			default: '={{ $now.startOf("day").toISO() }}',
			required: true,
			description: 'When the component went into service',
		},
	],
	async execute(client, itemIndex) {
		const result = await client.assetData.setCommissioningDate({
			assetId: await resolveIdParameter.call(this, client, 'asset', itemIndex),
			deviceUnitType: this.getNodeParameter('deviceUnitType', itemIndex) as
				| 'Fan'
				| 'IGBT'
				| 'Capacitor',
			commissioningDate: getDateParameter.call(
				this,
				'commissioningDate',
				'Commissioning Date',
				itemIndex,
			),
		});
		return toItems(result);
	},
};
