import type { AssetRef } from '../../kernel/alert';
import type { AssetDirectory } from '../../platform/directory';

/** An alert's asset with its PowerTrain, for inhibition and for muting a whole PowerTrain. */
export function withPowerTrain(ref: AssetRef, directory: AssetDirectory): AssetRef {
	const pt = directory.powerTrainOf(ref.id);
	return pt ? { ...ref, powerTrain: { id: pt.id, name: pt.name ?? `PowerTrain ${pt.id}` } } : ref;
}
