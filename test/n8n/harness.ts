/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-unused-vars -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// What the real-n8n test files share: the state global-setup leaves, the simulator as a child
// process, workflow and credential import, and reading `n8n execute --rawOutput`.
import fs from 'node:fs';
import path from 'node:path';

import { REPO_ROOT, type InstalledPack } from '../../scripts/n8n/install-pack';
import { n8nCommand, type N8nInstance } from '../../scripts/n8n/instance';
import type { Simulator, SimulatorCredential, SimulatorInfo } from '../../simulator';

export const ARTIFACTS = path.join(REPO_ROOT, 'artifacts', 'n8n');
export const STATE_FILE = path.join(ARTIFACTS, 'state.json');
export const WORKFLOWS_DIR = path.join(REPO_ROOT, 'test', 'n8n', 'workflows');
export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

export interface E2eState {
	instance: N8nInstance;
	pack: InstalledPack;
	/** the push companion, n8n-nodes-drive-monitoring-push */
	push: InstalledPack;
	/** what <user folder>/.n8n/nodes/node_modules held after the pack alone was installed */
	afterPackInstall: string[];
	timings: { runtimeMs: number; packInstallMs: number };
}

export function readState(): E2eState {
	return JSON.parse(fs.readFileSync(STATE_FILE, 'utf8')) as E2eState;
}

/** The credential an EU organization of the simulator would type into n8n. */
export function driveMonitoringCredentialData(
	info: SimulatorInfo,
	orgType: SimulatorCredential['orgType'] = 'EU',
) {
	const org = info.credentials.find((credential) => credential.orgType === orgType);
	if (!org)
		throw new Error(
			`the simulator offers no ${orgType} organization: ${JSON.stringify(info.credentials.map((c) => c.orgType))}`,
		);
	return {
		baseUrl: info.baseUrl,
		authUrl: info.authUrl,
		tenantId: info.tenantId,
		apiKey: org.apiKey,
		apiSecret: org.apiSecret,
		apiScopeId: info.apiScopeId,
	};
}

/**
 * Imports one credential with a fixed id (what `n8n import:credentials` takes: the data in clear,
 * which n8n encrypts with the instance's key).
 */
export async function importCredential(
	instance: N8nInstance,
	credential: { id: string; name: string; type: string; data: Record<string, unknown> },
): Promise<void> {
	const file = path.join(ARTIFACTS, 'import', `credential-${credential.id}.json`);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, JSON.stringify([credential], null, 2));
	await n8nCommand(instance, ['import:credentials', `--input=${file}`]);
}

export interface WorkflowNode {
	name: string;
	type: string;
	typeVersion?: number;
	position?: [number, number];
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	disabled?: boolean;
	onError?: string;
	[key: string]: unknown;
}

/** by source node, then by connection type (main, ai_tool, ai_languageModel, …) */
type Connections = Record<
	string,
	Record<string, Array<Array<{ node: string; type: string; index: number }>>>
>;

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Connections;
	[key: string]: unknown;
}

/**
 * An example as a user would set it up to try it by hand: a Manual Trigger beside its schedule
 * (`n8n execute` starts only from a Manual Trigger), the organization and the assets picked where
 * the example leaves them empty, and the nodes that reach services outside this machine (Slack,
 * email) deactivated, which n8n passes data through.
 */
export function runnableExample(
	example: WorkflowJson,
	id: string,
	picks: { orgId: number; assetIds: number[] },
): WorkflowJson {
	const workflow = JSON.parse(JSON.stringify(example)) as WorkflowJson;
	workflow.id = id;
	const manual: WorkflowNode = {
		name: 'Run From Test',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, -200],
		parameters: {},
	};
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.scheduleTrigger' && workflow.connections[node.name]) {
			workflow.connections[manual.name] = JSON.parse(
				JSON.stringify(workflow.connections[node.name]),
			);
		}
		const foreign = Object.keys(node.credentials ?? {}).some(
			(type) => type !== 'driveMonitoringApi',
		);
		if (foreign) node.disabled = true;
		const organization = node.parameters?.organization as { value?: unknown } | undefined;
		if (organization && organization.value === '')
			node.parameters!.organization = { __rl: true, mode: 'id', value: String(picks.orgId) };
		const assetIds = node.parameters?.assetIds as unknown[] | undefined;
		if (Array.isArray(assetIds) && assetIds.length === 0)
			node.parameters!.assetIds = picks.assetIds.map(String);
	}
	if (!workflow.connections[manual.name])
		throw new Error(`example "${example.name}" has no schedule trigger to run from`);
	workflow.nodes.push(manual);
	return workflow;
}

/** Imports workflows, pointing every Drive Monitoring credential slot at the given credential. */
export async function importWorkflows(
	instance: N8nInstance,
	workflows: WorkflowJson[],
	credentials: Record<string, { id: string; name: string }>,
): Promise<void> {
	const dir = path.join(ARTIFACTS, 'import', 'workflows');
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	workflows.forEach((workflow, index) => {
		for (const node of workflow.nodes) {
			for (const slot of Object.keys(node.credentials ?? {})) {
				if (credentials[slot]) node.credentials![slot] = credentials[slot];
			}
		}
		const { file: _file, ...importable } = workflow as WorkflowJson & { file?: string };
		fs.writeFileSync(path.join(dir, `${index}.json`), JSON.stringify(importable, null, 2));
	});
	await n8nCommand(instance, ['import:workflow', '--separate', `--input=${dir}`]);
}

export function readWorkflows(dir: string): Array<WorkflowJson & { file: string }> {
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({
			...(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as WorkflowJson),
			file,
		}));
}

/** n8n reports a community package it cannot load on its console and goes on without it. */
export function expectPackLoaded(
	n8nOutput: string,
	packageName = 'n8n-nodes-drive-monitoring',
): void {
	const failure = n8nOutput.indexOf(`Failed to load package "${packageName}"`);
	if (failure >= 0)
		throw new Error(`n8n could not load the pack:\n${n8nOutput.slice(failure, failure + 1500)}`);
}

/**
 * The run data `n8n execute --rawOutput` prints: a pretty-printed JSON object, possibly after
 * n8n's own log lines. Tries each line that closes an object until one parses.
 */
export function parsePrintedJson(stdout: string): unknown {
	const lines = stdout.split('\n');
	const start = lines.findIndex((line) => line === '{');
	if (start < 0) throw new Error(`no JSON object in n8n's output:\n${stdout.slice(-3000)}`);
	for (let end = start + 1; end < lines.length; end++) {
		if (lines[end] !== '}') continue;
		try {
			return JSON.parse(lines.slice(start, end + 1).join('\n'));
		} catch {
			// a nested line, keep going
		}
	}
	throw new Error(`unterminated JSON object in n8n's output:\n${stdout.slice(-3000)}`);
}

/** Values the test workflows name as %placeholder%, taken from the simulator's seeded fleet. */
export function fixtures(sim: Simulator, orgId: number): Record<string, string> {
	const org = sim.fleet.orgs().find((o) => o.id === orgId)!;
	const assets = sim.fleet.assets().filter((a) => a.orgId === orgId);
	const find = (what: string, test: (a: (typeof assets)[number]) => boolean) => {
		const asset = assets.find(test);
		if (!asset) throw new Error(`the simulator's organization ${orgId} has no ${what}`);
		return String(asset.id);
	};
	const code = sim.info.subscriptionCodes.find(
		(c) => c.assetType === 'Drive' && c.level === 'Standard',
	);
	if (!code || sim.info.registrySerialNumbers.length === 0)
		throw new Error('the simulator offers no free subscription code or serial number');
	return {
		orgId: String(orgId),
		groupId: String(org.groupIds[0]),
		plantId: String(org.plantIds[0]),
		premiumDriveId: find(
			'old enough IOT Panel Premium drive with CBM',
			(a) =>
				a.assetType === 'Drive' &&
				a.level === 'Premium' &&
				a.gatewayType === 'IOTPanel' &&
				a.cbmCapable,
		),
		standardDriveId: find(
			'Standard drive',
			(a) => a.assetType === 'Drive' && a.level === 'Standard',
		),
		entryDriveId: find('Entry drive', (a) => a.assetType === 'Drive' && a.level === 'Entry'),
		registrySerialNumber: sim.info.registrySerialNumbers[0],
		driveSubscriptionCode: code.code,
		runTag: String(Date.now() % 100000),
	};
}

export function fill(workflow: WorkflowJson, values: Record<string, string>): WorkflowJson {
	const text = JSON.stringify(workflow).replace(/%([A-Za-z]+)%/g, (match, name: string) => {
		if (!(name in values))
			throw new Error(`workflow "${workflow.name}" names an unknown fixture ${match}`);
		return values[name];
	});
	return JSON.parse(text) as WorkflowJson;
}
