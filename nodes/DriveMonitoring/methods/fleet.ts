// What the pickers show: every organization, asset group, plant and asset the credentials can
// see, composed from E1, E2 and E3 (the API has no "search" endpoint).
import type { Asset, OrganizationNode } from '../../../shared/schemas';
import type { DriveMonitoringClient } from '../transport';
import { withMembers } from '../helpers/assets';

export interface OrgEntry {
	id: number;
	name: string;
	type: string;
}

/** The caller's organization and everything below it, depth first. */
export function organizationsOf(tree: OrganizationNode): OrgEntry[] {
	const self = {
		id: tree.orgId,
		name: tree.orgName ?? String(tree.orgId),
		type: tree.orgType ?? '',
	};
	return [self, ...tree.subOrgs.flatMap(organizationsOf)];
}

export function groupsOf(
	tree: OrganizationNode,
): Array<{ id: number; name: string; org: OrgEntry }> {
	const [org] = organizationsOf(tree);
	return [
		...tree.assetGroups.map((g) => ({ id: g.id, name: g.name ?? String(g.id), org })),
		...tree.subOrgs.flatMap(groupsOf),
	];
}

export function plantsOf(
	tree: OrganizationNode,
): Array<{ id: number; name: string; org: OrgEntry }> {
	const [org] = organizationsOf(tree);
	return [
		...tree.plants.map((p) => ({ id: p.id, name: p.name ?? String(p.id), org })),
		...tree.subOrgs.flatMap(plantsOf),
	];
}

/** Every asset of every end-user organization in view; a PowerTrain's drive and motor are listed too. */
export async function allAssets(client: DriveMonitoringClient): Promise<Asset[]> {
	const tree = await client.organization.getNodes();
	const endUsers = organizationsOf(tree).filter((org) => org.type === 'EU');
	const lists = await Promise.all(
		endUsers.map(async (org) => await client.organization.listAssets({ orgId: org.id })),
	);
	return withMembers(lists.flat());
}

export function assetLabel(asset: Asset): string {
	return `${asset.name ?? asset.id} · ${asset.serialNumber ?? 'no serial'} (${asset.assetType})`;
}

/** Case-insensitive match on any of the given texts; an empty filter matches everything. */
export function matches(
	filter: string | undefined,
	...texts: Array<string | number | null | undefined>
): boolean {
	const needle = (filter ?? '').trim().toLowerCase();
	return (
		needle === '' ||
		texts.some((text) =>
			String(text ?? '')
				.toLowerCase()
				.includes(needle),
		)
	);
}
