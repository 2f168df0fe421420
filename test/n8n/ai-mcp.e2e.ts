/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The agent examples (examples/ai/) and the MCP Server Trigger in a real n8n 2.41 with the pack
// installed: "Triage a fault" run by `n8n execute`; then `n8n start` with "Ask about your fleet"
// published and asked through its Chat Trigger (streaming), and our tools exposed by the MCP Server
// Trigger to the official MCP TypeScript SDK client. The model is the scripted one.
import fs from 'node:fs';
import path from 'node:path';

// The SDK publishes its entry points only through package.json "exports" (wildcards), which the
// lint's resolver does not follow; TypeScript and Node resolve them.
// eslint-disable-next-line import-x/no-unresolved
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
// eslint-disable-next-line import-x/no-unresolved
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { startSimulator, type Simulator } from '../../simulator';
import { createClient, type DriveMonitoringClient } from '../../shared';
import { n8nCommand, startN8nServer, type N8nServer } from '../../scripts/n8n/instance';
import {
	ARTIFACTS,
	EXAMPLES_DIR,
	driveMonitoringCredentialData,
	expectPackLoaded,
	importCredential,
	importWorkflows,
	parsePrintedJson,
	readState,
	type WorkflowJson,
} from './harness';
import { fakeSlackToken } from '../bot/helpers';
import { OPENAI_CREDENTIAL, readTools } from './helpers/agent-workflows';
import { startScriptedModel, type ScriptedModel } from './helpers/scripted-model';

const CREDENTIAL = { id: 'dmE2eMcpCred1', name: 'Drive Monitoring (simulator)' };
// Slack is a service outside this machine: the review example only needs a credential to publish.
const SLACK_CREDENTIAL = { id: 'dmE2eSlackCred1', name: 'Slack (never called)' };
const MCP_PATH = 'drive-monitoring-e2e';
const BOUND = 16_000;

const state = readState();
let simulator: Simulator;
let model: ScriptedModel;
let direct: DriveMonitoringClient;
let server: N8nServer | undefined;
let orgId: number;
let drive: { id: number; name: string };

const readExample = (file: string) =>
	JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, 'ai', file), 'utf8')) as WorkflowJson;

/** An example as a user sets it up after import: the organization picked, the model's credential set. */
function setUp(example: WorkflowJson, id: string): WorkflowJson {
	const workflow = JSON.parse(JSON.stringify(example)) as WorkflowJson;
	workflow.id = id;
	for (const node of workflow.nodes) {
		const organization = node.parameters?.organization as { value?: unknown } | undefined;
		if (organization && organization.value === '')
			node.parameters!.organization = { __rl: true, mode: 'id', value: String(orgId) };
		if (node.credentials?.openAiApi) node.credentials.openAiApi = OPENAI_CREDENTIAL;
	}
	return workflow;
}

/**
 * "Triage a fault" runnable by `n8n execute`: the trigger's place taken by a Manual Trigger and the
 * fault item the trigger would hand on; Slack (a service outside this machine) deactivated.
 */
function runnableTriage(fault: Record<string, unknown>): WorkflowJson {
	const workflow = setUp(readExample('triage-a-fault.json'), 'exTriageAFault1');
	const trigger = workflow.nodes.find((n) => n.name === 'New Fault')!;
	expect(trigger.type).toBe('n8n-nodes-drive-monitoring.driveMonitoringTrigger');
	Object.assign(trigger, {
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: { mode: 'raw', jsonOutput: JSON.stringify(fault), options: {} },
		credentials: undefined,
	});
	workflow.nodes.find((n) => n.name === 'Post Triage to Slack')!.disabled = true;
	workflow.nodes.push({
		name: 'Run From Test',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [-200, 0],
		parameters: {},
	});
	workflow.connections['Run From Test'] = {
		main: [[{ node: 'New Fault', type: 'main', index: 0 }]],
	};
	return workflow;
}

function mcpWorkflow(): WorkflowJson {
	const tools = readTools([]).filter((t) =>
		['Get Asset', 'Get Health', 'Get Events'].includes(t.name),
	);
	return {
		id: 'mcpServerE2e1',
		name: 'Drive Monitoring tools over MCP',
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				name: 'MCP Server Trigger',
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				position: [0, 0],
				webhookId: '8b0f5c2e-1d7a-4c1e-9f6b-3a2d1e0c9b77',
				parameters: { path: MCP_PATH, authentication: 'none' },
			},
			...tools,
		],
		connections: Object.fromEntries(
			tools.map((t) => [
				t.name,
				{ ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] },
			]),
		),
	};
}

let askWorkflow: WorkflowJson;
let reviewWorkflow: WorkflowJson;

/** Waits (at most a minute) until n8n has registered a production webhook: a GET no longer answers 404. */
async function untilRegistered(url: string): Promise<void> {
	const deadline = Date.now() + 60_000;
	let status = 0;
	while (Date.now() < deadline) {
		const response = await fetch(url, {
			headers: { accept: 'text/html, text/event-stream' },
			signal: AbortSignal.timeout(5_000),
		}).catch(() => undefined);
		status = response?.status ?? 0;
		await response?.body?.cancel();
		if (status !== 0 && status !== 404) return;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(
		`n8n did not register ${url} within a minute (last status ${status}); see ${path.join(ARTIFACTS, 'ai-mcp-server.log')}`,
	);
}

beforeAll(async () => {
	fs.mkdirSync(path.join(ARTIFACTS, 'executions'), { recursive: true });
	simulator = await startSimulator({ push: false });
	model = await startScriptedModel();
	const credentialData = driveMonitoringCredentialData(simulator.info);
	orgId = simulator.info.credentials.find((c) => c.apiKey === credentialData.apiKey)!.orgId;
	direct = createClient({ ...credentialData, retry: false });
	const found = simulator.fleet
		.assets()
		.find(
			(a) => a.orgId === orgId && a.assetType === 'Drive' && a.level === 'Premium' && a.cbmCapable,
		);
	if (!found) throw new Error('the simulator has no Premium drive with CBM');
	drive = found;
	await importCredential(state.instance, {
		...CREDENTIAL,
		type: 'driveMonitoringApi',
		data: credentialData,
	});
	await importCredential(state.instance, {
		...OPENAI_CREDENTIAL,
		type: 'openAiApi',
		data: { apiKey: 'sk-scripted', url: model.url },
	});
	await importCredential(state.instance, {
		...SLACK_CREDENTIAL,
		type: 'slackApi',
		data: { accessToken: fakeSlackToken('b') },
	});
});

afterAll(async () => {
	await server?.stop();
	if (model)
		fs.writeFileSync(
			path.join(ARTIFACTS, 'scripted-model-requests-mcp.json'),
			JSON.stringify(model.requests, null, 2),
		);
	await model?.close();
	await simulator?.close();
});

describe('example "Triage a fault" (n8n execute)', () => {
	test("the agent reads the faulted asset's events, health and CBM and its summary goes to Slack", async () => {
		simulator.control.raiseEvent(drive.id, {
			eventType: 'Fault',
			eventCode: '2310',
			content: 'Overcurrent (2310)',
		});
		const fault = {
			dataType: 'AssetEvent',
			assetId: drive.id,
			orgId,
			eventType: 'Fault',
			eventCode: '2310',
			content: 'Overcurrent (2310)',
			eventDateTime: new Date(simulator.clock.now()).toISOString(),
		};
		const workflow = runnableTriage(fault);
		await importWorkflows(state.instance, [workflow], { driveMonitoringApi: CREDENTIAL });
		const now = simulator.clock.now();
		const range = {
			assetId: drive.id,
			startTime: new Date(now - 7 * 86_400_000).toISOString(),
			endTime: new Date(now + 60_000).toISOString(),
		};
		const summary =
			'Overcurrent 2310 on the drive; second this week; health Tolerable; fan due. Check the motor cable.';
		model.play(
			[
				{
					toolCalls: [
						{ name: 'Get_Events', arguments: range },
						{ name: 'Get_Health', arguments: { assetId: drive.id } },
						{ name: 'Get_CBM_Results', arguments: { assetId: drive.id } },
					],
				},
			],
			summary,
		);
		const start = model.requests.length;

		const result = await n8nCommand(
			state.instance,
			['execute', `--id=${workflow.id}`, '--rawOutput'],
			{ allowFailure: true },
		);
		const output = `${result.stdout}\n${result.stderr}`;
		fs.writeFileSync(path.join(ARTIFACTS, 'executions', `${workflow.id}.log`), output);
		expectPackLoaded(output);
		expect(result.code).toBe(0);
		const runData = (
			parsePrintedJson(result.stdout) as {
				data: {
					resultData: {
						runData: Record<
							string,
							Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> } }>
						>;
					};
				};
			}
		).data.resultData.runData;
		// The deactivated Slack node passes on what it would have posted from.
		expect(runData['Post Triage to Slack'][0].data!.main[0][0].json.output).toBe(summary);

		const requests = model.requests.slice(start);
		expect(requests).toHaveLength(2);
		expect(requests[0].tools.map((t) => t.name).sort()).toEqual([
			'Get_Asset',
			'Get_CBM_Results',
			'Get_Events',
			'Get_Health',
		]);
		const results = Object.fromEntries(requests[1].toolResults.map((r) => [r.name, r.output]));
		for (const answer of Object.values(results))
			expect(Buffer.byteLength(answer)).toBeLessThanOrEqual(BOUND);
		expect(results.Get_Events).toContain('"eventCode":"2310"');
		const conditions = await direct.assetData.getConditions({ assetId: drive.id });
		expect(JSON.parse(results.Get_Health)).toEqual(
			conditions.map((c) => ({ assetId: drive.id, ...c })),
		);
		const cbm = await direct.assetData.getCbm({ assetId: drive.id });
		expect(
			(JSON.parse(results.Get_CBM_Results) as Array<{ deviceUnitType: string }>)
				.map((c) => c.deviceUnitType)
				.sort(),
		).toEqual(cbm.map((c) => c.deviceUnitType).sort());
	});
});

describe('a running n8n: the chat example and the MCP Server Trigger', () => {
	beforeAll(async () => {
		askWorkflow = setUp(readExample('ask-about-your-fleet.json'), 'exAskAboutFleet1');
		reviewWorkflow = setUp(readExample('changes-with-human-review.json'), 'exChangesReview1');
		const active = [askWorkflow, reviewWorkflow, mcpWorkflow()];
		await importWorkflows(state.instance, active, {
			driveMonitoringApi: CREDENTIAL,
			slackApi: SLACK_CREDENTIAL,
		});
		for (const workflow of active)
			await n8nCommand(state.instance, ['publish:workflow', `--id=${workflow.id}`]);
		server = await startN8nServer(state.instance, path.join(ARTIFACTS, 'ai-mcp-server.log'));
		// n8n answers its readiness check before it has activated the published workflows.
		for (const workflow of [askWorkflow, reviewWorkflow]) {
			const chatId = workflow.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger')!
				.webhookId as string;
			await untilRegistered(`${server.url}/webhook/${chatId}/chat`);
		}
		await untilRegistered(`${server.url}/mcp/${MCP_PATH}`);
	});

	test('"Ask about your fleet": a chat message is answered through the tools, streamed', async () => {
		const trigger = askWorkflow.nodes.find(
			(n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger',
		)!;
		model.play(
			[
				{ toolCalls: [{ name: 'List_Assets', arguments: {} }] },
				{ toolCalls: [{ name: 'Get_Health', arguments: { assetId: drive.id } }] },
			],
			`${drive.name} is Tolerable overall.`,
		);
		const start = model.requests.length;
		const response = await fetch(`${server!.url}/webhook/${trigger.webhookId as string}/chat`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				action: 'sendMessage',
				sessionId: 'e2e-session',
				chatInput: `How is ${drive.name}?`,
			}),
			signal: AbortSignal.timeout(120_000),
		});
		const body = await response.text();
		expect(response.status).toBe(200);
		expect(body).toContain(`${drive.name} is Tolerable overall.`);

		const requests = model.requests.slice(start);
		expect(requests).toHaveLength(3);
		expect(requests.every((r) => r.api === 'responses' && r.stream)).toBe(true);
		const [list] = requests[1].toolResults;
		expect(list.name).toBe('List_Assets');
		expect(Buffer.byteLength(list.output)).toBeLessThanOrEqual(BOUND);
		// The organization's assets, each with the name and ID the model needs for the next call.
		const ids = new Set(
			simulator.fleet
				.assets()
				.filter((a) => a.orgId === orgId)
				.map((a) => a.id),
		);
		const answer = JSON.parse(list.output) as Array<Record<string, unknown>>;
		expect(answer).toContainEqual(expect.objectContaining({ id: drive.id, name: drive.name }));
		for (const asset of answer) expect(ids.has(asset.id as number)).toBe(true);
		const health = requests[2].toolResults.find((r) => r.name === 'Get_Health')!;
		const conditions = await direct.assetData.getConditions({ assetId: drive.id });
		expect(JSON.parse(health.output)).toEqual(conditions.map((c) => ({ assetId: drive.id, ...c })));
	});

	test('"Changes with human review": published, and the changing tools reach the model only through the Slack review node', async () => {
		const trigger = reviewWorkflow.nodes.find(
			(n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger',
		)!;
		const review = reviewWorkflow.nodes.find((n) => n.name === 'Review in Slack')!;
		// n8n 2.41 makes the review tool from the Slack node's send-and-wait operation.
		expect(review.type).toBe('n8n-nodes-base.slackHitlTool');
		expect(reviewWorkflow.connections['Move Asset'].ai_tool[0][0].node).toBe('Review in Slack');
		expect(reviewWorkflow.connections['Rename Asset'].ai_tool[0][0].node).toBe('Review in Slack');
		model.play([], 'I can move or rename an asset once a person approves it in Slack.');
		const start = model.requests.length;
		const response = await fetch(`${server!.url}/webhook/${trigger.webhookId as string}/chat`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				action: 'sendMessage',
				sessionId: 'e2e-review',
				chatInput: 'What can you change?',
			}),
			signal: AbortSignal.timeout(120_000),
		});
		const body = await response.text();
		expect(response.status).toBe(200);
		expect(body).toContain('once a person approves it in Slack');

		const [offered] = model.requests.slice(start);
		const tools = Object.fromEntries(offered.tools.map((t) => [t.name, t]));
		expect(Object.keys(tools).sort()).toEqual([
			'Get_Asset',
			'List_Assets',
			'Move_Asset',
			'Rename_Asset',
		]);
		// A gated tool keeps its name and description; its parameters come wrapped beside the review layer's.
		expect(tools.Move_Asset.description).toMatch(
			/^Move an asset to another group\. CHANGES THE FLEET/,
		);
		const gated = tools.Move_Asset.parameters as {
			properties: Record<string, { properties?: Record<string, unknown> }>;
		};
		expect(Object.keys(gated.properties).sort()).toEqual(['hitlParameters', 'toolParameters']);
		expect(Object.keys(gated.properties.toolParameters.properties ?? {}).sort()).toEqual([
			'asset',
			'targetGroup',
		]);
		const ungated = tools.Get_Asset.parameters as { properties: Record<string, unknown> };
		expect(Object.keys(ungated.properties)).toEqual(['asset']);
	});

	test("an MCP client lists our tools and calls one: the answer is the simulator's", async () => {
		const client = new Client({ name: 'drive-monitoring-e2e', version: '1.0.0' });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`${server!.url}/mcp/${MCP_PATH}`)),
		);
		try {
			const { tools } = await client.listTools();
			expect(tools.map((t) => t.name).sort()).toEqual(['Get_Asset', 'Get_Events', 'Get_Health']);
			const health = tools.find((t) => t.name === 'Get_Health')!;
			expect(health.description).toMatch(
				/^Get the health conditions of an asset: .* in Drive Monitoring$/,
			);
			expect(health.inputSchema).toMatchObject({
				type: 'object',
				properties: { assetId: { type: 'number' } },
				required: ['assetId'],
			});

			const result = (await client.callTool({
				name: 'Get_Health',
				arguments: { assetId: drive.id },
			})) as { isError?: boolean; content: Array<{ type: string; text: string }> };
			expect(result.isError).toBeFalsy();
			const text = result.content.map((c) => c.text).join('');
			const conditions = await direct.assetData.getConditions({ assetId: drive.id });
			expect(JSON.parse(text)).toEqual(conditions.map((c) => ({ assetId: drive.id, ...c })));

			const refused = (await client.callTool({
				name: 'Get_Asset',
				arguments: { assetId: -3 },
			})) as { isError?: boolean; content: Array<{ text: string }> };
			expect(refused.content.map((c) => c.text).join('')).toMatch(
				/Asset "-3" matches no asset these credentials can see\. Send an id or a name/,
			);
		} finally {
			await client.close();
		}
	});
});
