import type { Asset } from '../../../shared/schemas';

/** Assets followed by the drive and motor inside each powertrain, each asset once. */
export function withMembers(assets: Asset[]): Asset[] {
	const seen = new Set<number>();
	const out: Asset[] = [];
	const add = (asset: Asset) => {
		if (seen.has(asset.id)) return;
		seen.add(asset.id);
		out.push(asset);
		asset.subAssets?.forEach(add);
	};
	assets.forEach(add);
	return out;
}
