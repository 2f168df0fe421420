/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Runs the built Drive Monitoring Trigger through n8n-core's own machinery: TriggersAndPollers
// with a TriggerContext (activation, emit, close) or a PollContext (polls keeping static data),
// and WorkflowExecute for the execution each emit starts, as n8n's ActiveWorkflowManager does.
import { PollContext, TriggerContext, TriggersAndPollers } from 'n8n-core';
import type {
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	ITriggerResponse,
	IWorkflowExecuteAdditionalData,
	Logger,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import type { N8nTestEngine } from '../helpers/n8n/engine';

type Done = { resolve(run: IRun): void } | undefined;

export const TRIGGER_TYPE = 'n8n-nodes-drive-monitoring.driveMonitoringTrigger';
/** The push trigger comes with the companion package n8n-nodes-drive-monitoring-push. */
export const PUSH_TRIGGER_TYPE = 'n8n-nodes-drive-monitoring-push.driveMonitoringPushTrigger';

/** A downstream node that fails while `failing()` says so: an execution that did not succeed. */
export function flakyNode(failing: () => boolean): INodeType {
	return {
		description: {
			displayName: 'Flaky',
			name: 'flaky',
			group: ['transform'],
			version: 1,
			description: 'Fails on demand',
			defaults: { name: 'Flaky' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			if (failing()) throw new Error('downstream failed on purpose');
			return [this.getInputData()];
		},
	} as unknown as INodeType;
}

export interface ActiveTrigger {
	/** Items of each emit, in order. */
	emitted: INodeExecutionData[][];
	/** Executions started and finished (their donePromise resolved afterwards). */
	runs: IRun[];
	errors: Error[];
	close(): Promise<void>;
}

function workflowWith(
	engine: N8nTestEngine,
	parameters: INodeParameters,
	credentials: INode['credentials'],
	withFlaky: boolean,
	type = TRIGGER_TYPE,
	workflowId = 'push-test',
): { workflow: Workflow; node: INode } {
	const node: INode = {
		id: 'trigger',
		name: 'Drive Monitoring Trigger',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials,
	};
	const nodes: INode[] = [node];
	if (withFlaky)
		nodes.push({
			id: 'flaky',
			name: 'Flaky',
			type: 'test.flaky',
			typeVersion: 1,
			position: [200, 0],
			parameters: {},
		});
	const connections = withFlaky
		? { [node.name]: { main: [[{ node: 'Flaky', type: 'main' as const, index: 0 }]] } }
		: {};
	const workflow = new Workflow({
		id: workflowId,
		name: `push test ${workflowId}`,
		nodes,
		connections,
		active: true,
		nodeTypes: engine.pack.nodeTypes,
		staticData: {},
	});
	return { workflow, node };
}

/** Activates the trigger (mode 'trigger'); each emit runs the workflow, then settles donePromise. */
export async function activateTrigger(
	engine: N8nTestEngine,
	parameters: INodeParameters,
	credentials: INode['credentials'],
	options: {
		withFlaky?: boolean;
		holdExecutions?: () => boolean;
		onEmit?: (items: INodeExecutionData[]) => void;
		/** Each workflow has its own id (n8n's), so its own client; 'push-test' unless told. */
		workflowId?: string;
		/** An execution that never reports back (a worker killed mid-run): its donePromise never settles. */
		neverReports?: (items: INodeExecutionData[]) => boolean;
		/** Stands in for n8n's logger in the trigger's context. */
		logger?: Logger;
	} = {},
): Promise<ActiveTrigger> {
	const { workflow, node } = workflowWith(
		engine,
		parameters,
		credentials,
		options.withFlaky ?? false,
		PUSH_TRIGGER_TYPE,
		options.workflowId,
	);
	const data = engine.additionalData();
	const state: ActiveTrigger = { emitted: [], runs: [], errors: [], close: async () => undefined };
	const execute = async (items: INodeExecutionData[][], done?: Done) => {
		const run = await engine.executeFrom(workflow, node, items, 'trigger');
		state.runs.push(run);
		while (options.holdExecutions?.()) await new Promise((r) => setTimeout(r, 10));
		if (options.neverReports?.(items[0])) return;
		done?.resolve(run);
	};
	const getTriggerFunctions = (
		wf: Workflow,
		n: INode,
		add: IWorkflowExecuteAdditionalData,
		mode: 'trigger',
		activation: 'activate',
	) => {
		const context = new TriggerContext(
			wf,
			n,
			add,
			mode,
			activation,
			(items, _response, done) => {
				state.emitted.push(items[0]);
				options.onEmit?.(items[0]);
				void execute(items, done as Done);
			},
			(error) => state.errors.push(error),
		);
		if (options.logger) Object.defineProperty(context, 'logger', { value: options.logger });
		return context;
	};
	const response: ITriggerResponse | undefined = await new TriggersAndPollers().runTriggerFunction(
		workflow,
		node,
		getTriggerFunctions as never,
		data,
		'trigger',
		'activate',
	);
	state.close = async () => await response?.closeFunction?.();
	return state;
}

/**
 * Publishes the trigger as n8n 2.41 does: its NonWebhookTriggerRegistrar lists a workflow's trigger
 * nodes and then its poll nodes (getTriggerNodes, getPollNodes) and registers each entry, and
 * each registration runs the node's trigger function when it has one. Returns one ActiveTrigger
 * per trigger function started, all emitting into the same record.
 */
export async function publishAsN8nDoes(
	engine: N8nTestEngine,
	parameters: INodeParameters,
	credentials: INode['credentials'],
	options: { withFlaky?: boolean } = {},
): Promise<{ started: number; trigger: ActiveTrigger }> {
	const { workflow } = workflowWith(engine, parameters, credentials, false, PUSH_TRIGGER_TYPE);
	const listed = [...workflow.getTriggerNodes(), ...workflow.getPollNodes()];
	const started = await Promise.all(
		listed
			.filter(
				(node) => engine.pack.nodeTypes.getByNameAndVersion(node.type, node.typeVersion).trigger,
			)
			.map(() => activateTrigger(engine, parameters, credentials, options)),
	);
	const trigger: ActiveTrigger = {
		emitted: [],
		runs: [],
		errors: [],
		close: async () => void (await Promise.all(started.map((t) => t.close()))),
	};
	// One record of everything the started triggers emitted and ran, as n8n's executions list shows.
	Object.defineProperty(trigger, 'emitted', { get: () => started.flatMap((t) => t.emitted) });
	Object.defineProperty(trigger, 'runs', { get: () => started.flatMap((t) => t.runs) });
	Object.defineProperty(trigger, 'errors', { get: () => started.flatMap((t) => t.errors) });
	return { started: started.length, trigger };
}

/** A poller over one Workflow (its static data persists between polls, as n8n saves it). */
export function poller(
	engine: N8nTestEngine,
	parameters: INodeParameters,
	credentials: INode['credentials'],
): () => Promise<INodeExecutionData[]> {
	const { workflow, node } = workflowWith(engine, parameters, credentials, false);
	const data = engine.additionalData();
	const triggersAndPollers = new TriggersAndPollers();
	return async () => {
		const context = new PollContext(workflow, node, data, 'trigger', 'activate');
		const result = await triggersAndPollers.runPollFunction(workflow, node, context);
		return result?.[0] ?? [];
	};
}
