import type { Resource } from '../types';
import { getResults } from './getResults.operation';
import { setCommissioningDate } from './setCommissioningDate.operation';

export const cbm: Resource = {
	value: 'cbm',
	name: 'CBM',
	description: 'Condition-based (predictive) maintenance of drive components',
	operations: [getResults, setCommissioningDate],
};
