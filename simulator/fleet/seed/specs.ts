import { LEVELS, type Level } from '../../../shared/spec';
import type { Random } from '../../random';
import type { AssetType, GatewayName } from '../model';

/** What an asset to seed must be; what it leaves open is drawn. */
export interface AssetSpec {
	type: AssetType;
	level: Level | 'none' | 'expired';
	family?: string;
	gateway?: GatewayName;
	ageDays?: number;
	renewal?: Level;
}

/** The fleet that makes every rule of the spec reachable; the rest of the fleet is random filler. */
export function requiredAssets(): AssetSpec[] {
	const specs: AssetSpec[] = [];
	for (const level of LEVELS) {
		specs.push({ type: 'Drive', level, family: 'ACS880' });
		specs.push({ type: 'Drive', level, family: 'ACS580' });
		specs.push({ type: 'Drive', level, family: 'ACS380' });
		specs.push({ type: 'Motor', level });
		specs.push({ type: 'PowerTrain', level });
	}
	specs.push(
		{ type: 'Drive', level: 'Premium', family: 'ACS880', gateway: 'NETA21' },
		{ type: 'Motor', level: 'Premium', gateway: 'NETA21' },
		{ type: 'Drive', level: 'expired', family: 'ACS580' },
		{ type: 'Motor', level: 'expired' },
		{ type: 'Drive', level: 'none', family: 'ACS180' },
		{ type: 'Drive', level: 'Premium', family: 'ACS880', ageDays: 2 },
		{ type: 'Drive', level: 'Standard', family: 'ACS580', renewal: 'Premium' },
	);
	return specs;
}

/** The smallest fleet: the required assets (PowerTrains count with their drive and motor). */
export const MIN_FLEET_SIZE = requiredAssets().reduce(
	(n, s) => n + (s.type === 'PowerTrain' ? 3 : 1),
	0,
);

/** A random asset of the filler; a PowerTrain only while three more assets fit. */
export function fillerSpec(rnd: Random, room: number): AssetSpec {
	const roll = rnd.next();
	const type: AssetType = room >= 3 && roll < 0.08 ? 'PowerTrain' : roll < 0.7 ? 'Drive' : 'Motor';
	const gateway: GatewayName = rnd.next() < 0.2 ? 'NETA21' : 'IOTPanel';
	// Assets on a NETA21 gateway accept only Premium codes, so they hold Premium subscriptions.
	const level = gateway === 'NETA21' && type !== 'PowerTrain' ? 'Premium' : rnd.pick(LEVELS);
	return { type, level, gateway: type === 'PowerTrain' ? 'IOTPanel' : gateway };
}
