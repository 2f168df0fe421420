/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a benchmark program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The Drive Monitoring node in n8n's engine against the same calls through the core directly,
// same run, same simulator: 1,000 items of Asset > Get in one execution versus the same 1,000
// `client.assets.get` calls with the same number in flight (the node runs read-only operations
// Options > Parallel Requests items at a time, DEFAULT_PARALLEL_REQUESTS unless set).
// Target: node overhead under 1 ms per item. Reproduce: `npm run bench -- nodes`
// (results in bench/results/latest.md).
import { DEFAULT_PARALLEL_REQUESTS as READ_CONCURRENCY } from '../../nodes/DriveMonitoring/actions/common';
import { createClient, TokenCache } from '../../shared';
import { mapLimit } from '../../shared/core/limiter';
import { startSimulator } from '../../simulator';
import { N8nTestEngine } from '../../test/helpers/n8n/engine';
import type { BenchSuite, Figure } from '../suite';

const ITEMS = 1000;
const ROUNDS = 3;
const TARGET_MS_PER_ITEM = 1;

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
	const started = process.hrtime.bigint();
	await fn();
	return Number(process.hrtime.bigint() - started) / 1e6;
}

const suite: BenchSuite = {
	name: 'nodes',
	async run() {
		const sim = await startSimulator({ push: false });
		try {
			const eu = sim.info.credentials.find((c) => c.orgType === 'EU')!;
			const credentials = {
				baseUrl: sim.info.baseUrl,
				authUrl: sim.info.authUrl,
				tenantId: sim.info.tenantId,
				apiScopeId: sim.info.apiScopeId,
				apiKey: eu.apiKey,
				apiSecret: eu.apiSecret,
			};
			const assets = sim.fleet
				.assets()
				.filter((a) => a.orgId === eu.orgId && a.assetType !== 'PowerTrain');
			const ids = Array.from({ length: ITEMS }, (_, i) => assets[i % assets.length].id);

			const engine = new N8nTestEngine();
			engine.addCredential({
				id: 'bench',
				name: 'bench',
				type: 'driveMonitoringApi',
				data: credentials,
			});
			const workflow = engine.readWorkflow('single-operation.json');
			workflow.nodes[1].credentials = { driveMonitoringApi: { id: 'bench', name: 'bench' } };
			const input = ids.map((assetId) => ({ json: { assetId } }));
			const viaNode = async () => {
				const result = await engine.run(workflow, { input });
				const output = result.output('Drive Monitoring');
				if (output?.length !== ITEMS)
					throw new Error(`the node returned ${output?.length} items, not ${ITEMS}`);
			};

			const client = createClient({
				...credentials,
				concurrency: READ_CONCURRENCY,
				tokenCache: new TokenCache(),
			});
			const viaCore = async () =>
				await mapLimit(ids, READ_CONCURRENCY, async (id) => await client.assets.get({ id }));

			// Warm both paths (token, connections, JIT), then alternate rounds so drift hits both alike.
			await viaNode();
			await viaCore();
			const nodeMs: number[] = [];
			const coreMs: number[] = [];
			for (let round = 0; round < ROUNDS; round++) {
				nodeMs.push(await timed(viaNode));
				coreMs.push(await timed(viaCore));
			}
			await client.close();

			const node = median(nodeMs);
			const core = median(coreMs);
			const overheadPerItem = (node - core) / ITEMS;
			const figures: Figure[] = [
				{
					name: `${ITEMS} items of Asset > Get through the node in n8n's engine (median of ${ROUNDS})`,
					value: `${node.toFixed(0)} ms (${(node / ITEMS).toFixed(2)} ms/item)`,
					baseline: `${core.toFixed(0)} ms via the core directly, ${READ_CONCURRENCY} in flight (${(core / ITEMS).toFixed(2)} ms/call)`,
					ratio: `${(node / core).toFixed(2)}x`,
				},
				{
					name: 'node overhead per item (node minus core, same run)',
					value: `${overheadPerItem.toFixed(3)} ms`,
					baseline: `${(core / ITEMS).toFixed(3)} ms per core call`,
					ratio: `${(overheadPerItem / (core / ITEMS)).toFixed(2)}x a core call`,
					target: `< ${TARGET_MS_PER_ITEM} ms`,
					met: overheadPerItem < TARGET_MS_PER_ITEM,
				},
			];
			return {
				name: 'nodes',
				description:
					"The Drive Monitoring node run by n8n-core's WorkflowExecute (built package, our credentials helper, n8n's httpRequestWithAuthentication) against the in-process simulator, versus the same calls through the core's own undici transport with the same number in flight. Both paths run in one process on 127.0.0.1.",
				figures,
			};
		} finally {
			await sim.close();
		}
	},
};

export default suite;
