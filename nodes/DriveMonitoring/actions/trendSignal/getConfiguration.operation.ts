import { assetRead } from '../assetRead';

export const getConfiguration = assetRead(
	{
		name: 'Get Configuration',
		value: 'getConfiguration',
		action:
			'Get trend and signal configuration: list the trends and signals one asset records (code, name, unit); use first to get the codes that Get Trend and Signal Time Series needs',
		description:
			'List the trends and signals an asset records (name, code, label, unit), one item per parameter; the codes are what Get Data queries',
	},
	async (client, assetId) => {
		const config = await client.assetData.getTrendSignalConfig({ assetId });
		return [
			...config.trends.map((parameter) => ({ kind: 'trend', ...parameter })),
			...config.signals.map((parameter) => ({ kind: 'signal', ...parameter })),
		];
	},
);
