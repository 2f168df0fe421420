// One simulator and one n8n engine per test file, with the credentials a user would create and
// the assets the tests act on, picked from the seeded fleet by kind.
import type { ICredentialDataDecryptedObject, INodeType } from 'n8n-workflow';
import {
	startSimulator,
	type AssetSummary,
	type Simulator,
	type SimulatorOptions,
} from '../../simulator';
import { createClient, type DriveMonitoringClient } from '../../shared';
import { N8nTestEngine } from '../helpers/n8n/engine';

export const NODE_TYPE = 'n8n-nodes-drive-monitoring.driveMonitoring';
export const TOOL_TYPE = `${NODE_TYPE}Tool`;

/** What n8n does for usableAsTool: the same node under the name + 'Tool', which the node can tell it runs as. */
export function addToolType(engine: N8nTestEngine): void {
	const node = engine.pack.nodes.get(NODE_TYPE) as INodeType;
	const tool: INodeType = Object.assign(
		Object.create(Object.getPrototypeOf(node) as object) as INodeType,
		node,
		{
			description: { ...node.description, name: `${node.description.name}Tool` },
		},
	);
	engine.pack.nodes.set(TOOL_TYPE, tool);
}

export interface Fixture {
	sim: Simulator;
	engine: N8nTestEngine;
	/** Credential data of the end-user organization the tests use. */
	euCredential: ICredentialDataDecryptedObject;
	euOrgId: number;
	/** The core client straight to the simulator, for looking up test data (not under test). */
	direct: DriveMonitoringClient;
	/** An asset of the end-user organization matching the predicate. */
	asset(predicate: (a: AssetSummary) => boolean, what: string): AssetSummary;
	close(): Promise<void>;
}

export async function startFixture(options: SimulatorOptions = {}): Promise<Fixture> {
	const sim = await startSimulator({ push: false, reportGenerationMs: 300, ...options });
	const engine = new N8nTestEngine();
	const assets = sim.fleet.assets();
	// The end-user organization with the most assets: every kind the tests need lives there.
	const euOrgs = sim.info.credentials.filter((c) => c.orgType === 'EU');
	const eu = euOrgs
		.map((c) => ({ c, count: assets.filter((a) => a.orgId === c.orgId).length }))
		.sort((a, b) => b.count - a.count)[0].c;
	const euCredential = credentialData(sim, eu.apiKey, eu.apiSecret);
	engine.addCredential({
		id: 'eu',
		name: 'Drive Monitoring (end user)',
		type: 'driveMonitoringApi',
		data: euCredential,
	});
	const direct = createClient({
		...(euCredential as Record<string, string>),
		baseUrl: sim.info.baseUrl,
		retry: false,
	});
	return {
		sim,
		engine,
		euCredential,
		euOrgId: eu.orgId,
		direct,
		asset(predicate, what) {
			const found = sim.fleet.assets().find((a) => a.orgId === eu.orgId && predicate(a));
			if (!found) throw new Error(`the seeded fleet has no ${what} in organization ${eu.orgId}`);
			return found;
		},
		close: async () => await sim.close(),
	};
}

export function credentialData(
	sim: Simulator,
	apiKey: string,
	apiSecret: string,
): ICredentialDataDecryptedObject {
	return {
		baseUrl: sim.info.baseUrl,
		authUrl: sim.info.authUrl,
		tenantId: sim.info.tenantId,
		apiKey,
		apiSecret,
		apiScopeId: sim.info.apiScopeId,
	};
}
