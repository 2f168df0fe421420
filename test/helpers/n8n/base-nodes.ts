// Recording stand-ins for the n8n-nodes-base nodes the examples use (that package is not a
// dependency of this repository). They keep each node's parameter names and evaluate its
// expressions per item as n8n does, then record what the real node would send (a Slack
// message, an email, a spreadsheet) as their output instead of sending it.
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

function describe(
	name: string,
	properties: INodeTypeDescription['properties'],
	trigger = false,
): INodeTypeDescription {
	return {
		displayName: name,
		name,
		group: [trigger ? 'trigger' : 'transform'],
		version: [1, 1.1, 1.2, 2, 2.1, 2.2, 2.3, 3, 3.4],
		description: `Test stand-in for n8n-nodes-base.${name}`,
		defaults: { name },
		inputs: trigger ? [] : ['main'],
		outputs: ['main'],
		properties,
	} as unknown as INodeTypeDescription;
}

class ScheduleTrigger implements INodeType {
	description = describe(
		'scheduleTrigger',
		[{ displayName: 'Rule', name: 'rule', type: 'json', default: {} }],
		true,
	);
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

class StickyNote implements INodeType {
	description = {
		...describe('stickyNote', [
			{ displayName: 'Content', name: 'content', type: 'string', default: '' },
		]),
		inputs: [],
		outputs: [],
	} as INodeTypeDescription;
}

/** Each output item is the message Slack would receive. */
class Slack implements INodeType {
	description = describe('slack', [
		{ displayName: 'Select', name: 'select', type: 'string', default: 'channel' },
		{ displayName: 'Channel', name: 'channelId', type: 'json', default: {} },
		{ displayName: 'Text', name: 'text', type: 'string', default: '' },
	]);
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((_, i) => ({
				json: {
					channel: (this.getNodeParameter('channelId', i) as IDataObject).value as string,
					text: this.getNodeParameter('text', i) as string,
				},
				pairedItem: { item: i },
			})),
		];
	}
}

/** Each output item is the email that would be sent, attachments kept as binary. */
class EmailSend implements INodeType {
	description = describe('emailSend', [
		{ displayName: 'To', name: 'toEmail', type: 'string', default: '' },
		{ displayName: 'Subject', name: 'subject', type: 'string', default: '' },
		{ displayName: 'Text', name: 'text', type: 'string', default: '' },
		{ displayName: 'Options', name: 'options', type: 'json', default: {} },
	]);
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item, i) => {
				const names = String((this.getNodeParameter('options', i) as IDataObject).attachments ?? '')
					.split(',')
					.map((n) => n.trim())
					.filter(Boolean);
				const binary = Object.fromEntries(
					names.filter((n) => item.binary?.[n]).map((n) => [n, item.binary![n]]),
				);
				return {
					json: {
						to: this.getNodeParameter('toEmail', i),
						subject: this.getNodeParameter('subject', i),
						text: this.getNodeParameter('text', i),
						attachments: Object.keys(binary),
					},
					binary,
					pairedItem: { item: i },
				};
			}),
		];
	}
}

/** Edit Fields (Set) with "assignments" and "include other fields". */
class SetNode implements INodeType {
	description = describe('set', [
		{ displayName: 'Assignments', name: 'assignments', type: 'json', default: {} },
		{
			displayName: 'Include Other Fields',
			name: 'includeOtherFields',
			type: 'boolean',
			default: false,
		},
	]);
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item, i) => {
				const assignments =
					(
						this.getNodeParameter('assignments', i) as {
							assignments?: Array<{ name: string; value: unknown }>;
						}
					).assignments ?? [];
				const json: IDataObject = this.getNodeParameter('includeOtherFields', i)
					? { ...item.json }
					: {};
				for (const { name, value } of assignments) json[name] = value as IDataObject[string];
				return { json, pairedItem: { item: i } };
			}),
		];
	}
}

/** One output item: the sheet that would be written (its rows). */
class ConvertToFile implements INodeType {
	description = describe('convertToFile', [
		{ displayName: 'Operation', name: 'operation', type: 'string', default: 'csv' },
		{ displayName: 'Options', name: 'options', type: 'json', default: {} },
	]);
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const options = this.getNodeParameter('options', 0) as IDataObject;
		return [
			[
				{
					json: {
						format: this.getNodeParameter('operation', 0),
						fileName: options.fileName,
						rows: items.map((i) => i.json),
					},
					pairedItem: items.map((_, item) => ({ item })),
				},
			],
		];
	}
}

export const baseNodeStandIns: Record<string, INodeType> = {
	'n8n-nodes-base.scheduleTrigger': new ScheduleTrigger(),
	'n8n-nodes-base.stickyNote': new StickyNote(),
	'n8n-nodes-base.slack': new Slack(),
	'n8n-nodes-base.emailSend': new EmailSend(),
	'n8n-nodes-base.set': new SetNode(),
	'n8n-nodes-base.convertToFile': new ConvertToFile(),
};
