import type { Operation } from '../types';
import { toItems } from '../output';

export const get: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action:
			'Get own organization: returns the organization these credentials belong to (ID, name, type); use first to get the organization ID other calls need',
		description:
			'Get the organization the credentials belong to (name, type VENDOR/CP/EU, contact)',
	},
	readOnly: true,
	properties: [],
	async execute(client) {
		return toItems(await client.organization.get());
	},
};
