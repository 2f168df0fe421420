/**
 * The part of the core client (`createClient` from shared/) the bot calls, with the fields it
 * reads, nullable as the core's schemas emit them. The real client satisfies it structurally;
 * keeping the dependency this narrow documents exactly what the bot needs from the platform.
 */
type Text = string | null;

export interface AssetListItem {
	id: number;
	name: Text;
	serialNumber: Text;
	organizationId: number | null;
	organizationName: Text;
	assetGroupId: number | null;
	assetGroupName: Text;
	assetType: string;
	subAssets: AssetListItem[] | null;
}

export interface AssetDetail {
	id: number;
	name: Text;
	serialNumber: Text;
	assetType: string | null;
	organization: Text;
	assetGroup: Text;
	plant: Text;
	modelType: Text;
	firmwareVersion: Text;
	latestDataReceived: Text;
	/** Reports need an asset at least 7 days old (E21). */
	createdOn?: Text;
	/** Connectivity messages name the gateway the offline assets share. */
	gatewaySerialNumber?: Text;
}

export interface PlatformEvent {
	id: number | string;
	eventType: string;
	eventCode?: Text;
	eventDateTime?: Text;
	eventStatus: string;
	content?: Text;
	closeReason?: Text;
	closeAt?: Text;
	deviceWorkStatus?: number | null;
	isHasEventLogger?: boolean | null;
}

export interface Condition {
	type: string;
	status: string;
}

export interface CbmKpi {
	date: Text;
	kpi: number | null;
}

export interface CbmResult {
	deviceUnitType: string;
	deviceUnitStatus: string;
	predictedNoPlanDate?: Text;
	predictedStartPlanDate?: Text;
	predictedRunPlanDate?: Text;
	deviceDayKPIs?: CbmKpi[] | null;
}

export interface AssetSubscription {
	level: Text;
	status: Text;
}

export interface OrgNode {
	orgId: number;
	orgName: Text;
	orgType: Text;
	subOrgs: OrgNode[];
}

/** E21, E22 (Report) and E23 (Report download); reports in Slack (issue 16). */
export interface PlatformReport {
	id: number;
	title: Text;
	reportType?: string | null;
	startDateTime: Text;
	endDateTime: Text;
	status: string;
	createdOn: Text;
}

export interface ReportDownloadLink {
	id: number;
	fileTemplink: Text;
	status?: string | null;
}

export interface ParamConfig {
	name: Text;
	code: string;
	label: Text;
	unit: Text;
}

/** E17 series: `null` where the platform wrote `-` (no value at that point). */
export interface ParamSeries {
	config: ParamConfig;
	avg: Array<number | null>;
	max: Array<number | null>;
	min: Array<number | null>;
	value: Array<number | null>;
	timestamp: number[];
}

type Time = Date | string;

export interface DrivePlatform {
	organization: {
		getNodes(): Promise<OrgNode>;
		listAssets(input: { orgId: number }): Promise<AssetListItem[]>;
	};
	assets: {
		get(input: { id: number }): Promise<AssetDetail>;
		listSubscriptions(input: { assetId: number }): Promise<AssetSubscription[]>;
	};
	assetData: {
		listEvents(input: {
			assetId: number;
			startTime: Time;
			endTime: Time;
		}): Promise<PlatformEvent[]>;
		getConditions(input: { assetId: number }): Promise<Condition[]>;
		getCbm(input: { assetId: number }): Promise<CbmResult[]>;
		createReport(input: {
			assetIds: number[];
			title: string;
			subTitle?: string;
			reportType: 'UserDriveReport' | 'UserFleetReport';
			startDate: string;
			endDate: string;
		}): Promise<PlatformReport>;
		listReports(input: { assetId: number }): Promise<PlatformReport[]>;
		getReportDownload(input: { assetId: number; reportId: number }): Promise<ReportDownloadLink>;
		getTrendSignalConfig(input: {
			assetId: number;
		}): Promise<{ trends: ParamConfig[]; signals: ParamConfig[] }>;
		queryTrendSignalData(input: {
			assetId: number;
			parameters: string[];
			startTime: Time;
			endTime: Time;
		}): Promise<{ paramDatas: ParamSeries[] }>;
	};
	files: {
		/** A temporary link (E15, E23), fetched without the bearer token. */
		download(url: string): Promise<{ data: Buffer; fileName: string; mimeType: string }>;
	};
	ranges: {
		events(input: { assetId: number; startTime: Time; endTime: Time }): Promise<PlatformEvent[]>;
	};
}
