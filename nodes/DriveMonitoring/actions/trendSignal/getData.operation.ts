import { answersCompact } from '../compact';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ParamData } from '../../../../shared/schemas';
import type { Operation } from '../types';
import { levelForHistoryCheck } from '../../helpers/history';
import {
	splitsLongRanges,
	getDateParameter,
	resolveIdParameter,
	locator,
	rangeOptions,
	timeRange,
	timeRangeDefaults,
} from '../common';

export const getData: Operation = {
	option: {
		name: 'Get Data',
		value: 'getData',
		action:
			'Get trend and signal time series: returns measured values (e.g. motor current, temperature) of one asset over a time range: per signal its unit, min, max, mean, last value and a series of at most 100 points; use for "how is pump 3 running?". Needs signal codes from Get Trend and Signal Configuration',
		description:
			'Get the time series of selected trend/signal codes of an asset: raw points for ranges up to 1 hour, 5-minute min/avg/max beyond; long ranges are split into 30-day queries',
	},
	readOnly: true,
	properties: [
		locator('asset'),
		{
			displayName: 'Parameter Names or IDs',
			name: 'parameters',
			type: 'multiOptions',
			typeOptions: {
				loadOptionsMethod: 'getTrendSignalCodes',
				loadOptionsDependsOn: ['asset.value'],
			},
			default: [],
			required: true,
			description:
				'Trend and signal codes to query, e.g. the codes Trend and Signal > Get Configuration lists for the asset. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		...timeRange(timeRangeDefaults.last24Hours, 'time series'),
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'point',
			options: [
				{
					name: 'One Item per Point',
					value: 'point',
					description:
						'Each item holds a timestamp and the value of every selected parameter at that time',
				},
				{
					name: 'One Item per Parameter',
					value: 'parameter',
					description: 'Each item holds one parameter with its configuration and all its points',
				},
			],
		},
		{
			displayName: 'Column Names',
			name: 'columnNames',
			type: 'options',
			default: 'label',
			displayOptions: { show: { output: ['point'] } },
			options: [
				{
					name: 'By Name and Unit',
					value: 'label',
					description:
						'Columns such as "Motor current (A)"; each item keeps the codes in parameterCodes',
				},
				{
					name: 'By Code',
					value: 'code',
					description: 'Columns named by the parameter code, such as "01.07"',
				},
			],
			description: 'How the columns of each point are named',
		},
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description:
				'Whether to give one number per parameter and point (the raw value, or the 5-minute average) instead of value, average, minimum and maximum',
		},
		rangeOptions(30),
	],
	async execute(client, itemIndex) {
		const assetId = await resolveIdParameter.call(this, client, 'asset', itemIndex);
		const parameters = this.getNodeParameter('parameters', itemIndex) as string[];
		if (!Array.isArray(parameters) || parameters.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Parameter Names or IDs is empty', {
				itemIndex,
				description:
					'Select at least one trend or signal code (Trend and Signal > Get Configuration lists them).',
			});
		}
		const startTime = getDateParameter.call(this, 'startTime', 'Start Time', itemIndex);
		const endTime = getDateParameter.call(this, 'endTime', 'End Time', itemIndex);
		const query = { assetId, parameters, startTime, endTime };
		const data = !splitsLongRanges.call(this, itemIndex)
			? await client.assetData.queryTrendSignalData(query)
			: await client.ranges.trendSignalData({
					...query,
					level: await levelForHistoryCheck.call(this, client, assetId, startTime, 'trendSignal'),
				});
		const simplify = this.getNodeParameter('simplify', itemIndex) as boolean;
		// A model gets per-signal summaries, which the compactor builds from series by parameter.
		if (answersCompact.call(this) || this.getNodeParameter('output', itemIndex) !== 'point')
			return byParameter(data.paramDatas, simplify);
		const byCode = this.getNodeParameter('columnNames', itemIndex, 'label') === 'code';
		return byPoint(data.paramDatas, simplify, byCode ? (config) => config.code : undefined);
	},
};

function pointValue(
	series: ParamData,
	index: number,
	simplify: boolean,
): IDataObject | number | null {
	const value = series.value[index] ?? null;
	if (simplify) return value ?? series.avg[index] ?? null;
	return {
		value,
		avg: series.avg[index] ?? null,
		min: series.min[index] ?? null,
		max: series.max[index] ?? null,
	};
}

type Config = ParamData['config'];

/**
 * Column names a person reads: "Motor current (A)" (name, or label, and unit); a name two
 * parameters share gets its code added, so no column overwrites another.
 */
export function labelColumns(configs: Config[]): Map<string, string> {
	const base = (c: Config): string => {
		const name = (c.name || c.label || c.code).trim();
		return c.unit ? `${name} (${c.unit})` : name;
	};
	const counts = new Map<string, number>();
	for (const c of configs) counts.set(base(c), (counts.get(base(c)) ?? 0) + 1);
	return new Map(
		configs.map((c) => [c.code, counts.get(base(c))! > 1 ? `${base(c)} [${c.code}]` : base(c)]),
	);
}

/** Rows keyed by time, a column per parameter (spreadsheet- and chart-ready). */
function byPoint(
	series: ParamData[],
	simplify: boolean,
	columnOf?: (config: Config) => string,
): INodeExecutionData[] {
	const labels = columnOf ? undefined : labelColumns(series.map((p) => p.config));
	const column = (config: Config): string =>
		columnOf ? columnOf(config) : labels!.get(config.code)!;
	// With columns by name, the codes stay with every row (column name -> parameter code).
	const parameterCodes = labels
		? Object.fromEntries(series.map((p) => [column(p.config), p.config.code]))
		: undefined;
	const rows = new Map<number, IDataObject>();
	for (const parameter of series) {
		parameter.timestamp.forEach((timestamp, index) => {
			let row = rows.get(timestamp);
			if (!row) {
				row = { timestamp: new Date(timestamp).toISOString() };
				rows.set(timestamp, row);
			}
			row[column(parameter.config)] = pointValue(parameter, index, simplify);
		});
	}
	return [...rows.entries()]
		.sort(([a], [b]) => a - b)
		.map(([, json]) => ({ json: parameterCodes ? { ...json, parameterCodes } : json }));
}

function byParameter(series: ParamData[], simplify: boolean): INodeExecutionData[] {
	return series.map((parameter) => ({
		json: {
			...parameter.config,
			points: parameter.timestamp.map((timestamp, index) => {
				const value = pointValue(parameter, index, simplify);
				const time = new Date(timestamp).toISOString();
				return simplify
					? { timestamp: time, value }
					: { timestamp: time, ...(value as IDataObject) };
			}),
		},
	}));
}
