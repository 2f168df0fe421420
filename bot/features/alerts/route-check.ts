import type { OrganizationTree } from '../../../shared/fleet';
import type { BotConfig } from '../../config/schema';
import { nearestNames } from '../../platform/nearest';

/** The names of the organizations, asset groups or plants that have one. */
const namesOf = (items: ReadonlyArray<{ name: string | null }>): string[] =>
	items.flatMap((i) => (i.name ? [i.name] : []));

function known(
	value: string | number,
	items: ReadonlyArray<{ id: number; name: string | null }>,
): boolean {
	return items.some(
		(i) => i.id === Number(value) || i.name?.toLowerCase() === String(value).toLowerCase(),
	);
}

/**
 * A route naming an organization, asset group or plant the platform does not have would match
 * nothing, and its alerts would fall to the default channel: one line per such name, with the
 * closest real names.
 */
export function routeProblems(alerts: BotConfig['alerts'], tree: OrganizationTree): string[] {
	const problems: string[] = [];
	const line = (i: number, field: string, value: string | number, candidates: string[]) => {
		const near = nearestNames(String(value), candidates);
		problems.push(
			`  - alerts.routes.${i}.${field}: no ${field === 'assetGroup' ? 'asset group' : field} "${value}" on the platform${near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : ''}`,
		);
	};
	alerts.routes.forEach((route, i) => {
		if (route.organization !== undefined && !known(route.organization, tree.organizations))
			line(i, 'organization', route.organization, namesOf(tree.organizations));
		if (route.assetGroup !== undefined && !known(route.assetGroup, tree.groups))
			line(i, 'assetGroup', route.assetGroup, namesOf(tree.groups));
		const plants = namesOf(tree.plants);
		if (
			route.plant !== undefined &&
			!plants.some((p) => p.toLowerCase() === route.plant?.toLowerCase())
		)
			line(i, 'plant', route.plant, plants);
	});
	return problems;
}
