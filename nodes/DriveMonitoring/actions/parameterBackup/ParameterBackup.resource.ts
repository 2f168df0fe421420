import type { Resource } from '../types';
import { getContent } from './getContent.operation';
import { getMany } from './getMany.operation';

export const parameterBackup: Resource = {
	value: 'parameterBackup',
	name: 'Parameter Backup',
	description: 'Backups of drive parameters',
	operations: [getContent, getMany],
};
