import type { BotConfig, Route } from '../../config/schema';
import type { AssetRef } from '../../kernel/alert';

function matchesIdOrName(
	expected: string | number | undefined,
	id: number | undefined,
	name: string,
): boolean {
	if (expected === undefined) return true;
	if (typeof expected === 'number') return expected === id;
	return expected.toLowerCase() === name.toLowerCase() || expected === String(id);
}

function matches(route: Route, asset: AssetRef, severity: string): boolean {
	return (
		matchesIdOrName(route.organization, asset.organizationId, asset.organization) &&
		matchesIdOrName(route.assetGroup, asset.groupId, asset.group) &&
		(route.plant === undefined || route.plant.toLowerCase() === asset.plant.toLowerCase()) &&
		(route.severity === undefined || (route.severity as string[]).includes(severity))
	);
}

/** Channels for an alert: routes in order, the first match wins unless it says `continue`. */
export function routeAlert(
	config: BotConfig['alerts'],
	asset: AssetRef,
	severity: string,
): string[] {
	const channels: string[] = [];
	for (const route of config.routes) {
		if (!matches(route, asset, severity)) continue;
		if (!channels.includes(route.channel)) channels.push(route.channel);
		if (!route.continue) break;
	}
	return channels.length > 0 ? channels : [config.defaultChannel];
}

/** Every channel any alert could reach (for the daily CBM digest). */
export function allChannels(config: BotConfig['alerts']): string[] {
	return [...new Set([config.defaultChannel, ...config.routes.map((r) => r.channel)])];
}

const RANK: Record<string, number> = { Fault: 2, Warning: 1 };

export function meetsSeverity(severity: string, minSeverity: string): boolean {
	return (RANK[severity] ?? 0) >= (RANK[minSeverity] ?? 2);
}
