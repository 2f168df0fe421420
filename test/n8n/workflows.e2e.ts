/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Workflows run by n8n's own command line (`n8n execute --id --rawOutput`) with the pack
// installed as a community package, against the simulator over HTTP: the examples in examples/
// and the test workflows in test/n8n/workflows/, which together use every operation of the
// Drive Monitoring node at least once.
import fs from 'node:fs';
import path from 'node:path';

import { startSimulator, type Simulator } from '../../simulator';
import { REPO_ROOT } from '../../scripts/n8n/install-pack';
import { n8nCommand } from '../../scripts/n8n/instance';
import {
	ARTIFACTS,
	EXAMPLES_DIR,
	WORKFLOWS_DIR,
	driveMonitoringCredentialData,
	expectPackLoaded,
	fill,
	fixtures,
	importCredential,
	importWorkflows,
	parsePrintedJson,
	readState,
	readWorkflows,
	runnableExample,
	type WorkflowJson,
} from './harness';

const NODE_TYPE = 'n8n-nodes-drive-monitoring.driveMonitoring';
const CREDENTIAL = { id: 'dmE2eCredential1', name: 'Drive Monitoring (simulator)' };

const state = readState();
const testWorkflows = readWorkflows(WORKFLOWS_DIR);
const failingWorkflows = readWorkflows(path.join(WORKFLOWS_DIR, 'failing'));
const examples = readWorkflows(EXAMPLES_DIR).map((example) => ({
	...example,
	id: `ex-${example.file.replace(/\.json$/, '')}`.slice(0, 21),
}));
let simulator: Simulator;
let workflows: WorkflowJson[];
let values: Record<string, string>;

interface StoredBinary {
	id: string;
	fileName: string;
	mimeType: string;
	bytes: number;
}
interface NodeRun {
	error?: { message: string; description?: string };
	data?: {
		main: Array<Array<{
			json: Record<string, unknown>;
			binary?: Record<string, StoredBinary>;
		}> | null>;
	};
}
type RunData = Record<string, NodeRun[]>;
interface PrintedRun {
	data: { resultData: { runData: RunData } };
}

const runs = new Map<string, RunData>();

/** `n8n execute --id --rawOutput`; n8n's output is kept as an artifact. */
async function executeCommand(workflow: WorkflowJson) {
	const result = await n8nCommand(
		state.instance,
		['execute', `--id=${workflow.id}`, '--rawOutput'],
		{ allowFailure: true },
	);
	const output = `${result.stdout}\n${result.stderr}`;
	fs.writeFileSync(path.join(ARTIFACTS, 'executions', `${workflow.id}.log`), output);
	expectPackLoaded(output);
	return { ...result, output };
}

/** Executes an imported workflow that should succeed and returns its run data. */
async function execute(workflow: WorkflowJson): Promise<RunData> {
	const { code, output, stdout } = await executeCommand(workflow);
	if (code !== 0)
		throw new Error(`n8n execute --id=${workflow.id} exited with ${code}:\n${output.slice(-4000)}`);
	const runData = (parsePrintedJson(stdout) as PrintedRun).data.resultData.runData;
	runs.set(workflow.id!, runData);
	return runData;
}

/** The bytes of a binary that n8n keeps in its file-system store (N8N_DEFAULT_BINARY_DATA_MODE). */
function storedBinary(id: string): Buffer {
	const [mode, key] = id.split(/:(.*)/s);
	expect(mode).toBe('filesystem-v2');
	return fs.readFileSync(path.join(state.instance.userFolder, '.n8n', 'storage', key));
}

function itemsOf(runData: RunData, nodeName: string) {
	const run = runData[nodeName]?.[0];
	if (!run)
		throw new Error(`node "${nodeName}" did not run; ran: ${Object.keys(runData).join(', ')}`);
	if (run.error)
		throw new Error(
			`node "${nodeName}" failed: ${run.error.message} ${run.error.description ?? ''}`,
		);
	return run.data?.main[0] ?? [];
}

beforeAll(async () => {
	fs.mkdirSync(path.join(ARTIFACTS, 'executions'), { recursive: true });
	simulator = await startSimulator({ push: false, reportGenerationMs: 1_000 });
	const credentialData = driveMonitoringCredentialData(simulator.info);
	const orgId = simulator.info.credentials.find((c) => c.apiKey === credentialData.apiKey)!.orgId;
	await importCredential(state.instance, {
		...CREDENTIAL,
		type: 'driveMonitoringApi',
		data: credentialData,
	});

	values = fixtures(simulator, orgId);
	workflows = [
		...examples.map((example) =>
			runnableExample(example, example.id, {
				orgId,
				assetIds: [Number(values.premiumDriveId), Number(values.standardDriveId)],
			}),
		),
		...[...testWorkflows, ...failingWorkflows].map((workflow) => fill(workflow, values)),
	];
	await importWorkflows(state.instance, workflows, { driveMonitoringApi: CREDENTIAL });
});

afterAll(async () => {
	await simulator?.close();
});

describe('workflows executed by the n8n command line', () => {
	it('found the examples and the test workflows', () => {
		expect(examples.length).toBeGreaterThan(0);
		expect(testWorkflows.length).toBeGreaterThan(0);
	});

	it.each(examples.map((w) => [w.file, w.id]))(
		'runs the example %s: every Drive Monitoring node succeeds',
		async (file, id) => {
			const workflow = workflows.find((w) => w.id === id)!;
			if (file === 'new-faults-to-chat.json') {
				// A drive faults a moment before the run, as the example's five-minute schedule expects.
				simulator.control.raiseEvent(Number(values.premiumDriveId), {
					eventType: 'Fault',
					eventCode: '2310',
					content: 'Overcurrent (2310)',
				});
			}
			const runData = await execute(workflow);
			for (const node of workflow.nodes.filter((n) => n.type === NODE_TYPE)) {
				expect(runData[node.name]?.[0]?.error).toBeUndefined();
				expect(runData[node.name]).toBeDefined();
			}
		},
	);

	it.each(testWorkflows.map((w) => [w.id!, w.name]))(
		'runs %s (%s): every node succeeds',
		async (id) => {
			const workflow = workflows.find((w) => w.id === id)!;
			const runData = await execute(workflow);
			for (const node of workflow.nodes.filter((n) => n.type === NODE_TYPE && !('onError' in n))) {
				expect(itemsOf(runData, node.name).length).toBeGreaterThan(0);
			}
		},
	);
});

describe('what the runs show', () => {
	const run = (id: string) => {
		const data = runs.get(id);
		if (!data) throw new Error(`workflow ${id} has not run`);
		return data;
	};

	it('downloads binary files: an event logger file and a report, stored by n8n as received', () => {
		for (const [id, node, property] of [
			['e2eAssetData', 'Get Event Logger File', 'data'],
			['e2eReports', 'Create Report', 'report'],
			['e2eReports', 'Download Report', 'data'],
		]) {
			const [item] = itemsOf(run(id), node);
			const binary = item.binary?.[property];
			expect(binary).toEqual(
				expect.objectContaining({
					fileName: expect.any(String),
					mimeType: expect.any(String),
					id: expect.any(String),
				}),
			);
			if (!binary) return;
			const bytes = storedBinary(binary.id);
			expect(bytes.length).toBeGreaterThan(0);
			expect(bytes.length).toBe(binary.bytes);
			if (binary.mimeType === 'application/pdf')
				expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		}
	});

	it('shows what each example is for: the fault to post, the CBM spreadsheet, the fleet report PDF', () => {
		const [fault] = itemsOf(run('ex-new-faults-to-chat'), 'New Faults');
		expect(fault?.json).toEqual(expect.objectContaining({ eventType: 'Fault', eventCode: '2310' }));
		// The Slack node is deactivated here; n8n still hands it the items it would post.
		expect(itemsOf(run('ex-new-faults-to-chat'), 'Post to Slack').length).toBeGreaterThan(0);

		const [sheet] = itemsOf(run('ex-cbm-results-to-spr'), 'Convert to Excel');
		expect(sheet.binary?.data?.fileName).toMatch(/\.xlsx$/);
		expect(storedBinary(sheet.binary!.data.id).subarray(0, 2).toString('latin1')).toBe('PK');

		const [report] = itemsOf(run('ex-weekly-fleet-repor'), 'Create Fleet Report');
		expect(storedBinary(report.binary!.data.id).subarray(0, 5).toString('latin1')).toBe('%PDF-');
	});

	it('surfaces a level-denied error with its explanation', () => {
		const [item] = itemsOf(run('e2eLevelDenied'), 'Get CBM Of Entry Drive');
		const error = item.json.error as string;
		expect(error).toEqual(expect.any(String));
		const explained = `${error} ${item.json.description ?? ''} ${JSON.stringify(item.json)}`;
		expect(explained).toMatch(/102403|subscription level/i);
		expect(explained).toMatch(/Entry/);
	});

	it('stops a workflow on a level-denied error and prints the explanation on the command line', async () => {
		const workflow = workflows.find((w) => w.id === 'e2eLevelDeniedStops')!;
		const { code, output } = await executeCommand(workflow);
		expect(code).not.toBe(0);
		// The explanation names the asset's level and the levels the function needs.
		expect(output).toContain('102403');
		expect(output).toMatch(/\bEntry\b/);
		expect(output).toMatch(/\bStandard\b/);
	});

	it('used every operation of every resource at least once', () => {
		// The node's own description says which operations exist; the runs say which succeeded.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { DriveMonitoring } = require(
			path.join(REPO_ROOT, 'dist', 'nodes', 'DriveMonitoring', 'DriveMonitoring.node.js'),
		);
		const properties = new DriveMonitoring().description.properties as Array<{
			name: string;
			options?: Array<{ value: string }>;
			displayOptions?: { show?: { resource?: string[] } };
		}>;
		const all = properties
			.filter((p) => p.name === 'operation')
			.flatMap((p) => p.options!.map((o) => `${p.displayOptions?.show?.resource?.[0]}.${o.value}`))
			.sort();
		const used = new Set<string>();
		for (const workflow of workflows) {
			const runData = runs.get(workflow.id!);
			for (const node of workflow.nodes.filter((n) => n.type === NODE_TYPE)) {
				const nodeRun = runData?.[node.name]?.[0];
				if (nodeRun && !nodeRun.error && !('onError' in node))
					used.add(`${node.parameters!.resource}.${node.parameters!.operation}`);
			}
		}
		expect(all.length).toBeGreaterThanOrEqual(30);
		expect(all.filter((op) => !used.has(op))).toEqual([]);
	});
});
