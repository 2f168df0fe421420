import type { Resource } from '../types';
import { get } from './get.operation';
import { getAssetStatistics } from './getAssetStatistics.operation';
import { getTree } from './getTree.operation';

export const organization: Resource = {
	value: 'organization',
	name: 'Organization',
	description: 'The caller organization, its tree and asset counts',
	operations: [get, getAssetStatistics, getTree],
};
