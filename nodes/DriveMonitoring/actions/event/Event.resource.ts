import type { Resource } from '../types';
import { getLoggerFile } from './getLoggerFile.operation';
import { getMany } from './getMany.operation';

export const event: Resource = {
	value: 'event',
	name: 'Event',
	description: 'Faults, warnings and notifications of an asset',
	operations: [getMany, getLoggerFile],
};
