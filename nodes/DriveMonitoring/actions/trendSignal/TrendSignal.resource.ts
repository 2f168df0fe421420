import type { Resource } from '../types';
import { getConfiguration } from './getConfiguration.operation';
import { getData } from './getData.operation';

export const trendSignal: Resource = {
	value: 'trendSignal',
	name: 'Trend and Signal',
	description: 'Measured parameters of an asset and their time series',
	operations: [getConfiguration, getData],
};
