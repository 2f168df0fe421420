import type { Operation } from '../types';
import { toItems } from '../output';

export const getUser: Operation = {
	option: {
		name: 'Get User',
		value: 'getUser',
		action:
			'Get the data subscription user: returns the data subscription user (name and pushed data types, never the password); use to check how pushed data is set up',
		description:
			"Get the organization's data-subscription user: user name, topic and subscribed data types (password masked)",
	},
	readOnly: true,
	properties: [],
	async execute(client) {
		return toItems(await client.dataSubscription.getUsers());
	},
};
