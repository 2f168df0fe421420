import type { Operation } from '../types';
import { getIdParameter, locator } from '../common';
import { toItems } from '../output';

export const getConfiguration: Operation = {
	option: {
		name: 'Get Configuration',
		value: 'getConfiguration',
		action: 'Get trend and signal configuration',
		description:
			'List the trends and signals an asset records (name, code, label, unit), one item per parameter; the codes are what Get Data queries',
	},
	readOnly: true,
	properties: [locator('asset')],
	async execute(client, itemIndex) {
		const assetId = getIdParameter.call(this, 'asset', itemIndex);
		const config = await client.assetData.getTrendSignalConfig({ assetId });
		return toItems([
			...config.trends.map((parameter) => ({ kind: 'trend', ...parameter })),
			...config.signals.map((parameter) => ({ kind: 'signal', ...parameter })),
		]);
	},
};
