// The simulated platform's fleet, drawn from one seed. The parts are in seed/: organizations with
// their groups and plants, assets with their subscriptions, the code pool, the registry, reports.
import { Random } from '../random';
import type { FleetData } from './model';
import { FIRST_ASSET_ID, seedAssets } from './seed/assets';
import { seedCodePool, seedRegistry } from './seed/codes';
import { seedOrganizations } from './seed/orgs';
import { seedReports } from './seed/reports';
import type { Seeding } from './seed/seeding';
import { MIN_FLEET_SIZE } from './seed/specs';

/**
 * The fleet of `assetCount` assets (at least the required ones) at the simulated time `origin`:
 * three EUs, and one more for each 1,000 assets beyond the first 100.
 */
export function seedFleet(seed: number, assetCount: number, origin: number): FleetData {
	const rnd = new Random(seed);
	const data: FleetData = {
		tenantId: rnd.guid(),
		apiScopeId: rnd.guid(),
		orgs: new Map(),
		groups: new Map(),
		plants: new Map(),
		assets: new Map(),
		codes: new Map(),
		registry: new Map(),
		reports: new Map(),
		ids: { asset: FIRST_ASSET_ID, group: 1001, subscription: 70001, report: 5001 },
	};
	const seeding: Seeding = { rnd, data, origin };
	const size = Math.max(assetCount, MIN_FLEET_SIZE);
	const customers = seedOrganizations(seeding, 3 + Math.floor(Math.max(0, size - 100) / 1000));
	seedAssets(seeding, customers, size);
	seedCodePool(seeding);
	seedRegistry(seeding);
	seedReports(seeding);
	return data;
}
