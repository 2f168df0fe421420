// The organizations a credential sees, read from its organization tree (E2) in one walk: every
// organization once, which of them are end-user organizations (the ones that hold assets), and
// their asset groups and plants.
import type { OrganizationNode } from '../schemas/resources';

/** One organization of the tree. */
export interface FleetOrganization {
	id: number;
	name: string | null;
	/** OrgType as sent (VENDOR, CP, EU); null when the tree leaves it out. */
	type: string | null;
	/** The organization names from the credential's own organization down to this one. */
	path: string;
	/** An end-user organization: it holds assets, asset groups and plants (F1). */
	endUser: boolean;
}

/** An asset group or a plant, with the organization it belongs to. */
export interface FleetPlace {
	id: number;
	name: string | null;
	organization: FleetOrganization;
}

export interface OrganizationTree {
	root: OrganizationNode;
	/** Every organization in the tree once, depth first from the credential's own. */
	organizations: FleetOrganization[];
	/** The organizations whose assets the credential sees: VENDOR every EU, CP the EUs that authorized it, EU itself. */
	endUsers: FleetOrganization[];
	groups: FleetPlace[];
	plants: FleetPlace[];
}

/**
 * The one rule for "end-user organization" (F1): OrgType EU, in any casing. A node without an
 * OrgType (the spec lists a CP's served organizations with id, name, groups and plants only) is
 * one when it has no sub-organizations, since VENDOR and CP have them and EU has none.
 */
export function isEndUser(node: Pick<OrganizationNode, 'orgType' | 'subOrgs'>): boolean {
	const type = node.orgType?.trim().toUpperCase();
	if (type) return type === 'EU';
	return node.subOrgs.length === 0;
}

/** What a person reads for an organization, group or plant: its name, or its id when it has none. */
export function displayName(item: { id: number; name: string | null }): string {
	return item.name ?? String(item.id);
}

/**
 * The tree walked once. An organization reached twice (an EU listed by the operator and below a
 * service provider) counts once, where it is first met.
 */
export function readTree(root: OrganizationNode): OrganizationTree {
	const tree: OrganizationTree = { root, organizations: [], endUsers: [], groups: [], plants: [] };
	const seen = new Set<number>();
	const visit = (node: OrganizationNode, parentPath: string) => {
		if (seen.has(node.orgId)) return;
		seen.add(node.orgId);
		const name = displayName({ id: node.orgId, name: node.orgName });
		const organization: FleetOrganization = {
			id: node.orgId,
			name: node.orgName,
			type: node.orgType,
			path: parentPath ? `${parentPath} / ${name}` : name,
			endUser: isEndUser(node),
		};
		tree.organizations.push(organization);
		if (organization.endUser) tree.endUsers.push(organization);
		for (const { id, name } of node.assetGroups) tree.groups.push({ id, name, organization });
		for (const { id, name } of node.plants) tree.plants.push({ id, name, organization });
		for (const sub of node.subOrgs) visit(sub, organization.path);
	};
	visit(root, '');
	return tree;
}
