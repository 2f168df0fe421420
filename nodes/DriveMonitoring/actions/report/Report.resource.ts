import type { Resource } from '../types';
import { create } from './create.operation';
import { download } from './download.operation';
import { getMany } from './getMany.operation';

export const report: Resource = {
	value: 'report',
	name: 'Report',
	description: 'PDF reports on one asset or a fleet',
	operations: [create, download, getMany],
};
