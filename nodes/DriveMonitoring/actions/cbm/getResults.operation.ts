import type { CbmResult } from '../../../../shared/schemas';
import type { Operation } from '../types';
import { resolveIdParameter, locator, simplifyOption } from '../common';
import { toItems } from '../output';
import { withUtcInstants } from '../../../../shared/time';

export const getResults: Operation = {
	option: {
		name: 'Get Results',
		value: 'getResults',
		action:
			'Get predictive maintenance results: returns the predictive maintenance (CBM) results of one drive: status and predicted maintenance dates of its fan, capacitor and IGBT (a null date has already passed); use for "when does it need service?"',
		description:
			'Get the condition-based maintenance analysis of a drive: status and predicted maintenance dates of its fan, capacitor and IGBT, one item per component (Standard and Premium levels only)',
	},
	readOnly: true,
	properties: [
		locator('asset'),
		{
			...simplifyOption,
			description:
				'Whether to replace the 30 daily KPIs with the latest one (spreadsheet-ready rows) instead of returning the whole history',
		},
	],
	async execute(client, itemIndex) {
		const assetId = await resolveIdParameter.call(this, client, 'asset', itemIndex);
		const results = await client.assetData.getCbm({ assetId });
		const simplify = this.getNodeParameter('simplify', itemIndex) as boolean;
		// The platform's dates are UTC+8 calendar dates: each gets its UTC instant beside it (…At).
		return toItems(
			results.map((result) =>
				withPlanInstants(
					simplify
						? simplifyCbm(assetId, result)
						: {
								assetId,
								...result,
								deviceDayKPIs: result.deviceDayKPIs.map((day) => withUtcInstants(day, ['date'])),
							},
				),
			),
		);
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

function withPlanInstants<T extends Record<string, unknown>>(result: T) {
	return withUtcInstants(result, [
		'predictedNoPlanDate',
		'predictedStartPlanDate',
		'predictedRunPlanDate',
		'latestKpiDate',
	]);
}
