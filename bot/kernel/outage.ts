import type { AssetRef } from './alert';

/** What the bot knows of an asset's link to the platform (assumption B30). */
export type LinkState = 'online' | 'offline' | 'unknown';

/** One asset inside an outage message. */
export interface OutageMember {
	asset: AssetRef;
	/** ISO 8601 UTC: when it went offline (push: the first offline state; polling: its latest data). */
	offlineSince: string;
	/** ISO 8601 UTC: when it was seen online again. */
	backAt?: string;
	/** The serial number of its gateway, when E8 gave one. */
	gateway?: string;
}

/**
 * One connectivity message: the assets of one group (or plant) that went offline within an hour
 * of the first, in one channel. Persisted; the dispatcher posts it, then updates it.
 */
export interface Outage {
	key: string;
	channel: string;
	/** The group or plant name the message is about ('' when the asset has none). */
	scope: string;
	scopeKind: 'group' | 'plant';
	/** ISO 8601 UTC of the first member's offlineSince. */
	openedAt: string;
	members: OutageMember[];
}

export function stillOffline(outage: Outage): OutageMember[] {
	return outage.members.filter((m) => m.backAt === undefined);
}

/** `1 h 5 min`, `12 min`, `2 d 3 h`. */
export function durationText(fromIso: string, toIso: string): string {
	const minutes = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 60_000));
	if (minutes < 60) return `${minutes} min`;
	const hours = Math.floor(minutes / 60);
	if (hours < 48) return `${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
	return `${Math.floor(hours / 24)} d${hours % 24 ? ` ${hours % 24} h` : ''}`;
}
