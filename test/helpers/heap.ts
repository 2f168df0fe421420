/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { getHeapSnapshot } from 'node:v8';

interface HeapSnapshot {
	snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
	nodes: number[];
	strings: string[];
}

/**
 * How many objects of a constructor are alive: a heap snapshot, which V8 takes after a full
 * garbage collection, counted by name (v8.queryObjects does the same but prints an
 * ExperimentalWarning, which the suites refuse).
 */
export async function liveObjects(constructorName: string): Promise<number> {
	const chunks: string[] = [];
	for await (const chunk of getHeapSnapshot()) chunks.push(String(chunk));
	const snap = JSON.parse(chunks.join('')) as HeapSnapshot;
	const fields = snap.snapshot.meta.node_fields;
	const types = snap.snapshot.meta.node_types[0];
	const [typeAt, nameAt] = [fields.indexOf('type'), fields.indexOf('name')];
	let count = 0;
	for (let i = 0; i < snap.nodes.length; i += fields.length) {
		if (
			types[snap.nodes[i + typeAt]] === 'object' &&
			snap.strings[snap.nodes[i + nameAt]] === constructorName
		)
			count++;
	}
	return count;
}
