import type { Operation } from '../types';
import { getStringIdParameter, locator } from '../common';
import { doneItem } from '../output';

export const deleteUser: Operation = {
	option: {
		name: 'Delete User',
		value: 'deleteUser',
		action:
			'Delete the data subscription user. CHANGES THE FLEET: deletes the data subscription user; use only when a person asked',
		description: 'Delete the data-subscription user and its queue of pushed data',
	},
	properties: [locator('subscriber')],
	async execute(client, itemIndex) {
		const subCustomerId = getStringIdParameter.call(this, 'subscriber', itemIndex);
		await client.dataSubscription.deleteUser({ subCustomerId });
		return doneItem({ subCustomerId, deleted: true });
	},
};
