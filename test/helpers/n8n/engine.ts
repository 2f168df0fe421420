/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Runs workflows in n8n's own execution engine (n8n-core's WorkflowExecute), as
// packages/core/nodes-testing/node-test-harness.ts does, with the built node pack and our
// credentials helper. Also calls list search, load options and credential tests the way the
// n8n server does (LoadOptionsContext, the node's credentialTest method).
import './environment';

import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
	ExecuteContext,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	RoutingNode,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodePropertyOptions,
	INodeType,
	IRun,
	IRunExecutionData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { TestCredentialsHelper, type StoredCredential } from './credentials-helper';
import { loadPackage, REPO_ROOT, type LoadedPackage } from './package';

export const WORKFLOWS_DIR = path.join(REPO_ROOT, 'test', 'workflows');

export interface WorkflowJson {
	name?: string;
	nodes: INode[];
	connections: IWorkflowBase['connections'];
	settings?: IWorkflowBase['settings'];
}

export interface RunResult {
	run: IRun;
	/** Output items of a node's first run (first output), or undefined when it did not run. */
	output(nodeName: string): INodeExecutionData[] | undefined;
	/** The error of a node's first run, if it failed. */
	nodeError(nodeName: string): (Error & IDataObject) | undefined;
}

export interface RunOptions {
	/** Items the trigger starts with (default: one empty item, as a manual run). */
	input?: INodeExecutionData[];
	/** Node parameters to replace, by node name (merged over the file's parameters). */
	parameters?: Record<string, INodeParameters>;
	/** Cancels the execution when it aborts, as n8n does on Stop or at the workflow's timeout. */
	cancel?: AbortSignal;
}

export class N8nTestEngine {
	readonly pack: LoadedPackage;
	readonly credentialsHelper: TestCredentialsHelper;

	constructor() {
		this.pack = loadPackage();
		this.credentialsHelper = new TestCredentialsHelper(this.pack.credentialTypes);
	}

	/** Make more node types known (e.g. stand-ins for n8n-nodes-base nodes). */
	addNodeTypes(types: Record<string, INodeType>): void {
		for (const [name, type] of Object.entries(types)) this.pack.nodes.set(name, type);
	}

	addCredential(credential: StoredCredential): void {
		this.credentialsHelper.add(credential);
	}

	readWorkflow(file: string): WorkflowJson {
		return JSON.parse(
			readFileSync(path.isAbsolute(file) ? file : path.join(WORKFLOWS_DIR, file), 'utf8'),
		) as WorkflowJson;
	}

	/** What n8n hands every execution: our credentials helper, URLs, hooks; trigger tests share it. */
	additionalData(
		hooks?: ExecutionLifecycleHooks,
		currentNodeParameters?: INodeParameters,
	): IWorkflowExecuteAdditionalData {
		return {
			credentialsHelper: this.credentialsHelper,
			hooks,
			currentNodeParameters,
			currentNodeExecutionIndex: 0,
			restApiUrl: 'http://127.0.0.1/rest',
			instanceBaseUrl: 'http://127.0.0.1/',
			formBaseUrl: '',
			formWaitingBaseUrl: '',
			formTestBaseUrl: '',
			webhookBaseUrl: '',
			webhookWaitingBaseUrl: '',
			webhookTestBaseUrl: '',
			mcpBaseUrl: '',
			mcpTestBaseUrl: '',
			variables: {},
			executeWorkflow: async () => {
				throw new Error('sub-workflows are not part of these tests');
			},
			getRunExecutionData: async () => undefined,
			getRuntimeCredential: async () => undefined,
			logAiEvent: () => {},
			startRunnerTask: async () => {
				throw new Error('task runners are not part of these tests');
			},
		} as unknown as IWorkflowExecuteAdditionalData;
	}

	private workflowOf(json: WorkflowJson, overrides: RunOptions['parameters'] = {}): Workflow {
		const nodes = json.nodes.map((node) => ({
			...node,
			parameters: { ...node.parameters, ...(overrides[node.name] ?? {}) },
		}));
		return new Workflow({
			id: 'test',
			name: json.name ?? 'test',
			nodes,
			connections: json.connections,
			nodeTypes: this.pack.nodeTypes,
			settings: json.settings,
			active: false,
		});
	}

	/** Run a workflow from its trigger in manual mode and wait for the end. */
	async run(json: WorkflowJson, options: RunOptions = {}): Promise<RunResult> {
		const workflow = this.workflowOf(json, options.parameters);
		// n8n starts manual runs at the trigger; stand-in triggers have no trigger() of their own.
		const start =
			workflow.getStartNode() ??
			Object.values(workflow.nodes).find((node) =>
				this.pack.nodeTypes
					.getByNameAndVersion(node.type, node.typeVersion)
					.description.group.includes('trigger'),
			);
		if (!start) throw new Error('the workflow has no trigger node');
		const run = await this.executeFrom(
			workflow,
			start,
			[options.input ?? [{ json: {} }]],
			'manual',
			options.cancel,
		);
		return {
			run,
			output: (nodeName) =>
				run.data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? undefined,
			nodeError: (nodeName) =>
				run.data.resultData.runData[nodeName]?.[0]?.error as (Error & IDataObject) | undefined,
		};
	}

	/**
	 * Run `workflow` from `start` with the given input (one list per input of the start node),
	 * as n8n runs an execution: also for a trigger's emitted items (mode 'trigger').
	 */
	async executeFrom(
		workflow: Workflow,
		start: INode,
		input: INodeExecutionData[][],
		mode: 'manual' | 'trigger' = 'manual',
		cancel?: AbortSignal,
	): Promise<IRun> {
		const hooks = new ExecutionLifecycleHooks(mode, 'test-execution', {
			id: workflow.id,
			name: workflow.name ?? 'test',
			nodes: Object.values(workflow.nodes),
			connections: workflow.connectionsBySourceNode,
			active: false,
			settings: {},
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
		} as unknown as IWorkflowBase);
		const runExecutionData = {
			resultData: { runData: {} },
			executionData: {
				contextData: {},
				metadata: {},
				waitingExecution: {},
				waitingExecutionSource: null,
				nodeExecutionStack: [{ node: start, data: { main: input }, source: null }],
			},
		} as unknown as IRunExecutionData;
		const execution = new WorkflowExecute(
			this.additionalData(hooks),
			mode,
			runExecutionData,
		).processRunExecutionData(workflow);
		if (!cancel) return await execution;
		// n8n's own cancellation: PCancelable.cancel() aborts the signal nodes get from getExecutionCancelSignal().
		const onCancel = () => execution.cancel();
		if (cancel.aborted) onCancel();
		else cancel.addEventListener('abort', onCancel, { once: true });
		try {
			return await execution;
		} finally {
			cancel.removeEventListener('abort', onCancel);
		}
	}

	private nodeType(type: string): INodeType {
		return this.pack.nodeTypes.getByNameAndVersion(type);
	}

	private contextFor(node: INode, parameterPath: string): LoadOptionsContext {
		const workflow = new Workflow({
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes: this.pack.nodeTypes,
		});
		return new LoadOptionsContext(
			workflow,
			node,
			this.additionalData(undefined, node.parameters),
			parameterPath,
		);
	}

	/** A resource locator's list search, as the editor calls it. */
	async listSearch(node: INode, method: string, filter?: string): Promise<INodeListSearchResult> {
		const fn = this.nodeType(node.type).methods?.listSearch?.[method];
		if (!fn) throw new Error(`${node.type} has no list search method ${method}`);
		return await fn.call(this.contextFor(node, `parameters.${method}`), filter);
	}

	/** An options field's loader, as the editor calls it. */
	async loadOptions(node: INode, method: string): Promise<INodePropertyOptions[]> {
		const fn = this.nodeType(node.type).methods?.loadOptions?.[method];
		if (!fn) throw new Error(`${node.type} has no load options method ${method}`);
		return await fn.call(this.contextFor(node, `parameters.${method}`));
	}

	/**
	 * The credential's Test button, as n8n's CredentialsTester runs a declarative `test`: a noOp
	 * node whose only parameter routes the test request, run by n8n-core's RoutingNode with the
	 * credential (so preAuthentication and authenticate run), errors turned into the message the
	 * editor shows (the rule of a matching status, the status text, the error code, or the message).
	 */
	async testCredential(
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<INodeCredentialTestResult> {
		const testRequest = this.pack.credentialTypes.get(type)?.test;
		if (!testRequest) throw new Error(`credential type ${type} has no test`);
		const nodeType: INodeType = {
			description: {
				displayName: 'No Operation, do nothing',
				name: 'n8n-nodes-base.noOp',
				group: ['organization'],
				version: 1,
				description: 'credential test',
				defaults: { name: 'Temp' },
				inputs: ['main'],
				outputs: ['main'],
				credentials: [{ name: type, required: true }],
				properties: [
					{
						displayName: 'Temp',
						name: 'temp',
						type: 'string',
						routing: { request: testRequest.request },
						default: '',
					},
				],
			} as INodeType['description'],
		};
		const node: INode = {
			id: 'temp',
			parameters: {},
			name: 'Temp-Node',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [0, 0],
			credentials: { [type]: { id: 'credential-under-test', name: 'credential under test' } },
		};
		const nodeTypes = {
			...this.pack.nodeTypes,
			getByName: () => nodeType,
			getByNameAndVersion: () => nodeType,
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		const workflowNode = workflow.getNode(node.name)!;
		const context = new ExecuteContext(
			workflow,
			workflowNode,
			this.additionalData(),
			'internal',
			{ resultData: { runData: {} } } as unknown as IRunExecutionData,
			0,
			[],
			{ main: [[{ json: {} }]] },
			{ node: workflowNode, data: {}, source: null },
			[],
		);
		const credentials: ICredentialsDecrypted = {
			id: 'credential-under-test',
			name: 'credential under test',
			type,
			data,
		};
		try {
			await new RoutingNode(context, nodeType, credentials).runNode();
		} catch (error) {
			const { cause, message } = error as {
				cause?: { response?: { status: number; statusText?: string }; code?: string };
				message: string;
			};
			if (cause?.response) {
				const rule = testRequest.rules?.find(
					(r) => r.type === 'responseCode' && r.properties.value === cause.response!.status,
				);
				if (rule) return { status: 'Error', message: rule.properties.message };
				return {
					status: 'Error',
					message:
						cause.response.statusText || `Received HTTP status code: ${cause.response.status}`,
				};
			}
			if (cause?.code) return { status: 'Error', message: cause.code };
			return { status: 'Error', message: String(message) };
		}
		return { status: 'OK', message: 'Connection successful!' };
	}
}
