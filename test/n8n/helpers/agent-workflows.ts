// The n8n AI Agent workflows of the real-n8n agent tests: our read operations as tools of n8n's AI
// Agent (or of the MCP Server Trigger), the OpenAI Chat Model pointing at the scripted model.
import type { WorkflowJson, WorkflowNode } from '../harness';

export const TOOL_TYPE = 'n8n-nodes-drive-monitoring.driveMonitoringTool';
export const OPENAI_CREDENTIAL = { id: 'dmE2eOpenAi1', name: 'OpenAI (scripted model)' };

const asset = {
	__rl: true,
	mode: 'id',
	value: "={{ $fromAI('assetId', 'The numeric ID of the asset, e.g. 100001', 'number') }}",
};
const startTime =
	"={{ $fromAI('startTime', 'Start of the time range, ISO 8601, e.g. 2026-05-01T08:00:00Z', 'string') }}";
const endTime =
	"={{ $fromAI('endTime', 'End of the time range, ISO 8601, e.g. 2026-05-08T08:00:00Z', 'string') }}";

/** The read tools an agent about the fleet gets, by node name (the tool name is derived from it). */
export function readTools(trendCodes: string[]): WorkflowNode[] {
	const tool = (name: string, parameters: Record<string, unknown>, y: number): WorkflowNode => ({
		name,
		type: TOOL_TYPE,
		typeVersion: 1,
		position: [400 + (y % 3) * 160, 260 + Math.floor(y / 3) * 160],
		parameters,
		credentials: { driveMonitoringApi: { id: '', name: '' } },
	});
	return [
		tool('Get Asset', { resource: 'asset', operation: 'get', asset }, 0),
		tool(
			'Get Events',
			{
				resource: 'event',
				operation: 'getMany',
				asset,
				startTime,
				endTime,
				returnAll: true,
				filters: {},
				options: {},
			},
			1,
		),
		tool('Get Health', { resource: 'health', operation: 'getConditions', asset }, 2),
		tool('Get CBM Results', { resource: 'cbm', operation: 'getResults', asset, simplify: true }, 3),
		tool(
			'Get Trend Data',
			{
				resource: 'trendSignal',
				operation: 'getData',
				asset,
				parameters: trendCodes,
				startTime,
				endTime,
				output: 'parameter',
				simplify: true,
				options: {},
			},
			4,
		),
	];
}

/** The OpenAI Chat Model node 1.3 as a user adds it: Responses API on by default. */
export function chatModel(name: string, responsesApi = true): WorkflowNode {
	return {
		name,
		type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
		typeVersion: 1.3,
		position: [200, 260],
		parameters: {
			model: { __rl: true, mode: 'id', value: 'scripted-model' },
			...(responsesApi ? {} : { responsesApiEnabled: false }),
			options: {},
		},
		credentials: { openAiApi: OPENAI_CREDENTIAL },
	};
}

/** Manual Trigger, a prompt, the AI Agent with the chat model and the read tools. */
export function agentWorkflow(
	id: string,
	prompt: string,
	trendCodes: string[],
	responsesApi = true,
): WorkflowJson {
	return agentWith(id, prompt, readTools(trendCodes), responsesApi);
}

/** Manual Trigger, a prompt, the AI Agent with the chat model and the given tools. */
export function agentWith(
	id: string,
	prompt: string,
	tools: WorkflowNode[],
	responsesApi = true,
): WorkflowJson {
	const model = chatModel('OpenAI Chat Model', responsesApi);
	return {
		id,
		name: `Agent test ${id}`,
		// What the editor gives every new workflow. Under the legacy order ('v0') n8n 2.41 resumes the
		// agent before its tools have run, and the model gets "" for every tool answer.
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				name: 'Run From Test',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 3.1,
				position: [300, 0],
				parameters: { promptType: 'define', text: prompt, options: {} },
			},
			model,
			...tools,
		],
		connections: {
			'Run From Test': { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			[model.name]: {
				ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
			},
			...Object.fromEntries(
				tools.map((tool) => [
					tool.name,
					{ ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
				]),
			),
		},
	};
}
