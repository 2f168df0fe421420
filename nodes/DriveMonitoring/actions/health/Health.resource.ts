import type { Resource } from '../types';
import { getConditions } from './getConditions.operation';

export const health: Resource = {
	value: 'health',
	name: 'Health',
	description: 'Health conditions of an asset',
	operations: [getConditions],
};
