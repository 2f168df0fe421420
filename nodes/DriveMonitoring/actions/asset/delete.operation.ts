import type { Operation } from '../types';
import { resolveIdParameter, locator } from '../common';
import { doneItem } from '../output';

export const deleteAsset: Operation = {
	option: {
		name: 'Delete',
		value: 'delete',
		action:
			'Delete an asset. CHANGES THE FLEET, cannot be undone: deletes an asset (by ID); use only when a person asked to delete that asset',
		description: 'Delete a drive or motor from the organization (not for powertrains)',
	},
	properties: [locator('asset')],
	async execute(client, itemIndex) {
		const id = await resolveIdParameter.call(this, client, 'asset', itemIndex);
		await client.assets.delete({ id });
		return doneItem({ assetId: id, deleted: true });
	},
};
