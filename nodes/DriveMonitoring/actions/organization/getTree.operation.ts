import type { INodeExecutionData } from 'n8n-workflow';
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

function flatten(node: OrganizationNode): INodeExecutionData[] {
	const org = { orgId: node.orgId, orgName: node.orgName, orgType: node.orgType };
	return [
		...node.assetGroups.map((g) => ({
			json: { ...org, kind: 'assetGroup', id: g.id, name: g.name },
		})),
		...node.plants.map((p) => ({ json: { ...org, kind: 'plant', id: p.id, name: p.name } })),
		...node.subOrgs.flatMap((sub) => flatten(sub)),
	];
}
