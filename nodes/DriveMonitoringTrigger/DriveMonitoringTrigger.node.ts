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
import { checkPushLogin, receiveOne, type PushDataType } from '../../shared/push';
import { triggerProperties } from './description';
import { passesFilters, toItem } from './items';
import { pollForChanges } from './poll';
import { PUSH_CREDENTIAL_TYPE, pushTrigger, readFilters, receiverOptionsOf } from './push';

/** How long the editor's "Fetch Test Event" listens for a pushed message. */
const TEST_LISTEN_MS = 120_000;

/**
 * Pushed data (AMQP 1.0 or MQTT, the data-subscription user) or polled data (the REST API).
 * n8n activates both the trigger and the poll function of a node that has both: each one does its
 * work in its own mode and nothing in the other. In the editor n8n runs the poll function once;
 * in push mode that listens for one test message.
 */
export class DriveMonitoringTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Drive Monitoring Trigger',
		name: 'driveMonitoringTrigger',
		icon: { light: 'file:driveMonitoringTrigger.svg', dark: 'file:driveMonitoringTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["mode"] === "poll" ? "Poll: " + $parameter["watch"].join(", ") : "Push: " + $parameter["dataTypes"].join(", ")}}',
		description: 'Starts a workflow when a drive faults, a report is ready, CBM or health changes: pushed or polled',
		defaults: { name: 'Drive Monitoring Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'driveMonitoringPushApi',
				required: true,
				testedBy: 'driveMonitoringPushLogin',
				displayOptions: { show: { mode: ['push'] } },
			},
			{ name: 'driveMonitoringApi', required: true, displayOptions: { show: { mode: ['poll'] } } },
		],
		properties: triggerProperties,
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
		if (this.getNodeParameter('mode', 'push') !== 'push') return undefined;
		return await pushTrigger.call(this);
	}

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		if (this.getNodeParameter('mode', 'push') === 'poll') return await pollForChanges.call(this);
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
