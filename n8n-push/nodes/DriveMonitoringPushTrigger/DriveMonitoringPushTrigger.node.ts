import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { checkPushLogin } from '../../../shared/push';
import { pushTriggerProperties } from './description';
import { pushTrigger, receiverOptionsOf } from './push';

/**
 * Pushed data (AMQP 1.0 or MQTT, the data-subscription user), for self-hosted n8n: broker sockets
 * and long-lived connections, which n8n Cloud's rules forbid. The polled twin, Drive Monitoring
 * Trigger, is in n8n-nodes-drive-monitoring. In the editor, "Listen for test event" runs the
 * trigger in manual mode on a session of its own until one message arrives.
 *
 * A trigger function only, no poll function: n8n 2.41 lists a node with both among a workflow's
 * trigger nodes and again among its poll nodes and registers each entry, so the trigger function
 * would run twice per publication. Two receivers with one persistent MQTT client id take the
 * session from each other, and each is handed messages the other has started: executions would
 * run twice (assumption Q1).
 */
export class DriveMonitoringPushTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Drive Monitoring Push Trigger',
		name: 'driveMonitoringPushTrigger',
		icon: {
			light: 'file:driveMonitoringPushTrigger.svg',
			dark: 'file:driveMonitoringPushTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Push: " + $parameter["dataTypes"].join(", ")}}',
		description:
			'Starts a workflow the moment the platform pushes a fault, report, CBM result or asset state',
		defaults: { name: 'Drive Monitoring Push Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'driveMonitoringPushApi', required: true, testedBy: 'driveMonitoringPushLogin' },
		],
		properties: pushTriggerProperties,
	};

	methods = {
		credentialTest: {
			async driveMonitoringPushLogin(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const failure = await checkPushLogin(receiverOptionsOf(credential.data ?? {})).then(
					() => undefined,
					(error: unknown) => (error as Error).message,
				);
				return failure
					? { status: 'Error', message: failure }
					: { status: 'OK', message: 'Logged in and subscribed to the topic' };
			},
		},
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse | undefined> {
		return await pushTrigger.call(this);
	}
}
