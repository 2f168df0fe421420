import type { Operation } from '../types';
import { getStringIdParameter, locator } from '../common';
import { withPasswordNotice } from './passwordNotice';

export const resetPassword: Operation = {
	option: {
		name: 'Reset Password',
		value: 'resetPassword',
		action:
			'Reset the data subscription password. CHANGES THE FLEET: sets a new data subscription password; use only when a person asked',
		description: 'Give the data-subscription user a new password; returns it once',
	},
	properties: [locator('subscriber')],
	async execute(client, itemIndex) {
		const subCustomerId = getStringIdParameter.call(this, 'subscriber', itemIndex);
		return withPasswordNotice(await client.dataSubscription.resetPassword({ subCustomerId }));
	},
};
