import type { Operation } from '../types';
import { resolveIdParameter, locator, simplifyOption } from '../common';
import { toItems } from '../output';
import { simplifyAssetDetail } from './simplify';

export const get: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action:
			'Get an asset: returns one asset by ID: name, type, status, group, plant and subscription level; use to check an asset or to confirm an ID before other calls',
		description:
			'Get the details of a drive or motor: model, firmware, gateway, plant, last data received, expert service',
	},
	readOnly: true,
	properties: [locator('asset'), simplifyOption],
	async execute(client, itemIndex) {
		const id = await resolveIdParameter.call(this, client, 'asset', itemIndex);
		const detail = await client.assets.get({ id });
		return toItems(
			this.getNodeParameter('simplify', itemIndex) ? simplifyAssetDetail(detail) : detail,
		);
	},
};
