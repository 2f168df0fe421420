import { DAY } from '../../time';
import type { GroupRec, OrgRec, PlantRec } from '../model';
import type { Seeding } from './seeding';
import { CITIES, CONTACTS, EU_NAMES, GROUP_WORDS, INDUSTRIES } from './words';

const VENDOR_ID = 1;
const FIRST_ADMIN_USER_ID = 9001;
const FIRST_PLANT_ID = 2001;

/** An end-user organization with its asset groups and its two plants. */
export interface Customer {
	org: OrgRec;
	groups: GroupRec[];
	plants: PlantRec[];
}

/**
 * The vendor, two CPs and `euCount` EUs, then each EU's groups and plants. Every EU but the
 * third authorized the first CP.
 */
export function seedOrganizations(s: Seeding, euCount: number): Customer[] {
	let adminUserId = FIRST_ADMIN_USER_ID;
	const add = (id: number, name: string, orgType: OrgRec['orgType'], authorizedCpIds: number[]) =>
		addOrg(s, { id, name, orgType, authorizedCpIds }, adminUserId++);
	add(VENDOR_ID, 'Drive Monitoring Platform', 'VENDOR', []);
	const cpServing = add(2, 'Voltline Services', 'CP', []);
	add(3, 'Ampere Field Service', 'CP', []);
	const eus: OrgRec[] = [];
	for (let i = 0; i < euCount; i++) {
		const base = EU_NAMES[i % EU_NAMES.length];
		const name = i < EU_NAMES.length ? base : `${base} ${Math.floor(i / EU_NAMES.length) + 1}`;
		eus.push(add(11 + i, name, 'EU', i === 2 ? [] : [cpServing.id]));
	}
	let plantId = FIRST_PLANT_ID;
	return eus.map((org) => ({
		org,
		groups: addGroups(s, org),
		plants: ['North Plant', 'South Plant'].map((name) => addPlant(s, org, name, plantId++)),
	}));
}

function addOrg(
	{ rnd, data }: Seeding,
	identity: Pick<OrgRec, 'id' | 'name' | 'orgType' | 'authorizedCpIds'>,
	adminUserId: number,
): OrgRec {
	const [province, city, district] = rnd.pick(CITIES);
	const contact = rnd.pick(CONTACTS);
	const org: OrgRec = {
		...identity,
		industry: identity.orgType === 'EU' ? rnd.pick(INDUSTRIES) : 'Industrial services',
		province,
		city,
		district,
		address: `${rnd.int(1, 399)} ${rnd.pick(['Binjiang Rd', 'Harbour St', 'Science Ave', 'Mill Lane'])}`,
		contact,
		phone: `+86 1${rnd.int(30, 89)}${String(rnd.int(0, 99999999)).padStart(8, '0')}`,
		apiKey: rnd.guid(),
		apiSecret: `${rnd.hex(8)}~${rnd.hex(30)}`,
		apiAccessEnabled: true,
		adminUserId,
		adminUserName: contact,
		adminUserPhone: `+86 1${rnd.int(30, 89)}${String(rnd.int(0, 99999999)).padStart(8, '0')}`,
	};
	data.orgs.set(org.id, org);
	return org;
}

/** Three to five groups, named for what they hold (Pumps, Conveyors, ...). */
function addGroups({ data }: Seeding, eu: OrgRec): GroupRec[] {
	return GROUP_WORDS.slice(0, 3 + (eu.id % 3)).map(([plural]) => {
		const group = { id: data.ids.group++, orgId: eu.id, name: plural };
		data.groups.set(group.id, group);
		return group;
	});
}

function addPlant({ rnd, data, origin }: Seeding, eu: OrgRec, name: string, id: number): PlantRec {
	const plant: PlantRec = {
		id,
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
}
