import { FleetDirectory, type OrganizationTree, powerTrainsByMember } from '../../shared/fleet';
import { mentions, resolveName } from '../../shared/resolve/match';
import type { AssetRef } from '../kernel/alert';
import type { BotLogger } from '../log';
import { nearest } from './nearest';
import type { AssetDetail, AssetListItem, DrivePlatform } from './types';

export type Lookup =
	| { kind: 'found'; asset: AssetListItem }
	/** The first candidates by name (at most CANDIDATES_SHOWN of shared/resolve/match) and how many matched. */
	| { kind: 'ambiguous'; matches: AssetListItem[]; total: number }
	| { kind: 'none'; suggestions: AssetListItem[] };

/** Asset details kept (E8); each is a few hundred bytes. */
export const DEFAULT_MAX_DETAILS = 5_000;

/**
 * The fleet as the bot sees it: every asset the credentials reach, read by the shared fleet
 * directory (shared/fleet) and read again every refresh interval, searchable by id, serial number
 * or name, each drive's and motor's PowerTrain, and the asset details alerts need (E8, cached).
 */
export class AssetDirectory {
	private assets: AssetListItem[] = [];
	private byIdMap = new Map<number, AssetListItem>();
	private powerTrains = new Map<number, AssetListItem>();
	private fleet: FleetDirectory | undefined;
	private readonly details = new Map<number, Promise<AssetDetail>>();
	private loadedAt = 0;
	private loading: Promise<void> | undefined;

	constructor(
		private readonly platform: DrivePlatform,
		private readonly options: {
			refreshMs?: number;
			concurrency?: number;
			logger?: BotLogger;
			maxDetails?: number;
		} = {},
	) {}

	/** Loads the fleet when it was never loaded or is older than the refresh interval. */
	async ensure(): Promise<void> {
		if (this.loadedAt > 0 && Date.now() - this.loadedAt < (this.options.refreshMs ?? 10 * 60_000))
			return;
		this.loading ??= this.load().finally(() => (this.loading = undefined));
		if (this.loadedAt === 0) await this.loading;
		else
			await this.loading.catch((error: unknown) =>
				this.options.logger?.warn(`asset directory refresh failed: ${String(error)}`),
			);
	}

	private async load(): Promise<void> {
		const fleet = new FleetDirectory(this.platform, { concurrency: this.options.concurrency ?? 4 });
		const assets = await fleet.assets();
		this.fleet = fleet;
		this.assets = assets;
		this.byIdMap = new Map(assets.map((a) => [a.id, a]));
		this.powerTrains = powerTrainsByMember(assets);
		this.loadedAt = Date.now();
	}

	all(): readonly AssetListItem[] {
		return this.assets;
	}

	byId(id: number): AssetListItem | undefined {
		return this.byIdMap.get(id);
	}

	/** The organizations, asset groups and plants (E2) the fleet was last loaded from. */
	async tree(): Promise<OrganizationTree> {
		await this.ensure();
		return (this.fleet ?? new FleetDirectory(this.platform)).tree();
	}

	/** The PowerTrain that holds this drive or motor, if any. */
	powerTrainOf(assetId: number): AssetListItem | undefined {
		return this.powerTrains.get(assetId);
	}

	/**
	 * By id (`123` or `#123`), serial number or name, with the matcher the n8n node uses
	 * (shared/resolve/match): a whole name or serial number wins over a part of one; several
	 * matches of the winning kind are ambiguous. Nothing matching: the nearest names as suggestions.
	 */
	lookup(query: string): Lookup {
		const found = resolveName(query.trim().replace(/^#(?=\d+$)/, ''), this.assets);
		if (found.kind === 'one') return { kind: 'found', asset: found.target };
		if (found.kind === 'ambiguous')
			return { kind: 'ambiguous', matches: found.candidates, total: found.total };
		return {
			kind: 'none',
			suggestions: nearest(query, this.assets, (a) => [a.name, a.serialNumber], 5),
		};
	}

	/** Assets whose name, serial number or group contains the text. */
	search(text: string, limit: number): AssetListItem[] {
		const out: AssetListItem[] = [];
		for (const a of this.assets) {
			if (out.length >= limit) break;
			if (mentions(text, a.name, a.serialNumber, a.assetGroupName)) out.push(a);
		}
		return out;
	}

	/**
	 * The asset's detail (E8), read only when an alert needs it and cached with a bound (B48):
	 * the least recently used detail goes first, so a fleet of 100,000 never holds 100,000.
	 */
	detail(id: number): Promise<AssetDetail> {
		let pending = this.details.get(id);
		if (pending) {
			this.details.delete(id);
			this.details.set(id, pending);
			return pending;
		}
		pending = this.platform.assets.get({ id });
		pending.catch(() => {
			if (this.details.get(id) === pending) this.details.delete(id);
		});
		this.details.set(id, pending);
		const max = this.options.maxDetails ?? DEFAULT_MAX_DETAILS;
		for (const oldest of this.details.keys()) {
			if (this.details.size <= max) break;
			this.details.delete(oldest);
		}
		return pending;
	}

	/** Details held now (at most `maxDetails`). */
	cachedDetails(): number {
		return this.details.size;
	}

	/** What an alert shows about its asset; the list item when the detail cannot be read. `known`: a detail the caller just read. */
	async ref(id: number, known?: AssetDetail): Promise<AssetRef> {
		await this.ensure().catch(() => undefined);
		const item = this.byIdMap.get(id);
		let detail: AssetDetail | undefined = known;
		try {
			detail ??= await this.detail(id);
		} catch (error) {
			this.options.logger?.warn(
				`asset ${id}: detail unavailable (${String(error)}), alert shows what the asset list has`,
			);
		}
		return {
			id,
			name: detail?.name ?? item?.name ?? `asset ${id}`,
			serialNumber: detail?.serialNumber ?? item?.serialNumber ?? '-',
			organization: detail?.organization ?? item?.organizationName ?? '',
			organizationId: item?.organizationId ?? undefined,
			group: detail?.assetGroup ?? item?.assetGroupName ?? '',
			groupId: item?.assetGroupId ?? undefined,
			plant: detail?.plant ?? '',
		};
	}
}
