/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Loads the BUILT node pack (dist/) the way n8n loads a community package: the files named in
// package.json's `n8n` section, types named `<package name>.<node name>`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type {
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

/** The repository root: the nearest folder up with package.json (also from dist/ when compiled for bench/). */
function findRoot(from: string): string {
	for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
		if (existsSync(path.join(dir, 'package.json'))) return dir;
	}
	throw new Error(`no package.json above ${from}`);
}

export const REPO_ROOT = findRoot(__dirname);

interface Manifest {
	name: string;
	n8n: { nodes: string[]; credentials: string[] };
}

/**
 * Stand-in for n8n-nodes-base's Manual Trigger (that package is not a dependency): it starts the
 * workflow with the items the test provides, as a pinned trigger output does in the editor.
 */
class ManualTrigger implements INodeType {
	description = {
		displayName: 'When clicking "Execute workflow"',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Starts the workflow with the test input',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

export interface LoadedPackage {
	packageName: string;
	nodeTypes: INodeTypes;
	nodes: Map<string, INodeType | IVersionedNodeType>;
	credentialTypes: Map<string, ICredentialType>;
}

function loadClass<T>(file: string): T {
	const absolute = path.join(REPO_ROOT, file);
	if (!existsSync(absolute)) throw new Error(`${file} is missing: run "npm run build" first`);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const exported = require(absolute) as Record<string, new () => T>;
	const className = path.basename(file).split('.')[0];
	const Class = exported[className];
	if (typeof Class !== 'function') throw new Error(`${file} does not export class ${className}`);
	return new Class();
}

/**
 * The packages this tree builds for n8n: the pack (root package.json) and the push companion
 * (n8n-push/package.json, whose dist/ paths were built into dist/n8n-push/).
 */
const PACKAGES = [
	{ manifest: 'package.json', builtFrom: 'dist/' },
	{ manifest: 'n8n-push/package.json', builtFrom: 'dist/n8n-push/' },
];

export function loadPackage(): LoadedPackage {
	const nodes = new Map<string, INodeType | IVersionedNodeType>();
	const credentialTypes = new Map<string, ICredentialType>();
	let packageName = '';
	for (const { manifest: manifestFile, builtFrom } of PACKAGES) {
		const manifest = JSON.parse(
			readFileSync(path.join(REPO_ROOT, manifestFile), 'utf8'),
		) as Manifest;
		packageName ||= manifest.name;
		const built = (file: string) => file.replace(/^dist\//, builtFrom);
		for (const file of manifest.n8n.nodes.map(built)) {
			if (!existsSync(path.join(REPO_ROOT, file))) continue; // a sibling node still being built
			const node = loadClass<INodeType | IVersionedNodeType>(file);
			nodes.set(`${manifest.name}.${node.description.name}`, node);
		}
		for (const file of manifest.n8n.credentials.map(built)) {
			if (!existsSync(path.join(REPO_ROOT, file))) continue;
			const credential = loadClass<ICredentialType>(file);
			credentialTypes.set(credential.name, credential);
		}
	}
	nodes.set('n8n-nodes-base.manualTrigger', new ManualTrigger());
	const nodeTypes: INodeTypes = {
		getByName: (name) => known(nodes, name),
		getByNameAndVersion: (name, version) =>
			NodeHelpers.getVersionedNodeType(known(nodes, name), version),
		getKnownTypes: () =>
			Object.fromEntries([...nodes.keys()].map((name) => [name, {}])) as IDataObject,
	};
	return { packageName, nodeTypes, nodes, credentialTypes };
}

function known<T>(map: Map<string, T>, name: string): T {
	const value = map.get(name);
	if (!value) throw new Error(`Unknown node type "${name}" (known: ${[...map.keys()].join(', ')})`);
	return value;
}
