/* eslint-disable @typescript-eslint/no-unused-vars -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Shared setup of the core's integration tests: the simulator over real HTTP, and clients of it.
import { startSimulator, type Simulator, type SimulatorOptions } from '../../simulator';
import {
	createClient,
	TokenCache,
	type ApiCredentials,
	type ClientOptions,
	type DriveMonitoringClient,
} from '../../shared';

export interface Harness {
	sim: Simulator;
	/** A client for the organization of `orgType` (default EU), with its own token cache unless given. */
	client(
		options?: Partial<ClientOptions> & { orgType?: 'VENDOR' | 'CP' | 'EU' },
	): DriveMonitoringClient;
	credentials(
		orgType?: 'VENDOR' | 'CP' | 'EU',
	): ApiCredentials & { baseUrl: string; orgId: number };
	close(): Promise<void>;
}

export async function startHarness(options: SimulatorOptions = {}): Promise<Harness> {
	const sim = await startSimulator({ push: false, ...options });
	const clients: DriveMonitoringClient[] = [];
	const credentials: Harness['credentials'] = (orgType = 'EU') => {
		const credential = sim.info.credentials.find((c) => c.orgType === orgType);
		if (!credential) throw new Error(`the simulator has no ${orgType} organization`);
		return {
			baseUrl: sim.info.baseUrl,
			authUrl: sim.info.authUrl,
			tenantId: sim.info.tenantId,
			apiScopeId: sim.info.apiScopeId,
			apiKey: credential.apiKey,
			apiSecret: credential.apiSecret,
			orgId: credential.orgId,
		};
	};
	return {
		sim,
		credentials,
		client({ orgType, ...options } = {}) {
			const { orgId: _orgId, ...creds } = credentials(orgType);
			const client = createClient({
				...creds,
				tokenCache: new TokenCache(),
				retry: { baseDelayMs: 5, maxDelayMs: 50 },
				...options,
			});
			clients.push(client);
			return client;
		},
		async close() {
			await Promise.all(clients.map((c) => c.close()));
			await sim.close();
		},
	};
}

/** A harness with one EU client whose token is already cached, and that organization's id. */
export async function startEuHarness(
	options: SimulatorOptions = {},
): Promise<{ h: Harness; client: DriveMonitoringClient; orgId: number }> {
	const h = await startHarness(options);
	const client = h.client();
	await client.accessToken();
	return { h, client, orgId: h.credentials().orgId };
}
