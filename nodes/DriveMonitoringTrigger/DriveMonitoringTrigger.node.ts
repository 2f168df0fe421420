import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import '../../shared/runtime/n8n';
import { triggerProperties } from './description';
import { pollForChanges } from './poll';

/**
 * Polled data (the REST API): new events, condition, CBM and report changes. It runs on n8n Cloud
 * too; pushed data (broker sockets) comes with the companion package
 * n8n-nodes-drive-monitoring-push (Drive Monitoring Push Trigger) for self-hosted n8n.
 */
export class DriveMonitoringTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Drive Monitoring Trigger',
		name: 'driveMonitoringTrigger',
		icon: {
			light: 'file:driveMonitoringTrigger.svg',
			dark: 'file:driveMonitoringTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Poll: " + $parameter["watch"].join(", ")}}',
		description:
			'Starts a workflow when a drive faults, a report is ready, CBM or health changes (polled)',
		defaults: { name: 'Drive Monitoring Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'driveMonitoringApi', required: true }],
		properties: triggerProperties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollForChanges.call(this);
	}
}
