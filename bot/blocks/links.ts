import type { AssetLink } from '../features/connectivity/tracker';
import { formatTime } from '../render/format';
import { esc, section } from './kit';
import type { Block } from '../kernel/message';

/** `:red_circle: offline since …`, as `/drive status` and the App Home show an asset's link. */
export function linkText(link: AssetLink, timeZone: string): string {
	if (link.state === 'online')
		return `:large_green_circle: online (last state ${formatTime(link.lastSeen, timeZone)})`;
	if (link.state === 'offline')
		return `:red_circle: *offline* since ${formatTime(link.since, timeZone)}`;
	return `:white_circle: unknown: no state since ${formatTime(link.lastSeen, timeZone)}`;
}

/** `/drive health`'s count of offline assets per group. */
export function offlineBlocks(
	byGroup: Record<string, { offline: number; unknown: number }> | undefined,
): Block[] {
	if (!byGroup) return [];
	const lines = Object.entries(byGroup)
		.sort(([, a], [, b]) => b.offline - a.offline)
		.slice(0, 25)
		.map(
			([group, n]) =>
				`• ${esc(group)}: ${n.offline} offline${n.unknown ? `, ${n.unknown} unknown` : ''}`,
		);
	return [
		section(
			`*Offline assets by group*\n${lines.length ? lines.join('\n') : 'none: every asset sends data'}`,
		),
	];
}
