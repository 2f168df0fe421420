import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import '../../shared/runtime/n8n';
import { nodeProperties } from './actions/resources';
import { router } from './actions/router';
import { listSearch, loadOptions } from './methods';

export class DriveMonitoring implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Drive Monitoring',
		name: 'driveMonitoring',
		icon: { light: 'file:driveMonitoring.svg', dark: 'file:driveMonitoring.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Read and manage drives and motors on the Drive Monitoring platform: assets, events, trends, health, predictive maintenance, reports, parameter backups and data subscription',
		defaults: { name: 'Drive Monitoring' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'driveMonitoringApi', required: true }],
		properties: nodeProperties(),
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
