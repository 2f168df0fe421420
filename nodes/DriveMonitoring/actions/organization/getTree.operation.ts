import type { INodeExecutionData } from 'n8n-workflow';
import { readTree, type FleetPlace } from '../../../../shared/fleet';
import type { OrganizationNode } from '../../../../shared/schemas';
import type { Operation } from '../types';
import { toItems } from '../output';

export const getTree: Operation = {
	option: {
		name: 'Get Tree',
		value: 'getTree',
		action:
			'Get the organization tree: returns the organization with its plants and asset groups (IDs and names); use to find a group or plant ID by name',
		description:
			"Get the organization's tree: asset groups and plants of an end-user organization, or the served organizations of a service provider",
	},
	readOnly: true,
	properties: [
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'tree',
			options: [
				{ name: 'Tree', value: 'tree', description: 'One item holding the whole tree' },
				{
					name: 'One Item per Asset Group and Plant',
					value: 'flat',
					description: 'Rows with the organization, kind (asset group or plant), ID and name',
				},
			],
		},
	],
	async execute(client, itemIndex) {
		const tree = await client.organization.getNodes();
		if (this.getNodeParameter('output', itemIndex) === 'tree') return toItems(tree);
		return flatten(tree);
	},
};

/** One row per asset group and plant, organization by organization in the tree's order. */
function flatten(root: OrganizationNode): INodeExecutionData[] {
	const { organizations, groups, plants } = readTree(root);
	const rows = new Map(organizations.map((org) => [org.id, [] as INodeExecutionData[]]));
	const add = (kind: 'assetGroup' | 'plant') => (place: FleetPlace) => {
		const org = place.organization;
		const json = { orgId: org.id, orgName: org.name, orgType: org.type, kind };
		rows.get(org.id)!.push({ json: { ...json, id: place.id, name: place.name } });
	};
	groups.forEach(add('assetGroup'));
	plants.forEach(add('plant'));
	return [...rows.values()].flat();
}
