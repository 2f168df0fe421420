import type { Resource } from '../types';
import { create } from './create.operation';

export const assetGroup: Resource = {
	value: 'assetGroup',
	name: 'Asset Group',
	description: 'Asset groups of an end-user organization',
	operations: [create],
};
