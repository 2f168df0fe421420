import type { CbmResult } from '../../../../shared/schemas';
import type { Operation } from '../types';
import { getIdParameter, locator, simplifyOption } from '../common';
import { toItems } from '../output';

export const getResults: Operation = {
	option: {
		name: 'Get Results',
		value: 'getResults',
		action: 'Get predictive maintenance results',
		description:
			'Get the condition-based maintenance analysis of a drive: status and predicted maintenance dates of its fan, capacitor and IGBT, one item per component (Standard and Premium levels only)',
	},
	readOnly: true,
	properties: [
		locator('asset'),
		{
			...simplifyOption,
			description:
				"Whether to replace the 30 daily KPIs with the latest one (spreadsheet-ready rows) instead of returning the whole history",
		},
	],
	async execute(client, itemIndex) {
		const assetId = getIdParameter.call(this, 'asset', itemIndex);
		const results = await client.assetData.getCbm({ assetId });
		const simplify = this.getNodeParameter('simplify', itemIndex) as boolean;
		return toItems(results.map((result) => (simplify ? simplifyCbm(assetId, result) : { assetId, ...result })));
	},
};

function simplifyCbm(assetId: number, result: CbmResult) {
	const { deviceDayKPIs, ...rest } = result;
	const latest = deviceDayKPIs.reduce<(typeof deviceDayKPIs)[number] | undefined>(
		(last, day) => (!last || (day.date ?? '') > (last.date ?? '') ? day : last),
		undefined,
	);
	return { assetId, ...rest, latestKpiDate: latest?.date ?? null, latestKpi: latest?.kpi ?? null };
}
