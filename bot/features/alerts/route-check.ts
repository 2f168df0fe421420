/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { distance } from 'fastest-levenshtein';
import type { OrgNode } from '../../platform/types';
import type { BotConfig } from '../../config/schema';

/** What the platform's organization tree (E2) names: organizations, asset groups, plants. */
export interface FleetNames {
	organizations: Array<{ id: number; name: string }>;
	groups: Array<{ id: number; name: string }>;
	plants: string[];
}

type TreeNode = OrgNode & {
	assetGroups?: Array<{ id: number; name: string | null }>;
	plants?: Array<{ name: string | null }>;
};

/** Every organization, group and plant below the credentials' node. */
export function fleetNames(root: OrgNode): FleetNames {
	const names: FleetNames = { organizations: [], groups: [], plants: [] };
	const walk = (node: TreeNode) => {
		names.organizations.push({ id: node.orgId, name: node.orgName ?? '' });
		for (const g of node.assetGroups ?? []) names.groups.push({ id: g.id, name: g.name ?? '' });
		for (const p of node.plants ?? []) if (p.name) names.plants.push(p.name);
		for (const sub of node.subOrgs ?? []) walk(sub as TreeNode);
	};
	walk(root as TreeNode);
	return names;
}

/** Up to three names closest to what was written, closest first. */
export function closest(written: string, candidates: readonly string[]): string[] {
	const q = written.toLowerCase();
	return [...new Set(candidates)]
		.map((name) => ({
			name,
			d:
				name.toLowerCase().includes(q) || q.includes(name.toLowerCase())
					? 0
					: distance(q, name.toLowerCase()),
		}))
		.filter((x) => x.d <= Math.max(3, Math.floor(q.length / 2)))
		.sort((a, b) => a.d - b.d)
		.slice(0, 3)
		.map((x) => x.name);
}

function known(
	value: string | number,
	items: ReadonlyArray<{ id: number; name: string }>,
): boolean {
	return items.some(
		(i) => i.id === Number(value) || i.name.toLowerCase() === String(value).toLowerCase(),
	);
}

/**
 * A route naming an organization, asset group or plant the platform does not have would match
 * nothing, and its alerts would fall to the default channel: one line per such name, with the
 * closest real names.
 */
export function routeProblems(alerts: BotConfig['alerts'], names: FleetNames): string[] {
	const problems: string[] = [];
	const line = (i: number, field: string, value: string | number, candidates: string[]) => {
		const near = closest(String(value), candidates);
		problems.push(
			`  - alerts.routes.${i}.${field}: no ${field === 'assetGroup' ? 'asset group' : field} "${value}" on the platform${near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : ''}`,
		);
	};
	alerts.routes.forEach((route, i) => {
		if (route.organization !== undefined && !known(route.organization, names.organizations))
			line(
				i,
				'organization',
				route.organization,
				names.organizations.map((o) => o.name),
			);
		if (route.assetGroup !== undefined && !known(route.assetGroup, names.groups))
			line(
				i,
				'assetGroup',
				route.assetGroup,
				names.groups.map((g) => g.name),
			);
		if (
			route.plant !== undefined &&
			!names.plants.some((p) => p.toLowerCase() === route.plant?.toLowerCase())
		)
			line(i, 'plant', route.plant, names.plants);
	});
	return problems;
}
