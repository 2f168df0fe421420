import { LEVELS } from '../../../shared/spec';
import { DAY } from '../../time';
import { addCode, serialNumber, type Seeding } from './seeding';
import { DRIVE_MODELS } from './words';

/**
 * The pool of unused codes (E7): per asset type and level three Official, one Trial and one Taste
 * code valid for a year, and one expired Premium code per asset type.
 */
export function seedCodePool(s: Seeding): void {
	for (const assetType of ['Drive', 'Motor'] as const) {
		for (const level of LEVELS) {
			for (const type of ['Official', 'Official', 'Official', 'Trial', 'Taste'] as const) {
				addCode(s, {
					level,
					type,
					assetType,
					period: type === 'Official' ? 12 : type === 'Trial' ? 3 : 1,
					expiresAt: s.origin + 365 * DAY,
					usedByAssetId: null,
				});
			}
		}
		addCode(s, {
			level: 'Premium',
			type: 'Official',
			assetType,
			period: 12,
			expiresAt: s.origin - 30 * DAY,
			usedByAssetId: null,
		});
	}
}

/** The upstream registry (E10): 20 drives no asset uses yet, half of them ACS880. */
export function seedRegistry({ rnd, data }: Seeding): void {
	for (let i = 0; i < 20; i++) {
		const family = i % 2 === 0 ? 'ACS880' : rnd.pick(Object.keys(DRIVE_MODELS));
		const entry = {
			serialNumber: serialNumber(rnd, 'D'),
			modelType: rnd.pick(DRIVE_MODELS[family]),
			firmwareVersion: `v3.${rnd.int(10, 60)}.0.0`,
		};
		data.registry.set(entry.serialNumber, entry);
	}
}
