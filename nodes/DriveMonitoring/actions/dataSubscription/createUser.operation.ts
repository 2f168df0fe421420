import type { Operation } from '../types';
import { withPasswordNotice } from './passwordNotice';

export const createUser: Operation = {
	option: {
		name: 'Create User',
		value: 'createUser',
		action: 'Create the data subscription user',
		description:
			"Create the organization's data-subscription user (one per organization) through which asset data is pushed; returns its password once",
	},
	properties: [],
	async execute(client) {
		return withPasswordNotice(await client.dataSubscription.createUser());
	},
};
