import { LEVELS, type Level } from '../../shared/spec';
import { Random } from '../random';
import { DAY, HOUR } from '../time';
import type {
	AssetRec,
	AssetType,
	CodeRec,
	GatewayName,
	GroupRec,
	OrgRec,
	PlantRec,
	RegistryEntry,
	ReportRec,
	SubscriptionRec,
} from './model';

/** Everything seeded from one seed: the fleet, the code pool, the upstream registry. */
export interface FleetData {
	tenantId: string;
	apiScopeId: string;
	orgs: Map<number, OrgRec>;
	groups: Map<number, GroupRec>;
	plants: Map<number, PlantRec>;
	assets: Map<number, AssetRec>;
	codes: Map<string, CodeRec>;
	registry: Map<string, RegistryEntry>;
	reports: Map<number, ReportRec>;
	ids: { asset: number; group: number; subscription: number; report: number };
}

export const VENDOR_ID = 1;
export const FIRST_ASSET_ID = 100001;
/** Assets created before this many days ago have no CreatedUserId (the spec's introduction date). */
const CREATED_USER_INTRODUCED_DAYS_AGO = 540;

const EU_NAMES = [
	'Harbor Water Utility',
	'Northfield Paper Mill',
	'Cedar Foods',
	'Granite Cement Works',
	'Bluewave Chemicals',
	'Summit Mining',
	'Riverside HVAC',
	'Oakridge Steel',
	'Lakeside Brewery',
	'Pinecrest Textiles',
];
const INDUSTRIES = [
	'Water',
	'Pulp and paper',
	'Food and beverage',
	'Cement',
	'Chemicals',
	'Mining',
	'HVAC',
	'Metals',
];
const CITIES = [
	['Zhejiang', 'Hangzhou', 'Xihu'],
	['Jiangsu', 'Suzhou', 'Gusu'],
	['Guangdong', 'Shenzhen', 'Nanshan'],
	['Shanghai', 'Shanghai', 'Pudong'],
	['Beijing', 'Beijing', 'Haidian'],
] as const;
const GROUP_WORDS = [
	['Pumps', 'Pump'],
	['Conveyors', 'Conveyor'],
	['Fans', 'Fan'],
	['Compressors', 'Compressor'],
	['Mixers', 'Mixer'],
] as const;
const CONTACTS = [
	'Li Wei',
	'Anna Berg',
	'Chen Jing',
	'Marco Rossi',
	'Sara Lind',
	'Wang Fang',
	'Tom Okafor',
	'Mia Novak',
];
const DRIVE_MODELS: Record<string, string[]> = {
	ACS880: ['ACS880-01-045A-3', 'ACS880-01-105A-3', 'ACS880-07-0400A-3'],
	ACS580: ['ACS580-01-033A-4', 'ACS580-01-088A-4'],
	ACS380: ['ACS380-040S-12A6-4', 'ACS380-042S-07A3-4'],
	ACS180: ['ACS180-04N-09A4-4'],
};
const MOTOR_MODELS = ['M3BP-315SMC-4', 'M3AA-132MB-4', 'M3BP-280SMB-2'];

interface AssetSpec {
	type: AssetType;
	level: Level | 'none' | 'expired';
	family?: string;
	gateway?: GatewayName;
	ageDays?: number;
	renewal?: Level;
}

/** The fleet that makes every rule of the spec reachable; the rest of the fleet is random filler. */
function requiredAssets(): AssetSpec[] {
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
	let userId = 9001;
	const addOrg = (
		id: number,
		name: string,
		orgType: OrgRec['orgType'],
		authorizedCpIds: number[],
	): OrgRec => {
		const [province, city, district] = rnd.pick(CITIES);
		const contact = rnd.pick(CONTACTS);
		const org: OrgRec = {
			id,
			name,
			orgType,
			authorizedCpIds,
			industry: orgType === 'EU' ? rnd.pick(INDUSTRIES) : 'Industrial services',
			province,
			city,
			district,
			address: `${rnd.int(1, 399)} ${rnd.pick(['Binjiang Rd', 'Harbour St', 'Science Ave', 'Mill Lane'])}`,
			contact,
			phone: `+86 1${rnd.int(30, 89)}${String(rnd.int(0, 99999999)).padStart(8, '0')}`,
			apiKey: rnd.guid(),
			apiSecret: `${rnd.hex(8)}~${rnd.hex(30)}`,
			apiAccessEnabled: true,
			adminUserId: userId++,
			adminUserName: contact,
			adminUserPhone: `+86 1${rnd.int(30, 89)}${String(rnd.int(0, 99999999)).padStart(8, '0')}`,
		};
		data.orgs.set(id, org);
		return org;
	};

	const size = Math.max(assetCount, MIN_FLEET_SIZE);
	const euCount = 3 + Math.floor(Math.max(0, size - 100) / 1000);
	addOrg(VENDOR_ID, 'Drive Monitoring Platform', 'VENDOR', []);
	const cpServing = addOrg(2, 'Voltline Services', 'CP', []);
	addOrg(3, 'Ampere Field Service', 'CP', []);
	const eus: OrgRec[] = [];
	for (let i = 0; i < euCount; i++) {
		const base = EU_NAMES[i % EU_NAMES.length];
		const name = i < EU_NAMES.length ? base : `${base} ${Math.floor(i / EU_NAMES.length) + 1}`;
		// The third EU authorized nobody; every other EU authorized the first CP.
		eus.push(addOrg(11 + i, name, 'EU', i === 2 ? [] : [cpServing.id]));
	}

	const groupsOf = new Map<number, GroupRec[]>();
	const plantsOf = new Map<number, PlantRec[]>();
	let plantId = 2001;
	for (const eu of eus) {
		const groups = GROUP_WORDS.slice(0, 3 + (eu.id % 3)).map(([plural]) => {
			const group = { id: data.ids.group++, orgId: eu.id, name: plural };
			data.groups.set(group.id, group);
			return group;
		});
		const plants = ['North Plant', 'South Plant'].map((name) => {
			const plant: PlantRec = {
				id: plantId++,
				orgId: eu.id,
				name,
				province: eu.province,
				city: eu.city,
				district: eu.district,
				address: `${rnd.int(1, 999)} Industrial Park`,
				latitude: 30 + rnd.next() * 10,
				longitude: 110 + rnd.next() * 10,
				zipCode: String(rnd.int(100000, 999999)),
				description: `${name} of ${eu.name}`,
				createdOn: origin - rnd.int(800, 1500) * DAY,
			};
			data.plants.set(plant.id, plant);
			return plant;
		});
		groupsOf.set(eu.id, groups);
		plantsOf.set(eu.id, plants);
	}

	const serial = (prefix: string): string =>
		`${prefix}${String(rnd.int(0, 99999999)).padStart(8, '0')}`;
	const codeText = (level: Level, assetType: 'Drive' | 'Motor'): string =>
		`SC-${level[0]}${assetType[0]}-${rnd.hex(8).toUpperCase()}`;
	const subscription = (
		level: Level,
		type: SubscriptionRec['type'],
		startAt: number,
		endAt: number,
		assetType: 'Drive' | 'Motor',
		assetId: number,
	): SubscriptionRec => {
		const code = codeText(level, assetType);
		const period = Math.max(1, Math.round((endAt - startAt) / (30.44 * DAY)));
		data.codes.set(code, {
			code,
			level,
			type,
			assetType,
			period,
			expiresAt: startAt,
			usedByAssetId: assetId,
		});
		return { id: data.ids.subscription++, code, type, level, period, startAt, endAt };
	};
	const namesUsed = new Map<number, number>();

	const makeAsset = (
		spec: AssetSpec,
		eu: OrgRec,
		group: GroupRec,
		plant: PlantRec,
		label: string,
		createdOn: number,
	): AssetRec => {
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
		const asset: AssetRec = {
			id,
			orgId: eu.id,
			groupId: group.id,
			plantId: plant.id,
			name: label,
			serialNumber: serial(spec.type === 'Drive' ? 'D' : spec.type === 'Motor' ? 'M' : 'PT'),
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
			createdUserId:
				createdOn < origin - CREATED_USER_INTRODUCED_DAYS_AGO * DAY ? null : eu.adminUserId,
			createdUserPhone:
				createdOn < origin - CREATED_USER_INTRODUCED_DAYS_AGO * DAY ? null : eu.adminUserPhone,
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
		if (spec.type !== 'PowerTrain') {
			const assetType = spec.type;
			if (spec.level === 'expired') {
				asset.subscriptions.push(
					subscription(
						'Standard',
						'Official',
						createdOn,
						origin - rnd.int(5, 40) * DAY,
						assetType,
						id,
					),
				);
			} else if (spec.level !== 'none') {
				const endAt = origin + rnd.int(200, 700) * DAY;
				let startAt = createdOn;
				if (origin - createdOn > 400 * DAY) {
					// Older assets started on a trial before their contract: an expired record in E9.
					asset.subscriptions.push(
						subscription(spec.level, 'Trial', createdOn, createdOn + 90 * DAY, assetType, id),
					);
					startAt = createdOn + 90 * DAY;
				}
				asset.subscriptions.push(
					subscription(spec.level, 'Official', startAt, endAt, assetType, id),
				);
				if (spec.renewal)
					asset.subscriptions.push(
						subscription(spec.renewal, 'Official', endAt, endAt + 365 * DAY, assetType, id),
					);
			}
		}
		data.assets.set(id, asset);
		return asset;
	};

	const addSpec = (spec: AssetSpec, index: number): number => {
		const eu = eus[index % eus.length];
		const groups = groupsOf.get(eu.id) ?? [];
		const group = groups[Math.floor(index / eus.length) % groups.length];
		const plant = (plantsOf.get(eu.id) ?? [])[index % 2];
		const word = GROUP_WORDS.find(([plural]) => plural === group.name)?.[1] ?? 'Asset';
		const number = (namesUsed.get(group.id) ?? 0) + 1;
		namesUsed.set(group.id, number);
		const createdOn = origin - (spec.ageDays ?? rnd.int(380, 720)) * DAY - rnd.int(0, 23) * HOUR;
		if (spec.type !== 'PowerTrain') {
			makeAsset(spec, eu, group, plant, `${word} ${number} ${spec.type.toLowerCase()}`, createdOn);
			return 1;
		}
		const train = makeAsset(spec, eu, group, plant, `${word} ${number}`, createdOn);
		const drive = makeAsset(
			{ type: 'Drive', level: spec.level, family: 'ACS880' },
			eu,
			group,
			plant,
			`${word} ${number} drive`,
			createdOn,
		);
		const motor = makeAsset(
			{ type: 'Motor', level: spec.level },
			eu,
			group,
			plant,
			`${word} ${number} motor`,
			createdOn,
		);
		train.memberIds = [drive.id, motor.id];
		drive.powerTrainId = train.id;
		motor.powerTrainId = train.id;
		return 3;
	};

	let made = 0;
	let index = 0;
	for (const spec of requiredAssets()) made += addSpec(spec, index++);
	while (made < size) {
		const roll = rnd.next();
		const type: AssetType =
			size - made >= 3 && roll < 0.08 ? 'PowerTrain' : roll < 0.7 ? 'Drive' : 'Motor';
		const gateway: GatewayName = rnd.next() < 0.2 ? 'NETA21' : 'IOTPanel';
		// Assets on a NETA21 gateway accept only Premium codes, so they hold Premium subscriptions.
		const level = gateway === 'NETA21' && type !== 'PowerTrain' ? 'Premium' : rnd.pick(LEVELS);
		made += addSpec(
			{ type, level, gateway: type === 'PowerTrain' ? 'IOTPanel' : gateway },
			index++,
		);
	}

	// The pool of unused codes (E7), two expired ones, and the upstream registry (E10).
	for (const assetType of ['Drive', 'Motor'] as const) {
		for (const level of LEVELS) {
			for (const type of ['Official', 'Official', 'Official', 'Trial', 'Taste'] as const) {
				const code = codeText(level, assetType);
				const period = type === 'Official' ? 12 : type === 'Trial' ? 3 : 1;
				data.codes.set(code, {
					code,
					level,
					type,
					assetType,
					period,
					expiresAt: origin + 365 * DAY,
					usedByAssetId: null,
				});
			}
		}
		const expired = codeText('Premium', assetType);
		data.codes.set(expired, {
			code: expired,
			level: 'Premium',
			type: 'Official',
			assetType,
			period: 12,
			expiresAt: origin - 30 * DAY,
			usedByAssetId: null,
		});
	}
	for (let i = 0; i < 20; i++) {
		const family = i % 2 === 0 ? 'ACS880' : rnd.pick(Object.keys(DRIVE_MODELS));
		const entry = {
			serialNumber: serial('D'),
			modelType: rnd.pick(DRIVE_MODELS[family]),
			firmwareVersion: `v3.${rnd.int(10, 60)}.0.0`,
		};
		data.registry.set(entry.serialNumber, entry);
	}

	seedReports(data, origin);
	return data;
}

/** A few reports per reporting-level asset: recent ones (E22 lists them), older ones, and one failure. */
function seedReports(data: FleetData, origin: number): void {
	const reportable = [...data.assets.values()].filter(
		(a) =>
			a.assetType !== 'PowerTrain' &&
			a.subscriptions.some((s) => s.level !== 'Entry' && s.endAt > origin) &&
			origin - a.createdOn > 30 * DAY,
	);
	for (const asset of reportable.slice(0, 12)) {
		const org = data.orgs.get(asset.orgId);
		for (const [daysAgo, status] of [
			[2, 'Created'],
			[5, 'Failed'],
			[20, 'Created'],
		] as const) {
			const createdOn = origin - daysAgo * DAY;
			const id = data.ids.report++;
			data.reports.set(id, {
				id,
				orgId: asset.orgId,
				assetIds: [asset.id],
				title: `${asset.name} monthly report`,
				subTitle: 'Operating summary',
				reportType: 'UserDriveReport',
				// The failed one covers a period before the asset existed: the documented failure rule.
				start: status === 'Failed' ? asset.createdOn - 40 * DAY : createdOn - 31 * DAY,
				end: status === 'Failed' ? asset.createdOn - 10 * DAY : createdOn - DAY,
				status,
				createdOn,
				createdUser: org?.adminUserName ?? 'API user',
				readyAt: createdOn + 60_000,
				failReason:
					status === 'Failed' ? 'no data was collected for the assets in the period' : null,
			});
		}
	}
}
