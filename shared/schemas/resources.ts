// One schema per resource of the spec ("Resources and their fields"). Output names are the field
// tables' names in camelCase (A1, A2); types are z.infer of these schemas.
import { z } from 'zod/v4';
import {
	ASSET_TYPES,
	CBM_UNIT_STATUSES,
	CONDITION_STATUSES,
	CONDITION_TYPES,
	DEVICE_UNIT_TYPES,
	EVENT_STATUSES,
	EVENT_TYPES,
	LEVELS,
	ORG_TYPES,
	REPORT_STATUSES,
	REPORT_TYPES,
	SUB_DATA_TYPES,
	SUBSCRIPTION_STATUSES,
	SUBSCRIPTION_TYPES,
} from '../spec';
import {
	dateTime,
	epochOrNone,
	flag,
	idText,
	int,
	list,
	model,
	openEnum,
	optInt,
	optIntOrEmpty,
	optionalEnum,
	optionalObject,
	optNum,
	series,
	text,
	textish,
	textOrEmpty,
	timestamps,
} from './model';

function invert<K extends string>(table: Record<K, number>): Record<number, K> {
	return Object.fromEntries(Object.entries(table).map(([k, v]) => [v, k])) as Record<number, K>;
}

export const Organization = model({
	id: int,
	name: text,
	orgType: openEnum(ORG_TYPES),
	industry: text,
	province: text,
	city: text,
	district: text,
	address: text,
	contact: text,
	phone: text,
	serviceProviderName: text,
	serviceProviderContactName: text,
	serviceProviderContactPhone: text,
});

export const AssetGroup = model({ id: int, name: text });

export const Plant = model({
	id: int,
	name: text,
	province: text,
	city: text,
	district: text,
	address: text,
	latitude: optNum,
	longitude: optNum,
	zipCode: text,
	description: text,
	createdOn: dateTime,
});

export interface OrganizationNode {
	orgId: number;
	orgName: string | null;
	orgType: string | null;
	assetGroups: AssetGroup[];
	plants: Plant[];
	/** Served organizations (CP) or organizations below the operator (VENDOR); payloads say `serverOrgs`. */
	subOrgs: OrganizationNode[];
	[unknownField: string]: unknown;
}

export const OrganizationNode: z.ZodType<OrganizationNode> = model(
	{
		orgId: int,
		orgName: text,
		orgType: text,
		assetGroups: list(AssetGroup),
		plants: list(Plant),
		subOrgs: list(z.lazy(() => OrganizationNode)),
	},
	{ serverOrgs: 'subOrgs', subOrganizations: 'subOrgs' },
);

export interface Asset {
	id: number;
	name: string | null;
	serialNumber: string | null;
	organizationId: number | null;
	organizationName: string | null;
	assetGroupId: number | null;
	assetGroupName: string | null;
	assetType: (typeof ASSET_TYPES)[number] | (string & {});
	/** A PowerTrain's drive and motor; null for other assets. Payloads say `subDevices` (A2). */
	subAssets: Asset[] | null;
	[unknownField: string]: unknown;
}

export const Asset: z.ZodType<Asset> = model(
	{
		id: int,
		name: text,
		serialNumber: text,
		organizationId: optInt,
		organizationName: text,
		assetGroupId: optInt,
		assetGroupName: text,
		assetType: openEnum(ASSET_TYPES),
		subAssets: optionalObject(z.array(z.lazy(() => Asset))),
	},
	{ subDevices: 'subAssets' },
);

export const ExpertService = model({
	serviceStatus: optInt,
	serviceType: optInt,
	/** Epoch milliseconds (A6); null where the API says -1 (none). */
	serviceContractStartTime: epochOrNone,
	serviceContractExpiredTime: epochOrNone,
});

export const AssetDetail = model(
	{
		id: int,
		serialNumber: text,
		name: text,
		assetType: openEnum(ASSET_TYPES),
		organization: text,
		/** The group name; payloads say `assetGroup`, the field table `AssetGroup`, some answers `AssetGroupName` (A2). */
		assetGroup: text,
		plant: text,
		modelType: text,
		firmwareVersion: text,
		gatewayType: textish,
		gatewaySerialNumber: text,
		simiccid: text,
		latestDataReceived: dateTime,
		address: text,
		longitude: textish,
		latitude: textish,
		expertService: optionalObject(ExpertService),
		createdOn: dateTime,
		createdUserId: optIntOrEmpty,
		createdUserPhone: textOrEmpty,
	},
	{ assetGroupName: 'assetGroup' },
);

export const AssetSubscription = model(
	{
		id: int,
		code: text,
		type: openEnum(SUBSCRIPTION_TYPES),
		level: openEnum(LEVELS),
		status: openEnum(SUBSCRIPTION_STATUSES),
		activedDate: dateTime,
		expiredDate: dateTime,
		period: optInt,
	},
	{ activatedDate: 'activedDate' },
);

const statisticsShape = {
	orgId: optInt,
	customerCount: optInt,
	drive: optInt,
	motor: optInt,
	powertrain: optInt,
};
export const AssetStatisticsEntry = model(statisticsShape, { powerTrain: 'powertrain' });
export const AssetStatistics = model(
	{ ...statisticsShape, deviceStatistics: list(AssetStatisticsEntry) },
	{ powerTrain: 'powertrain' },
);

export const Event = model(
	{
		id: int,
		eventType: openEnum(EVENT_TYPES),
		eventCode: textish,
		eventDateTime: dateTime,
		eventStatus: openEnum(EVENT_STATUSES),
		content: text,
		closeReason: text,
		closeAt: dateTime,
		deviceWorkStatus: optInt,
		isHasEventLogger: flag,
	},
	{ hasEventLogger: 'isHasEventLogger' },
);

export const EventLoggerFile = model({ loggerId: text, loggerFile: text });

export const ParameterConfig = model({ name: text, code: z.string(), label: text, unit: text });

export const TrendSignalConfig = model({
	trends: list(ParameterConfig),
	signals: list(ParameterConfig),
});

export const ParamData = model(
	{
		config: ParameterConfig,
		avg: series,
		max: series,
		min: series,
		value: series,
		/** Epoch milliseconds of each point (numerals in the payload, A6). */
		timestamp: timestamps,
	},
	{ timestamps: 'timestamp', values: 'value' },
);

export const TrendSignalData = model({ paramDatas: list(ParamData) }, { paramData: 'paramDatas' });

export const Condition = model({
	type: openEnum(CONDITION_TYPES),
	status: openEnum(CONDITION_STATUSES),
});

export const DeviceDayKpi = model({
	/** UTC+8 date, YYYY-MM-DD. */
	date: text,
	/** 0.0 unknown, 0.01 green, 0.5 yellow, 1.0 red. */
	kpi: optNum,
});

const deviceUnitType = openEnum(
	Object.keys(DEVICE_UNIT_TYPES) as Array<keyof typeof DEVICE_UNIT_TYPES>,
	invert(DEVICE_UNIT_TYPES),
);

export const CbmResult = model({
	deviceUnitType,
	deviceUnitStatus: openEnum(CBM_UNIT_STATUSES),
	/** UTC+8 dates (YYYY-MM-DD); null where the API sends empty (the time is already past). */
	predictedNoPlanDate: textOrEmpty,
	predictedStartPlanDate: textOrEmpty,
	predictedRunPlanDate: textOrEmpty,
	deviceDayKPIs: list(DeviceDayKpi),
});

export const CommissioningDate = model(
	{
		assetId: optInt,
		deviceUnitType: optionalEnum(
			Object.keys(DEVICE_UNIT_TYPES) as Array<keyof typeof DEVICE_UNIT_TYPES>,
			invert(DEVICE_UNIT_TYPES),
		),
		commissioningDate: dateTime,
	},
	{},
);

export const Report = model({
	id: int,
	title: text,
	subTitle: text,
	reportType: optionalEnum(
		Object.keys(REPORT_TYPES) as Array<keyof typeof REPORT_TYPES>,
		invert(REPORT_TYPES),
	),
	startDateTime: dateTime,
	endDateTime: dateTime,
	status: openEnum(REPORT_STATUSES),
	createdOn: dateTime,
	createdUser: text,
});

export const ReportDownload = model(
	{ id: int, fileTemplink: text, status: optionalEnum(REPORT_STATUSES) },
	{ fileTempLink: 'fileTemplink', fileLink: 'fileTemplink' },
);

export const ParameterBackupItem = model({
	id: idText,
	/** UTC+8 wall time, `YYYY-MM-DD hh:mm:ss` (read it with utc8DateTimeToInstant). */
	backupTime: text,
	name: text,
});

export const BackupParameter = model({
	paraId: textish,
	name: text,
	value: textish,
	unit: text,
	minimum: textish,
	maximum: textish,
});

export const ParameterGroup = model({ title: text, parameters: list(BackupParameter) });
export const ParameterBackupContent = z.array(ParameterGroup);

const subDataType = openEnum(
	Object.keys(SUB_DATA_TYPES) as Array<keyof typeof SUB_DATA_TYPES>,
	invert(SUB_DATA_TYPES),
);

export const DataSubscriptionUser = model({
	id: z.string(),
	userName: text,
	/** Clear only in E26 and E30 answers; `********` elsewhere (A8). */
	password: text,
	topic: text,
	subDataTypes: list(subDataType),
	createdOn: dateTime,
});

/** The payload of operations that return nothing: `{}` (null tolerated). */
export const Empty = z.union([z.looseObject({}), z.null().transform(() => ({}))]);

export type Organization = z.infer<typeof Organization>;
export type AssetGroup = z.infer<typeof AssetGroup>;
export type Plant = z.infer<typeof Plant>;
export type ExpertService = z.infer<typeof ExpertService>;
export type AssetDetail = z.infer<typeof AssetDetail>;
export type AssetSubscription = z.infer<typeof AssetSubscription>;
export type AssetStatistics = z.infer<typeof AssetStatistics>;
export type AssetStatisticsEntry = z.infer<typeof AssetStatisticsEntry>;
export type Event = z.infer<typeof Event>;
export type EventLoggerFile = z.infer<typeof EventLoggerFile>;
export type ParameterConfig = z.infer<typeof ParameterConfig>;
export type TrendSignalConfig = z.infer<typeof TrendSignalConfig>;
export type ParamData = z.infer<typeof ParamData>;
export type TrendSignalData = z.infer<typeof TrendSignalData>;
export type Condition = z.infer<typeof Condition>;
export type DeviceDayKpi = z.infer<typeof DeviceDayKpi>;
export type CbmResult = z.infer<typeof CbmResult>;
export type CommissioningDate = z.infer<typeof CommissioningDate>;
export type Report = z.infer<typeof Report>;
export type ReportDownload = z.infer<typeof ReportDownload>;
export type ParameterBackupItem = z.infer<typeof ParameterBackupItem>;
export type BackupParameter = z.infer<typeof BackupParameter>;
export type ParameterGroup = z.infer<typeof ParameterGroup>;
export type ParameterBackupContent = z.infer<typeof ParameterBackupContent>;
export type DataSubscriptionUser = z.infer<typeof DataSubscriptionUser>;
export type Empty = z.infer<typeof Empty>;
