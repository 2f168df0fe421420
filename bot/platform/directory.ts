import { Limiter } from '../../shared/core/limiter';
import { resolveName } from '../../shared/resolve/match';
import type { AssetRef } from '../kernel/alert';
import type { BotLogger } from '../log';
import type { AssetDetail, AssetListItem, DrivePlatform, OrgNode } from './types';

export type Lookup =
	| { kind: 'found'; asset: AssetListItem }
	/** The first candidates by name (at most CANDIDATES_SHOWN of shared/resolve/match) and how many matched. */
	| { kind: 'ambiguous'; matches: AssetListItem[]; total: number }
	| { kind: 'none'; suggestions: AssetListItem[] };

/** Asset details kept (E8); each is a few hundred bytes. */
export const DEFAULT_MAX_DETAILS = 5_000;

/** Edit distance, for "did you mean" suggestions. */
function distance(a: string, b: string): number {
	const row = Array.from({ length: b.length + 1 }, (_, i) => i);
	for (let i = 1; i <= a.length; i++) {
		let diagonal = row[0];
		row[0] = i;
		for (let j = 1; j <= b.length; j++) {
			const above = row[j];
			row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
			diagonal = above;
		}
	}
	return row[b.length];
}

const norm = (value: string | null | undefined) => (value ?? '').trim().toLowerCase();

/** EU organizations below a node: the node itself for an EU, its served organizations otherwise. */
function euOrganizations(node: OrgNode): OrgNode[] {
	if (node.orgType === 'EU' || node.subOrgs.length === 0)
		return node.orgType === 'EU' || node.orgType === null ? [node] : [];
	return node.subOrgs.flatMap(euOrganizations);
}

/**
 * The fleet as the bot sees it: every asset the credentials reach (E2 then E3 per EU), searchable
 * by id, serial number or name, and the asset details alerts need (E8, cached).
 */
export class AssetDirectory {
	private assets: AssetListItem[] = [];
	private byIdMap = new Map<number, AssetListItem>();
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
		const root = await this.platform.organization.getNodes();
		const orgs = euOrganizations(root);
		const limiter = new Limiter(this.options.concurrency ?? 4);
		const lists = await Promise.all(
			orgs.map((org) =>
				limiter.run(() => this.platform.organization.listAssets({ orgId: org.orgId })),
			),
		);
		const assets: AssetListItem[] = [];
		const seen = new Set<number>();
		const add = (asset: AssetListItem) => {
			if (!seen.has(asset.id)) {
				seen.add(asset.id);
				assets.push(asset);
			}
			for (const sub of asset.subAssets ?? [])
				add({ ...sub, organizationName: sub.organizationName ?? asset.organizationName });
		};
		for (const list of lists) list.forEach(add);
		this.assets = assets;
		this.byIdMap = new Map(assets.map((a) => [a.id, a]));
		this.loadedAt = Date.now();
	}

	all(): readonly AssetListItem[] {
		return this.assets;
	}

	byId(id: number): AssetListItem | undefined {
		return this.byIdMap.get(id);
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
		return { kind: 'none', suggestions: this.suggest(norm(query), 5) };
	}

	/** Assets whose name, serial number or group contains the text. */
	search(text: string, limit: number): AssetListItem[] {
		const q = norm(text);
		const out: AssetListItem[] = [];
		for (const a of this.assets) {
			if (
				norm(a.name).includes(q) ||
				norm(a.serialNumber).includes(q) ||
				norm(a.assetGroupName).includes(q)
			)
				out.push(a);
			if (out.length >= limit) break;
		}
		return out;
	}

	private suggest(q: string, count: number): AssetListItem[] {
		return this.assets
			.map((a) => ({
				a,
				d: Math.min(distance(q, norm(a.name)), distance(q, norm(a.serialNumber))),
			}))
			.filter((x) => x.d <= Math.max(3, Math.floor(q.length / 2)))
			.sort((x, y) => x.d - y.d)
			.slice(0, count)
			.map((x) => x.a);
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
