import type { AssetRef } from '../../kernel/alert';
import type { AssetDirectory } from '../../platform/directory';
import type { AssetListItem } from '../../platform/types';

/** The PowerTrain listing this asset as its drive or motor, if any (S3: members sit below it). */
export function powerTrainOf(
	directory: AssetDirectory,
	assetId: number,
): AssetListItem | undefined {
	return directory
		.all()
		.find((a) => a.assetType === 'PowerTrain' && (a.subAssets ?? []).some((s) => s.id === assetId));
}

/** An alert's asset with its PowerTrain, for inhibition and for muting a whole PowerTrain. */
export function withPowerTrain(ref: AssetRef, directory: AssetDirectory): AssetRef {
	const pt = powerTrainOf(directory, ref.id);
	return pt ? { ...ref, powerTrain: { id: pt.id, name: pt.name ?? `PowerTrain ${pt.id}` } } : ref;
}
