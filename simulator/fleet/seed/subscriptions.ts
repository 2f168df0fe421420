import type { Level } from '../../../shared/spec';
import { DAY } from '../../time';
import type { AssetRec, SubscriptionRec } from '../model';
import { addCode, type Seeding } from './seeding';
import type { AssetSpec } from './specs';

/**
 * The subscriptions an asset's spec asks for: an ended one for 'expired', none for 'none', else
 * the level until a date to come, after a trial for assets older than 400 days, and a renewal
 * when the spec names one. PowerTrains hold none (their drive and motor do).
 */
export function subscribe(s: Seeding, asset: AssetRec, spec: AssetSpec): void {
	if (spec.type === 'PowerTrain') return;
	const { rnd, origin } = s;
	const { id, createdOn } = asset;
	const assetType = spec.type;
	const add = (
		level: Level,
		type: SubscriptionRec['type'],
		startAt: number,
		endAt: number,
	): void => {
		asset.subscriptions.push(bindCode(s, { level, type, startAt, endAt, assetType, assetId: id }));
	};
	if (spec.level === 'expired') {
		add('Standard', 'Official', createdOn, origin - rnd.int(5, 40) * DAY);
	} else if (spec.level !== 'none') {
		const endAt = origin + rnd.int(200, 700) * DAY;
		let startAt = createdOn;
		if (origin - createdOn > 400 * DAY) {
			// Older assets started on a trial before their contract: an expired record in E9.
			add(spec.level, 'Trial', createdOn, createdOn + 90 * DAY);
			startAt = createdOn + 90 * DAY;
		}
		add(spec.level, 'Official', startAt, endAt);
		if (spec.renewal) add(spec.renewal, 'Official', endAt, endAt + 365 * DAY);
	}
}

/** A subscription and the code it was bound with (E7), used by the asset. */
function bindCode(
	s: Seeding,
	binding: Pick<SubscriptionRec, 'level' | 'type' | 'startAt' | 'endAt'> & {
		assetType: 'Drive' | 'Motor';
		assetId: number;
	},
): SubscriptionRec {
	const { level, type, startAt, endAt, assetType, assetId } = binding;
	const period = Math.max(1, Math.round((endAt - startAt) / (30.44 * DAY)));
	const code = addCode(s, {
		level,
		type,
		assetType,
		period,
		expiresAt: startAt,
		usedByAssetId: assetId,
	});
	return { id: s.data.ids.subscription++, code, type, level, period, startAt, endAt };
}
