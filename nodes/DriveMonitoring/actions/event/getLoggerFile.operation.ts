import type { INodeExecutionData } from 'n8n-workflow';
import type { Operation } from '../types';
import {
	binaryPropertyOption,
	resolveIdParameter,
	getTextParameter,
	linkOnlyOption,
	locator,
} from '../common';
import { toItems } from '../output';
import { downloadAsItem, linkExpiresAt } from '../../helpers/files';

export const getLoggerFile: Operation = {
	option: {
		name: 'Get Logger File',
		value: 'getLoggerFile',
		action:
			'Get the logger file of an event: returns the logger file of one event (by event ID) as a file: answers with its name, size and type, not its content; use when a person wants the recording of a fault',
		description:
			'Download the event logger file(s) recorded around an event as binary data, one item per file (Standard and Premium levels only)',
	},
	readOnly: true,
	properties: [
		locator('asset'),
		{
			displayName: 'Event ID',
			name: 'eventId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 7300000001',
			description:
				'ID of the event (the "ID" field of Event > Get Many); only events with a logger file have one',
		},
		linkOnlyOption,
		{ ...binaryPropertyOption(), displayOptions: { show: { linkOnly: [false] } } },
	],
	async execute(client, itemIndex) {
		const assetId = await resolveIdParameter.call(this, client, 'asset', itemIndex);
		const eventId = getTextParameter.call(this, 'eventId', 'Event ID', itemIndex);
		const files = await client.assetData.getEventLoggerFiles({ assetId, eventId });
		if (this.getNodeParameter('linkOnly', itemIndex)) {
			const expiresAt = linkExpiresAt();
			return toItems(
				files.map((file) => ({
					...file,
					...(file.loggerFile ? { loggerFileExpiresAt: expiresAt } : {}),
				})),
			);
		}
		const binaryPropertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
		const items: INodeExecutionData[] = [];
		for (const file of files) {
			if (!file.loggerFile) continue;
			items.push(
				await downloadAsItem.call(this, client, file.loggerFile, binaryPropertyName, {
					assetId,
					eventId,
					loggerId: file.loggerId,
				}),
			);
		}
		return items;
	},
};
