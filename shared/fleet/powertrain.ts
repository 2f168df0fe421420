// A PowerTrain is a virtual asset holding one drive and one motor (its SubAssets, SubDevices in
// payloads). The API refuses PowerTrains where it reads or changes an asset, so whoever reads
// asset data reads its members instead.

/** The part of an asset list item (E3, E4) these helpers read. */
export interface ListedAsset<T> {
	id: number;
	assetType?: string | null;
	subAssets?: T[] | null;
}

/** Whether the asset is a PowerTrain (AssetType in any casing, F2). */
export function isPowerTrain(asset: { assetType?: string | null }): boolean {
	return asset.assetType?.toLowerCase() === 'powertrain';
}

/** A PowerTrain's drive and motor as listed; nothing for any other asset. */
export function membersOf<T extends ListedAsset<T>>(asset: T): T[] {
	return isPowerTrain(asset) ? (asset.subAssets ?? []) : [];
}

/**
 * Every asset once, each PowerTrain followed by its members. `adopt` may complete a member from
 * its PowerTrain (the fleet directory gives it the PowerTrain's organization and group, F3).
 */
export function withMembers<T extends ListedAsset<T>>(
	assets: readonly T[],
	adopt: (member: T, powerTrain: T) => T = (member) => member,
): T[] {
	const seen = new Set<number>();
	const out: T[] = [];
	const add = (asset: T) => {
		if (seen.has(asset.id)) return;
		seen.add(asset.id);
		out.push(asset);
		for (const member of asset.subAssets ?? []) add(adopt(member, asset));
	};
	assets.forEach(add);
	return out;
}

/** The drives and motors among the assets and inside their PowerTrains, each once: what asset data can be read for. */
export function drivesAndMotors<T extends ListedAsset<T>>(assets: readonly T[]): T[] {
	return withMembers(assets).filter((asset) => !isPowerTrain(asset));
}

/** Each drive or motor that sits in a PowerTrain, to that PowerTrain. */
export function powerTrainsByMember<T extends ListedAsset<T>>(
	assets: readonly T[],
): Map<number, T> {
	const byMember = new Map<number, T>();
	for (const asset of assets)
		for (const member of membersOf(asset))
			if (!byMember.has(member.id)) byMember.set(member.id, asset);
	return byMember;
}
