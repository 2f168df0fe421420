import { DAY, HOUR } from '../../time';
import type { AssetRec, GatewayName, GroupRec, OrgRec, PlantRec } from '../model';
import type { Customer } from './orgs';
import { serialNumber, type Seeding } from './seeding';
import { fillerSpec, requiredAssets, type AssetSpec } from './specs';
import { subscribe } from './subscriptions';
import { DRIVE_MODELS, GROUP_WORDS, MOTOR_MODELS } from './words';

export const FIRST_ASSET_ID = 100001;
/** Assets created before this many days ago have no CreatedUserId (the spec's introduction date). */
const CREATED_USER_INTRODUCED_DAYS_AGO = 540;

/** Where an asset stands and what it is called. */
interface Placement {
	eu: OrgRec;
	group: GroupRec;
	plant: PlantRec;
	label: string;
	createdOn: number;
}

/**
 * The required assets, then random filler up to `size`, dealt round the customers in turn and
 * round each customer's groups and plants.
 */
export function seedAssets(s: Seeding, customers: Customer[], size: number): void {
	const namesUsed = new Map<number, number>();
	let made = 0;
	let index = 0;
	const add = (spec: AssetSpec): void => {
		made += addSpec(s, customers, namesUsed, spec, index);
		index++;
	};
	for (const spec of requiredAssets()) add(spec);
	while (made < size) add(fillerSpec(s.rnd, size - made));
}

/** The asset of one spec, or a PowerTrain with its drive and motor: returns how many were made. */
function addSpec(
	s: Seeding,
	customers: Customer[],
	namesUsed: Map<number, number>,
	spec: AssetSpec,
	index: number,
): number {
	const { rnd, origin } = s;
	const { org: eu, groups, plants } = customers[index % customers.length];
	const group = groups[Math.floor(index / customers.length) % groups.length];
	const plant = plants[index % 2];
	const word = GROUP_WORDS.find(([plural]) => plural === group.name)?.[1] ?? 'Asset';
	const number = (namesUsed.get(group.id) ?? 0) + 1;
	namesUsed.set(group.id, number);
	const createdOn = origin - (spec.ageDays ?? rnd.int(380, 720)) * DAY - rnd.int(0, 23) * HOUR;
	const at = (label: string): Placement => ({ eu, group, plant, label, createdOn });
	if (spec.type !== 'PowerTrain') {
		makeAsset(s, spec, at(`${word} ${number} ${spec.type.toLowerCase()}`));
		return 1;
	}
	const train = makeAsset(s, spec, at(`${word} ${number}`));
	const drive = makeAsset(
		s,
		{ type: 'Drive', level: spec.level, family: 'ACS880' },
		at(`${word} ${number} drive`),
	);
	const motor = makeAsset(s, { type: 'Motor', level: spec.level }, at(`${word} ${number} motor`));
	train.memberIds = [drive.id, motor.id];
	drive.powerTrainId = train.id;
	motor.powerTrainId = train.id;
	return 3;
}

function makeAsset(
	s: Seeding,
	spec: AssetSpec,
	{ eu, group, plant, label, createdOn }: Placement,
): AssetRec {
	const { rnd, data, origin } = s;
	const id = data.ids.asset++;
	const gateway: GatewayName = spec.gateway ?? 'IOTPanel';
	const isDrive = spec.type === 'Drive';
	const family = spec.family ?? rnd.pick(Object.keys(DRIVE_MODELS));
	const modelType =
		spec.type === 'PowerTrain'
			? 'PowerTrain'
			: isDrive
				? rnd.pick(DRIVE_MODELS[family])
				: rnd.pick(MOTOR_MODELS);
	const hasContract = rnd.next() < 0.4;
	const beforeCreatedUser = createdOn < origin - CREATED_USER_INTRODUCED_DAYS_AGO * DAY;
	const asset: AssetRec = {
		id,
		orgId: eu.id,
		groupId: group.id,
		plantId: plant.id,
		name: label,
		serialNumber: serialNumber(
			rnd,
			spec.type === 'Drive' ? 'D' : spec.type === 'Motor' ? 'M' : 'PT',
		),
		assetType: spec.type,
		modelType,
		firmwareVersion: isDrive
			? `v3.${rnd.int(10, 60)}.${rnd.int(0, 9)}.0`
			: spec.type === 'Motor'
				? `SM-${rnd.int(1, 3)}.${rnd.int(0, 9)}`
				: '',
		gatewayType: gateway,
		gatewaySerialNumber:
			gateway === 'NETA21' ? `N21${rnd.hex(8).toUpperCase()}` : `IOT${rnd.hex(8).toUpperCase()}`,
		simIccid:
			gateway === 'IOTPanel'
				? `8986${String(rnd.int(0, 99999999)).padStart(8, '0')}${String(rnd.int(0, 99999999)).padStart(8, '0')}`
				: '',
		createdOn,
		createdUserId: beforeCreatedUser ? null : eu.adminUserId,
		createdUserPhone: beforeCreatedUser ? null : eu.adminUserPhone,
		expertService: hasContract
			? {
					serviceStatus: 0,
					serviceType: rnd.pick([1, 2] as const),
					contractStart: createdOn,
					contractEnd: origin + rnd.int(60, 700) * DAY,
				}
			: {
					serviceStatus: rnd.pick([1, 2, 3] as const),
					serviceType: 0,
					contractStart: -1,
					contractEnd: -1,
				},
		subscriptions: [],
		memberIds: null,
		powerTrainId: null,
		longitude: plant.longitude.toFixed(6),
		latitude: plant.latitude.toFixed(6),
	};
	subscribe(s, asset, spec);
	data.assets.set(id, asset);
	return asset;
}
