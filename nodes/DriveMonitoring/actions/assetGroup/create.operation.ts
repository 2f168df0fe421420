import type { Operation } from '../types';
import { resolveIdParameter, getTextParameter, locator } from '../common';
import { toItems } from '../output';

export const create: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action:
			'Create an asset group. CHANGES THE FLEET: creates an asset group under a parent group and returns its ID; use only when a person asked to create a group',
		description: 'Create an asset group (name up to 20 characters) in an end-user organization',
	},
	properties: [
		locator('organization', { description: 'The end-user organization that gets the group' }),
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			description: 'Up to 20 characters',
		},
	],
	async execute(client, itemIndex) {
		const orgId = await resolveIdParameter.call(this, client, 'organization', itemIndex);
		const name = getTextParameter.call(this, 'name', 'Name', itemIndex);
		return toItems(await client.organization.createAssetGroup({ orgId, name }));
	},
};
