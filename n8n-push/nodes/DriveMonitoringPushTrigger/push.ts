import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IRun,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import {
	Batcher,
	createPushReceiver,
	ExecutionWaits,
	PUSH_DATA_TYPES,
	triggerClientId,
	type PushDataType,
	type PushMessage,
	type PushReceiverOptions,
} from '../../../shared/push';
import { passesFilters, readFilters, toItem } from '../../../nodes/DriveMonitoringTrigger/items';
import {
	DEFAULT_BATCH_WINDOW_SECONDS,
	DEFAULT_EXECUTION_TIMEOUT_MINUTES,
	DEFAULT_PARALLEL_MESSAGES,
	MAX_EVENTS_PER_EXECUTION,
} from './description';

export const PUSH_CREDENTIAL_TYPE = 'driveMonitoringPushApi';

type Acknowledge = 'immediately' | 'executionFinishes' | 'executionFinishesSuccessfully';

/** The receiver settings from the credential; the password stays in the receiver. */
export function receiverOptionsOf(
	credentials: ICredentialDataDecryptedObject,
): Omit<PushReceiverOptions, 'dataTypes'> {
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
		throw new NodeOperationError(
			node,
			`Data Types ${JSON.stringify(dataTypes)} must name at least one of ${PUSH_DATA_TYPES.join(', ')}`,
		);
	}
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const acknowledge = (options.acknowledge as Acknowledge | undefined) ?? 'executionFinishes';
	const includeRaw = options.includeRaw === true;
	const manual = this.getMode() === 'manual';
	// The editor's test listener takes one message: n8n runs only the first emit.
	const batchSize = manual
		? 1
		: Math.min(
				MAX_EVENTS_PER_EXECUTION,
				Math.max(1, Math.floor(Number(options.eventsPerExecution ?? 1))),
			);
	const filters = readFilters(this);
	const settings = receiverOptionsOf(await this.getCredentials(PUSH_CREDENTIAL_TYPE));
	const logger = this.logger;
	let receiver: ReturnType<typeof createPushReceiver>;
	try {
		receiver = createPushReceiver({
			...settings,
			dataTypes,
			// Flow control sized to the batch: the broker never pushes more than the trigger holds,
			// and a batch can fill (unless the broker caps messages in flight lower).
			prefetch: manual
				? 1
				: Math.max(batchSize, Number(options.parallelMessages ?? DEFAULT_PARALLEL_MESSAGES)),
			// One client per workflow and node (its own MQTT session, its own AMQP link); a test
			// listener has one of its own, so it never takes over the active workflow's session.
			clientId: triggerClientId({
				userName: settings.userName,
				workflowId: String(this.getWorkflow().id ?? ''),
				nodeId: node.id,
				purpose: manual ? 'test' : 'active',
			}),
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
	const executions = new ExecutionWaits(
		Math.round(Number(options.executionTimeout ?? DEFAULT_EXECUTION_TIMEOUT_MINUTES) * 60_000),
		logger,
		`Drive Monitoring Push Trigger of "${this.getWorkflow().name ?? String(this.getWorkflow().id)}"`,
		'Check that execution in the Executions list; in queue mode, that its worker is running and reaches Redis. If executions legitimately take longer, raise Execution Timeout.',
	);
	receiver.on('end', (end) => {
		if (end.error) this.emitError(new NodeOperationError(node, end.error.message));
	});

	const execute = async (messages: PushMessage[]): Promise<void> => {
		const items = [messages.map((message) => toItem(message, includeRaw))];
		if (acknowledge === 'immediately') {
			this.emit(items);
			return;
		}
		const done = this.helpers.createDeferredPromise<IRun>();
		this.emit(items, undefined, done);
		const run = await executions.wait(messages, done.promise);
		if (acknowledge === 'executionFinishesSuccessfully' && run.data.resultData.error) {
			// The receiver's warning names the messages and says they are delivered again: this says why.
			throw new NodeOperationError(
				node,
				`the execution failed (${run.data.resultData.error.message}) and Acknowledge is "Execution Finishes Successfully"`,
			);
		}
	};
	const batches =
		batchSize > 1
			? new Batcher(
					batchSize,
					Math.round(Number(options.batchWindow ?? DEFAULT_BATCH_WINDOW_SECONDS) * 1000),
					execute,
				)
			: undefined;
	// Filters apply before batching; the receiver has already dropped redeliveries.
	const handle = async (message: PushMessage): Promise<void> => {
		if (!passesFilters(filters, message)) return;
		await (batches ? batches.add(message) : execute([message]));
	};

	const start = async (): Promise<void> => {
		try {
			await receiver.start(handle);
		} catch (error) {
			batches?.close();
			executions.close();
			throw new NodeOperationError(node, (error as Error).message);
		}
	};
	const closeFunction = async () => {
		batches?.close();
		executions.close();
		await receiver.close();
	};
	if (manual) return { closeFunction, manualTriggerFunction: start };
	await start();
	return { closeFunction };
}
