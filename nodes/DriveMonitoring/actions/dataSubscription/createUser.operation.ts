import type { Operation } from '../types';
import { withPasswordNotice } from './passwordNotice';

export const createUser: Operation = {
	option: {
		name: 'Create User',
		value: 'createUser',
		action:
			'Create the data subscription user. CHANGES THE FLEET: creates the data subscription user for pushed data; use only when a person asked',
		description:
			"Create the organization's data-subscription user (one per organization) through which asset data is pushed; returns its password once",
	},
	properties: [],
	async execute(client) {
		return withPasswordNotice(await client.dataSubscription.createUser());
	},
};
