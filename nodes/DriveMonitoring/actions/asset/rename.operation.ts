import type { Operation } from '../types';
import { resolveIdParameter, getTextParameter, locator } from '../common';
import { doneItem } from '../output';

export const rename: Operation = {
	option: {
		name: 'Rename',
		value: 'rename',
		action:
			'Rename an asset. CHANGES THE FLEET: gives an asset (by ID) a new name; use only when a person asked to rename it',
		description: 'Give an asset a new name (up to 30 characters)',
	},
	properties: [
		locator('asset'),
		{
			displayName: 'New Name',
			name: 'newName',
			type: 'string',
			default: '',
			required: true,
			description: 'Up to 30 characters',
		},
	],
	fieldLabels: { name: 'New Name' },
	async execute(client, itemIndex) {
		const id = await resolveIdParameter.call(this, client, 'asset', itemIndex);
		const name = getTextParameter.call(this, 'newName', 'New Name', itemIndex);
		await client.assets.rename({ id, name });
		return doneItem({ assetId: id, name });
	},
};
