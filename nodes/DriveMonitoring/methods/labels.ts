import type { Asset } from '../../../shared/schemas';

/** How a picker shows an asset: name, serial number and type, so two of one name can be told apart. */
export function assetLabel(asset: Asset): string {
	return `${asset.name ?? asset.id} · ${asset.serialNumber ?? 'no serial'} (${asset.assetType})`;
}
