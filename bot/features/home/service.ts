import type { AssetRef, CbmAlert } from '../../kernel/alert';
import type { AssetLink, ConnectivityTracker } from '../connectivity/tracker';
import type { AlertState } from '../alerts/state';

/** One active silence as the Home tab lists it. */
export interface SilenceLine {
	/** What is muted: an asset, group or plant, in the user's words. */
	target: string;
	/** ISO 8601 UTC end. */
	until: string;
	reason?: string;
	by?: string;
}

/** The active silences (the on-call layer's); without it the tab says silences are not set up. */
export type SilenceSource = () => SilenceLine[] | Promise<SilenceLine[]>;

/** What the Home tab shows, read from the bot's own state (no platform call: it opens at once). */
export interface FleetGlance {
	at: string;
	faultsByGroup: Array<{
		group: string;
		assets: Array<{ asset: AssetRef; count: number }>;
		count: number;
	}>;
	cbm: CbmAlert[];
	offline: AssetLink[];
	/** Undefined when no silence store is wired. */
	silences?: SilenceLine[];
}

export class HomeService {
	constructor(
		private readonly deps: {
			state: AlertState;
			connectivity?: ConnectivityTracker;
			silences?: SilenceSource;
			now: () => number;
		},
	) {}

	async glance(): Promise<FleetGlance> {
		const faults = new Map<string, Map<number, { asset: AssetRef; count: number }>>();
		for (const alert of await this.deps.state.alerts.openAlerts()) {
			if (alert.severity !== 'Fault') continue;
			const group = alert.asset.group || '(no group)';
			const assets = faults.get(group) ?? new Map<number, { asset: AssetRef; count: number }>();
			const entry = assets.get(alert.asset.id) ?? { asset: alert.asset, count: 0 };
			entry.count++;
			assets.set(alert.asset.id, entry);
			faults.set(group, assets);
		}
		const faultsByGroup = [...faults.entries()]
			.map(([group, assets]) => ({
				group,
				assets: [...assets.values()].sort((a, b) => b.count - a.count),
				count: [...assets.values()].reduce((n, a) => n + a.count, 0),
			}))
			.sort((a, b) => b.count - a.count);
		const rank = (s: string) => (s === 'Red' ? 0 : 1);
		const cbm = (await this.deps.state.cbm.units(['Red', 'Yellow'])).sort(
			(a, b) => rank(a.status) - rank(b.status) || a.asset.name.localeCompare(b.asset.name),
		);
		return {
			at: new Date(this.deps.now()).toISOString(),
			faultsByGroup,
			cbm,
			offline: (await this.deps.connectivity?.notOnline()) ?? [],
			silences: this.deps.silences ? await this.deps.silences() : undefined,
		};
	}
}
