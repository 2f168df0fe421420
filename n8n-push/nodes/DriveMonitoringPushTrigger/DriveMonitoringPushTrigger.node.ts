import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import { checkPushLogin, receiveOne, type PushDataType } from '../../../shared/push';
import { passesFilters, readFilters, toItem } from '../../../nodes/DriveMonitoringTrigger/items';
import { pushTriggerProperties } from './description';
import { PUSH_CREDENTIAL_TYPE, pushTrigger, receiverOptionsOf } from './push';

/** How long the editor's "Fetch Test Event" listens for a pushed message. */
const TEST_LISTEN_MS = 120_000;

/**
 * Pushed data (AMQP 1.0 or MQTT, the data-subscription user), for self-hosted n8n: broker sockets
 * and long-lived connections, which n8n Cloud's rules forbid. The polled twin, Drive Monitoring
 * Trigger, is in n8n-nodes-drive-monitoring. In the editor n8n runs the poll function once: it
 * listens for one test message.
 */
export class DriveMonitoringPushTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Drive Monitoring Push Trigger',
		name: 'driveMonitoringPushTrigger',
		icon: { light: 'file:driveMonitoringPushTrigger.svg', dark: 'file:driveMonitoringPushTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Push: " + $parameter["dataTypes"].join(", ")}}',
		description: 'Starts a workflow the moment the platform pushes a fault, report, CBM result or asset state',
		defaults: { name: 'Drive Monitoring Push Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'driveMonitoringPushApi', required: true, testedBy: 'driveMonitoringPushLogin' }],
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

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		if (this.getMode() !== 'manual') return null;
		return await listenForTestMessage.call(this);
	}
}

async function listenForTestMessage(this: IPollFunctions): Promise<INodeExecutionData[][]> {
	const node = this.getNode();
	const options = this.getNodeParameter('options', {}) as IDataObject;
	let message;
	try {
		const filters = readFilters(this);
		const settings = receiverOptionsOf(await this.getCredentials(PUSH_CREDENTIAL_TYPE));
		message = await receiveOne(
			{
				...settings,
				dataTypes: this.getNodeParameter('dataTypes', []) as PushDataType[],
				// Its own, non-persistent session: the active workflow's session stays untouched.
				clientId: `dm-${settings.userName}-test`,
				persistentSession: false,
			},
			(m) => passesFilters(filters, m),
			TEST_LISTEN_MS,
		);
	} catch (error) {
		throw new NodeOperationError(node, (error as Error).message);
	}
	if (!message) {
		throw new NodeOperationError(node, `No pushed message matching the node's data types and filters arrived within ${TEST_LISTEN_MS / 1000} s`);
	}
	return [[toItem(message, options.includeRaw === true)]];
}
