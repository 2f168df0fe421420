// What names are resolved against: the organizations, asset groups and assets the credentials can
// see, read through the existing endpoints (E2 once, E3 per end-user organization). Read at most
// once per client, and a node builds one client per execution: one lookup serves every item.
import type { DriveMonitoringClient } from '../client';
import type { Asset, OrganizationNode } from '../schemas';
import { ambiguityMessage, resolveName, unknownMessage, type Kind, type Named } from './match';

export type TargetKind = 'asset' | 'assetGroup' | 'organization';

const KIND: Record<TargetKind, { label: Kind; listHint: string }> = {
	asset: { label: 'Asset', listHint: 'list them with Asset > Get Many in Organization' },
	assetGroup: { label: 'Asset group', listHint: 'list them with Organization > Get Tree' },
	organization: { label: 'Organization', listHint: 'list them with Organization > Get Tree' },
};

interface Directory {
	organization: Named[];
	assetGroup: Named[];
	asset: Named[];
}

const directories = new WeakMap<DriveMonitoringClient, Promise<Directory>>();
const treeOnly = new WeakMap<DriveMonitoringClient, Promise<OrganizationNode>>();

function treeOf(client: DriveMonitoringClient): Promise<OrganizationNode> {
	let tree = treeOnly.get(client);
	if (!tree) {
		tree = client.organization.getNodes();
		treeOnly.set(client, tree);
	}
	return tree;
}

function flatten(tree: OrganizationNode): Array<{ node: OrganizationNode; path: string }> {
	const walk = (
		node: OrganizationNode,
		parent: string,
	): Array<{ node: OrganizationNode; path: string }> => {
		const path = parent
			? `${parent} / ${node.orgName ?? node.orgId}`
			: String(node.orgName ?? node.orgId);
		return [{ node, path }, ...node.subOrgs.flatMap((sub) => walk(sub, path))];
	};
	return walk(tree, '');
}

function assetsWithMembers(assets: Asset[]): Asset[] {
	return assets.flatMap((asset) => [asset, ...(asset.subAssets ?? [])]);
}

async function directoryOf(client: DriveMonitoringClient, needAssets: boolean): Promise<Directory> {
	const orgs = flatten(await treeOf(client));
	const organization = orgs.map(({ node, path }) => ({
		id: node.orgId,
		name: node.orgName,
		place: `organization ${path}`,
	}));
	const assetGroup = orgs.flatMap(({ node, path }) =>
		node.assetGroups.map((group) => ({
			id: group.id,
			name: group.name,
			place: `organization ${path}`,
		})),
	);
	if (!needAssets) return { organization, assetGroup, asset: [] };
	let cached = directories.get(client);
	if (!cached) {
		cached = (async () => {
			const endUsers = orgs.filter(({ node }) => node.orgType === 'EU');
			const lists = await Promise.all(
				endUsers.map(
					async ({ node }) => await client.organization.listAssets({ orgId: node.orgId }),
				),
			);
			const seen = new Set<number>();
			const asset = assetsWithMembers(lists.flat())
				.filter((item) => !seen.has(item.id) && seen.add(item.id))
				.map((item) => ({
					id: item.id,
					name: item.name,
					serialNumber: item.serialNumber,
					place: [
						item.assetGroupName && `group ${item.assetGroupName}`,
						item.organizationName && `organization ${item.organizationName}`,
					]
						.filter(Boolean)
						.join(', '),
				}));
			return { organization, assetGroup, asset };
		})();
		directories.set(client, cached);
	}
	return await cached;
}

/**
 * The id behind what a user or model typed: a positive whole number is taken as the id with no
 * request; anything else is a name (or serial) resolved against what the credentials can see.
 * Unless exactly one target matches, the answer is a refusal that says what to send instead.
 */
export async function resolveTarget(
	client: DriveMonitoringClient,
	kind: TargetKind,
	typed: string,
): Promise<{ id: number } | { refusal: string }> {
	const text = typed.trim();
	if (/^[0-9]+$/.test(text) && Number(text) >= 1 && Number.isSafeInteger(Number(text)))
		return { id: Number(text) };
	const directory = await directoryOf(client, kind === 'asset');
	const result = resolveName(text, directory[kind]);
	const { label, listHint } = KIND[kind];
	if (result.kind === 'one') return { id: result.target.id };
	if (result.kind === 'ambiguous')
		return { refusal: ambiguityMessage(label, text, result.candidates, result.total) };
	return { refusal: unknownMessage(label, text, listHint) };
}
