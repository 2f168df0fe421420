import type { Level } from '../../shared/spec';

/** The simulator's records. Times are epoch milliseconds on the simulated clock. */

export type OrgType = 'VENDOR' | 'CP' | 'EU';
export type AssetType = 'Drive' | 'Motor' | 'PowerTrain';
export type GatewayName = 'NETA21' | 'IOTPanel';

export interface OrgRec {
	id: number;
	name: string;
	orgType: OrgType;
	industry: string;
	province: string;
	city: string;
	district: string;
	address: string;
	contact: string;
	phone: string;
	/** EU only: the CPs this EU authorized to serve it. */
	authorizedCpIds: number[];
	apiKey: string;
	apiSecret: string;
	apiAccessEnabled: boolean;
	/** The organization's administrator, as CreatedUserId/CreatedUser. */
	adminUserId: number;
	adminUserName: string;
	adminUserPhone: string;
}

export interface GroupRec {
	id: number;
	orgId: number;
	name: string;
}

export interface PlantRec {
	id: number;
	orgId: number;
	name: string;
	province: string;
	city: string;
	district: string;
	address: string;
	latitude: number;
	longitude: number;
	zipCode: string;
	description: string;
	createdOn: number;
}

export interface SubscriptionRec {
	id: number;
	code: string;
	type: 'Official' | 'Trial' | 'Taste';
	level: Level;
	/** Months. */
	period: number;
	/** When it becomes Activated (a renewal bound while another runs starts when that one ends). */
	startAt: number;
	endAt: number;
}

export interface ExpertServiceRec {
	serviceStatus: 0 | 1 | 2 | 3;
	serviceType: 0 | 1 | 2;
	contractStart: number;
	contractEnd: number;
}

export interface AssetRec {
	id: number;
	orgId: number;
	groupId: number;
	plantId: number;
	name: string;
	serialNumber: string;
	assetType: AssetType;
	modelType: string;
	firmwareVersion: string;
	gatewayType: GatewayName;
	gatewaySerialNumber: string;
	simIccid: string;
	createdOn: number;
	/** Null for assets added before CreatedUserId was introduced (the spec's "fixed introduction date"). */
	createdUserId: number | null;
	createdUserPhone: string | null;
	expertService: ExpertServiceRec;
	subscriptions: SubscriptionRec[];
	/** PowerTrain: ids of its drive and motor. */
	memberIds: number[] | null;
	/** Drive or motor inside a PowerTrain. */
	powerTrainId: number | null;
	longitude: string;
	latitude: string;
}

export interface CodeRec {
	code: string;
	level: Level;
	type: 'Official' | 'Trial' | 'Taste';
	assetType: 'Drive' | 'Motor';
	period: number;
	expiresAt: number;
	usedByAssetId: number | null;
}

export interface RegistryEntry {
	serialNumber: string;
	modelType: string;
	firmwareVersion: string;
}

export interface ReportRec {
	id: number;
	orgId: number;
	assetIds: number[];
	title: string;
	subTitle: string;
	reportType: 'UserDriveReport' | 'UserFleetReport';
	start: number;
	end: number;
	status: 'Failed' | 'Creating' | 'Created';
	createdOn: number;
	createdUser: string;
	readyAt: number;
	failReason: string | null;
}

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

/** CBM-capable drive families (the spec: "supported only for two drive model families"). */
export const CBM_FAMILIES = ['ACS880', 'ACS580'] as const;

export function modelFamily(modelType: string): string {
	return modelType.split('-')[0];
}

export function isCbmCapable(asset: Pick<AssetRec, 'assetType' | 'modelType'>): boolean {
	return (
		asset.assetType === 'Drive' &&
		(CBM_FAMILIES as readonly string[]).includes(modelFamily(asset.modelType))
	);
}
