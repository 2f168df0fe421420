/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Our read operations as tools of n8n's AI Agent in a real n8n 2.41, run by `n8n execute`: the
// OpenAI Chat Model node talks to a scripted model (test/n8n/helpers/scripted-model.ts) that
// records what n8n offers the model and what the tools answer, against the simulator.
import fs from 'node:fs';
import path from 'node:path';

import { startSimulator, type Simulator } from '../../simulator';
import { createClient, type DriveMonitoringClient } from '../../shared';
import { DriveMonitoring } from '../../nodes/DriveMonitoring/DriveMonitoring.node';
import { n8nCommand } from '../../scripts/n8n/instance';
import {
	ARTIFACTS,
	driveMonitoringCredentialData,
	expectPackLoaded,
	importCredential,
	importWorkflows,
	parsePrintedJson,
	readState,
	type WorkflowJson,
} from './harness';
import { OPENAI_CREDENTIAL, agentWorkflow } from './helpers/agent-workflows';
import {
	startScriptedModel,
	type RecordedRequest,
	type ScriptedModel,
} from './helpers/scripted-model';

const CREDENTIAL = { id: 'dmE2eAgentCred1', name: 'Drive Monitoring (simulator)' };
const DAY = 86_400_000;
const BOUND = 16_000;

const state = readState();
let simulator: Simulator;
let model: ScriptedModel;
let direct: DriveMonitoringClient;
let drive: { id: number; name: string; serialNumber: string };
let trendCodes: string[];

interface RunData {
	[node: string]: Array<{
		error?: { message: string };
		data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> };
	}>;
}

/** `n8n execute` of an imported workflow; n8n's output is kept as an artifact. */
async function execute(workflow: WorkflowJson): Promise<RunData> {
	const result = await n8nCommand(
		state.instance,
		['execute', `--id=${workflow.id}`, '--rawOutput'],
		{ allowFailure: true },
	);
	const output = `${result.stdout}\n${result.stderr}`;
	fs.writeFileSync(path.join(ARTIFACTS, 'executions', `${workflow.id}.log`), output);
	expectPackLoaded(output);
	if (result.code !== 0)
		throw new Error(
			`n8n execute --id=${workflow.id} exited with ${result.code}:\n${output.slice(-4000)}`,
		);
	return (parsePrintedJson(result.stdout) as { data: { resultData: { runData: RunData } } }).data
		.resultData.runData;
}

function agentAnswer(runData: RunData): unknown {
	const run = runData['AI Agent']?.[0];
	if (!run) throw new Error(`the agent did not run; ran: ${Object.keys(runData).join(', ')}`);
	if (run.error) throw new Error(`the agent failed: ${run.error.message}`);
	return run.data?.main[0]?.[0]?.json.output;
}

/** The action text of an operation: with "Set Automatically", the model's whole description of the tool. */
function action(resource: string, operation: string): string {
	const description = new DriveMonitoring().description;
	const property = description.properties.find(
		(p) =>
			p.name === 'operation' &&
			(p.displayOptions?.show?.resource as string[] | undefined)?.includes(resource),
	);
	const option = (property?.options as Array<{ value: string; action?: string }> | undefined)?.find(
		(o) => o.value === operation,
	);
	if (!option?.action) throw new Error(`no action text for ${resource}.${operation}`);
	return option.action;
}

const workflows: Record<string, WorkflowJson> = {};

beforeAll(async () => {
	fs.mkdirSync(path.join(ARTIFACTS, 'executions'), { recursive: true });
	simulator = await startSimulator({ push: false });
	model = await startScriptedModel();
	const credentialData = driveMonitoringCredentialData(simulator.info);
	const orgId = simulator.info.credentials.find((c) => c.apiKey === credentialData.apiKey)!.orgId;
	direct = createClient({ ...credentialData, retry: false });
	const found = simulator.fleet
		.assets()
		.find(
			(a) => a.orgId === orgId && a.assetType === 'Drive' && a.level === 'Premium' && a.cbmCapable,
		);
	if (!found) throw new Error('the simulator has no Premium drive with CBM');
	drive = found;
	trendCodes = (await direct.assetData.getTrendSignalConfig({ assetId: drive.id })).trends
		.slice(0, 2)
		.map((t) => t.code);

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
	workflows.responses = agentWorkflow(
		'agentResponses1',
		'How is my drive, and did it fault lately?',
		trendCodes,
	);
	workflows.badInput = agentWorkflow(
		'agentBadInput1',
		'Did pump three fault two weeks ago?',
		trendCodes,
	);
	workflows.chat = agentWorkflow('agentChatCompl1', 'How healthy is my drive?', trendCodes, false);
	await importWorkflows(state.instance, Object.values(workflows), {
		driveMonitoringApi: CREDENTIAL,
	});
});

afterAll(async () => {
	if (model)
		fs.writeFileSync(
			path.join(ARTIFACTS, 'scripted-model-requests.json'),
			JSON.stringify(model.requests, null, 2),
		);
	await model?.close();
	await simulator?.close();
});

describe('the read operations as tools of the AI Agent (Responses API)', () => {
	let requests: RecordedRequest[];
	beforeAll(async () => {
		const now = simulator.clock.now();
		const range = {
			assetId: drive.id,
			startTime: new Date(now - 45 * DAY).toISOString(),
			endTime: new Date(now).toISOString(),
		};
		model.play(
			[
				{
					toolCalls: [
						{ name: 'Get_Asset', arguments: { assetId: drive.id } },
						{ name: 'Get_Events', arguments: range },
						{ name: 'Get_Health', arguments: { assetId: drive.id } },
						{ name: 'Get_CBM_Results', arguments: { assetId: drive.id } },
						{ name: 'Get_Trend_Data', arguments: range },
					],
				},
			],
			'The drive is fine.',
		);
		const start = model.requests.length;
		const runData = await execute(workflows.responses);
		expect(agentAnswer(runData)).toBe('The drive is fine.');
		requests = model.requests.slice(start);
	});

	test('n8n speaks the Responses API and offers one tool per node: its name, our action text, the $fromAI parameters', () => {
		expect(requests.length).toBe(2);
		expect(requests.every((r) => r.api === 'responses')).toBe(true);
		const tools = Object.fromEntries(requests[0].tools.map((t) => [t.name, t]));
		expect(Object.keys(tools).sort()).toEqual([
			'Get_Asset',
			'Get_CBM_Results',
			'Get_Events',
			'Get_Health',
			'Get_Trend_Data',
		]);
		const expected: Record<string, [string, string, string[]]> = {
			Get_Asset: ['asset', 'get', ['assetId']],
			Get_Events: ['event', 'getMany', ['assetId', 'endTime', 'startTime']],
			Get_Health: ['health', 'getConditions', ['assetId']],
			Get_CBM_Results: ['cbm', 'getResults', ['assetId']],
			Get_Trend_Data: ['trendSignal', 'getData', ['assetId', 'endTime', 'startTime']],
		};
		for (const [name, [resource, operation, parameters]] of Object.entries(expected)) {
			const tool = tools[name];
			expect(tool.description).toBe(`${action(resource, operation)} in Drive Monitoring`);
			expect(tool.description.split(/\s+/).length).toBeGreaterThan(15);
			const schema = tool.parameters as {
				type: string;
				properties: Record<string, { type: string; description?: string }>;
				required: string[];
			};
			expect(schema.type).toBe('object');
			expect(Object.keys(schema.properties).sort()).toEqual(parameters);
			expect([...schema.required].sort()).toEqual(parameters);
			expect(schema.properties.assetId).toMatchObject({
				type: 'number',
				description: expect.stringContaining('numeric ID'),
			});
			if (parameters.includes('startTime'))
				expect(schema.properties.startTime).toMatchObject({
					type: 'string',
					description: expect.stringContaining('ISO 8601'),
				});
		}
	});

	test('every tool answer reaches the model under the 16 KB bound, and says what the simulator says', async () => {
		const results = Object.fromEntries(requests[1].toolResults.map((r) => [r.name, r.output]));
		expect(Object.keys(results).sort()).toEqual([
			'Get_Asset',
			'Get_CBM_Results',
			'Get_Events',
			'Get_Health',
			'Get_Trend_Data',
		]);
		for (const output of Object.values(results))
			expect(Buffer.byteLength(output)).toBeLessThanOrEqual(BOUND);

		const [asset] = JSON.parse(results.Get_Asset) as Array<Record<string, unknown>>;
		expect(asset).toMatchObject({
			id: drive.id,
			name: drive.name,
			serialNumber: drive.serialNumber,
		});

		const now = simulator.clock.now();
		const events = await direct.ranges.events({
			assetId: drive.id,
			startTime: new Date(now - 45 * DAY),
			endTime: new Date(now),
		});
		const eventAnswer = JSON.parse(results.Get_Events) as Array<Record<string, unknown>>;
		if (events.length > 20) {
			expect(eventAnswer).toHaveLength(1);
			expect(eventAnswer[0].total).toBe(events.length);
			expect(eventAnswer[0].entries).toHaveLength(20);
		} else {
			expect(eventAnswer.map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
		}

		const conditions = await direct.assetData.getConditions({ assetId: drive.id });
		const healthAnswer = JSON.parse(results.Get_Health) as Array<Record<string, unknown>>;
		expect(healthAnswer).toHaveLength(conditions.length);
		expect(healthAnswer.length).toBeGreaterThan(0);
		for (const condition of conditions)
			expect(healthAnswer).toContainEqual(
				expect.objectContaining({ assetId: drive.id, ...condition }),
			);

		const cbm = await direct.assetData.getCbm({ assetId: drive.id });
		const cbmAnswer = JSON.parse(results.Get_CBM_Results) as Array<Record<string, unknown>>;
		expect(cbmAnswer.map((c) => c.deviceUnitType).sort()).toEqual(
			cbm.map((c) => c.deviceUnitType).sort(),
		);

		const trendAnswer = JSON.parse(results.Get_Trend_Data) as Array<Record<string, unknown>>;
		expect(trendAnswer.map((t) => t.code)).toEqual(trendCodes);
		for (const series of trendAnswer) {
			expect(series).toEqual(
				expect.objectContaining({
					min: expect.any(Number),
					max: expect.any(Number),
					mean: expect.any(Number),
				}),
			);
			expect((series.series as { bucketMeans: unknown[] }).bucketMeans.length).toBeLessThanOrEqual(
				100,
			);
		}
	});
});

describe("a model's badly formed parameters", () => {
	test('wrong types and a date in words come back to the model as errors it can act on; the execution ends', async () => {
		model.play(
			[
				{
					toolCalls: [
						{
							name: 'Get_Events',
							arguments: { assetId: drive.id, startTime: 'two weeks ago', endTime: 'now' },
						},
					],
				},
				{ toolCalls: [{ name: 'Get_Health', arguments: { assetId: 'pump three' } }] },
				{ toolCalls: [{ name: 'Get_Asset', arguments: { assetId: -3 } }] },
			],
			'I need an ISO date and the numeric asset ID.',
		);
		const start = model.requests.length;
		const runData = await execute(workflows.badInput);
		expect(agentAnswer(runData)).toBe('I need an ISO date and the numeric asset ID.');
		const requests = model.requests.slice(start);
		expect(requests).toHaveLength(4);
		const results = requests[3].toolResults;
		const byName = (name: string) => {
			const found = results.find((r) => r.name === name);
			if (!found) throw new Error(`no tool result for ${name}: ${JSON.stringify(results)}`);
			return found.output;
		};
		expect(byName('Get_Events')).toMatch(
			/Start Time: \\?"two weeks ago\\?" is not a date; send an ISO 8601 date-time such as \d{4}-/,
		);
		// Asset fields take an ID or a name: a name that matches nothing says what to send instead.
		expect(byName('Get_Health')).toMatch(
			/Asset \\?"pump three\\?" matches no asset these credentials can see\. Send an id or a name/,
		);
		expect(byName('Get_Asset')).toMatch(
			/Asset \\?"-3\\?" matches no asset these credentials can see\. Send an id or a name/,
		);
		for (const result of results)
			expect(Buffer.byteLength(result.output)).toBeLessThanOrEqual(BOUND);
	});
});

describe('Chat Completions ("Use Responses API" off)', () => {
	test('the same tools, and the tool answer comes back as a tool message', async () => {
		model.play(
			[{ toolCalls: [{ name: 'Get_Health', arguments: { assetId: drive.id } }] }],
			'Healthy.',
		);
		const start = model.requests.length;
		const runData = await execute(workflows.chat);
		expect(agentAnswer(runData)).toBe('Healthy.');
		const requests = model.requests.slice(start);
		expect(requests.map((r) => r.api)).toEqual(['chat', 'chat']);
		expect(requests[0].tools.map((t) => t.name).sort()).toEqual([
			'Get_Asset',
			'Get_CBM_Results',
			'Get_Events',
			'Get_Health',
			'Get_Trend_Data',
		]);
		const [result] = requests[1].toolResults;
		expect(result.name).toBe('Get_Health');
		const conditions = await direct.assetData.getConditions({ assetId: drive.id });
		expect((JSON.parse(result.output) as unknown[]).length).toBe(conditions.length);
	});
});
