import type { ICredentialDataDecryptedObject, IDataObject, IRun, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { createPushReceiver, ExecutionWaits, PUSH_DATA_TYPES, triggerClientId, type PushDataType, type PushMessage, type PushReceiverOptions } from '../../../shared/push';
import { passesFilters, readFilters, toItem } from '../../../nodes/DriveMonitoringTrigger/items';
import { DEFAULT_EXECUTION_TIMEOUT_MINUTES, DEFAULT_PARALLEL_MESSAGES } from './description';

export const PUSH_CREDENTIAL_TYPE = 'driveMonitoringPushApi';

type Acknowledge = 'immediately' | 'executionFinishes' | 'executionFinishesSuccessfully';

/** The receiver settings from the credential; the password stays in the receiver. */
export function receiverOptionsOf(credentials: ICredentialDataDecryptedObject): Omit<PushReceiverOptions, 'dataTypes'> {
	const text = (name: string) => String(credentials[name] ?? '').trim();
	return {
		url: text('brokerUrl'),
		userName: text('userName'),
		password: String(credentials.password ?? ''),
		topic: text('topic'),
		addressTemplate: text('addressTemplate') || undefined,
		allowUnauthorizedCerts: credentials.ignoreSslIssues === true,
	};
}

/**
 * Push mode, shaped like n8n's RabbitMQ trigger: a consumer that emits one item per message and
 * acknowledges immediately or once the execution it started has finished (successfully).
 */
export async function pushTrigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
	const node = this.getNode();
	const dataTypes = this.getNodeParameter('dataTypes', []) as PushDataType[];
	const unknown = dataTypes.filter((t) => !PUSH_DATA_TYPES.includes(t));
	if (dataTypes.length === 0 || unknown.length > 0) {
		throw new NodeOperationError(node, `Data Types ${JSON.stringify(dataTypes)} must name at least one of ${PUSH_DATA_TYPES.join(', ')}`);
	}
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const acknowledge = (options.acknowledge as Acknowledge | undefined) ?? 'executionFinishes';
	const includeRaw = options.includeRaw === true;
	const filters = readFilters(this);
	const manual = this.getMode() === 'manual';
	const settings = receiverOptionsOf(await this.getCredentials(PUSH_CREDENTIAL_TYPE));
	const logger = this.logger;
	const executions = new ExecutionWaits(
		Math.round(Number(options.executionTimeout ?? DEFAULT_EXECUTION_TIMEOUT_MINUTES) * 60_000),
		logger,
		`Drive Monitoring Push Trigger of "${this.getWorkflow().name ?? String(this.getWorkflow().id)}"`,
		'Check that execution in the Executions list; in queue mode, that its worker is running and reaches Redis. If executions legitimately take longer, raise Execution Timeout.',
	);
	let receiver: ReturnType<typeof createPushReceiver>;
	try {
		receiver = createPushReceiver({
			...settings,
			dataTypes,
			// The editor's test listener takes one message: n8n runs only the first emit.
			prefetch: manual ? 1 : Number(options.parallelMessages ?? DEFAULT_PARALLEL_MESSAGES),
			// One client per workflow and node (its own MQTT session, its own AMQP link); a test
			// listener has one of its own, so it never takes over the active workflow's session.
			clientId: triggerClientId({ userName: settings.userName, workflowId: String(this.getWorkflow().id ?? ''), nodeId: node.id, purpose: manual ? 'test' : 'active' }),
			persistentSession: !manual,
			logger: {
				debug: (message) => logger.debug(message),
				info: (message) => logger.info(message),
				warn: (message) => logger.warn(message),
				error: (message) => logger.error(message),
			},
		});
	} catch (error) {
		throw new NodeOperationError(node, (error as Error).message);
	}
	receiver.on('end', (end) => {
		if (end.error) this.emitError(new NodeOperationError(node, end.error.message));
	});

	const handle = async (message: PushMessage): Promise<void> => {
		if (!passesFilters(filters, message)) return;
		const items = [[toItem(message, includeRaw)]];
		if (acknowledge === 'immediately') {
			this.emit(items);
			return;
		}
		const done = this.helpers.createDeferredPromise<IRun>();
		this.emit(items, undefined, done);
		const run = await executions.wait(message, done.promise);
		if (acknowledge === 'executionFinishesSuccessfully' && run.data.resultData.error) {
			throw new NodeOperationError(node, `The execution for ${message.dataType} ${message.id} failed; the message stays with the broker`);
		}
	};

	const start = async (): Promise<void> => {
		try {
			await receiver.start(handle);
		} catch (error) {
			executions.close();
			throw new NodeOperationError(node, (error as Error).message);
		}
	};
	const closeFunction = async () => {
		executions.close();
		await receiver.close();
	};
	if (manual) return { closeFunction, manualTriggerFunction: start };
	await start();
	return { closeFunction };
}
