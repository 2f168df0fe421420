/** The spec's "Limits" table. */
export const LIMITS = {
	assetGroupNameMax: 20,
	assetNameMax: 30,
	serialNumberMax: 30,
	reportTitleMax: 50,
	reportSubTitleMax: 50,
	eventWindowDays: 7,
	trendSignalWindowDays: 30,
	rawDataMaxMinutes: 60,
	aggregateStepMinutes: 5,
	temporaryLinkMinutes: 10,
	reportIntervalMinDays: 7,
	reportIntervalMaxDays: 90,
	reportMinAssetAgeDays: 7,
	reportListingDays: 7,
	parameterBackupSpanDays: 365,
	dataSubscriptionUsersPerOrg: 1,
} as const;

export const API_PREFIX = '/devcenter/extapi/v1';

/** Numbers of the spec's enums in requests. */
export const GATEWAY_TYPES = { NETA21: 1, IOTPanel: 2 } as const;
export const DEVICE_UNIT_TYPES = { Fan: 1, IGBT: 2, Capacitor: 3 } as const;
export const REPORT_TYPES = { UserDriveReport: 1, UserFleetReport: 2 } as const;
export const SUB_DATA_TYPES = {
	AssetEvent: 1,
	AssetState: 2,
	AssetReport: 3,
	AssetCBM: 4,
} as const;

export const ASSET_TYPES = ['Drive', 'Motor', 'PowerTrain'] as const;
export const ORG_TYPES = ['VENDOR', 'CP', 'EU'] as const;
export const EVENT_TYPES = ['Fault', 'Warning', 'Notification'] as const;
export const EVENT_STATUSES = ['Open', 'Close'] as const;
export const CONDITION_STATUSES = ['Unknown', 'Good', 'Tolerable', 'Poor'] as const;
export const CBM_UNIT_STATUSES = ['Gray', 'Good', 'Yellow', 'Red'] as const;
export const REPORT_STATUSES = ['Failed', 'Creating', 'Created'] as const;
export const SUBSCRIPTION_TYPES = ['Official', 'Trial', 'Taste'] as const;
export const SUBSCRIPTION_STATUSES = ['Nonactivated', 'Activated', 'Expired'] as const;
