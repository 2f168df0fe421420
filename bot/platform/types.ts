/**
 * The part of the core client (`createClient` from shared/) the bot calls. The records are the
 * core's own types (shared/schemas), so the bot reads what the core parses; the real client
 * satisfies this structurally, and keeping the dependency this narrow documents what the bot
 * needs from the platform.
 */
import type { DownloadedFile } from '../../shared/files';
import type {
	Asset,
	AssetDetail as CoreAssetDetail,
	AssetSubscription as CoreAssetSubscription,
	CbmResult as CoreCbmResult,
	Condition as CoreCondition,
	DeviceDayKpi,
	Event,
	OrganizationNode,
	ParamData,
	ParameterConfig,
	Report,
	ReportDownload,
} from '../../shared/schemas';

/** An asset list item (E3): a PowerTrain holds its drive and motor in `subAssets`. */
export type AssetListItem = Asset;
/** An asset's detail (E8). */
export type AssetDetail = CoreAssetDetail;
/** An event, read (E14) or pushed: its id, type and status, and whatever else was sent. */
export type PlatformEvent = Pick<Event, 'id' | 'eventType' | 'eventStatus'> & Partial<Event>;
export type Condition = CoreCondition;
export type CbmKpi = DeviceDayKpi;
export type CbmResult = CoreCbmResult;
export type AssetSubscription = CoreAssetSubscription;
/** The organization tree (E2). */
export type OrgNode = OrganizationNode;
/** E21, E22 (Report) and E23 (Report download). */
export type PlatformReport = Report;
export type ReportDownloadLink = ReportDownload;
export type ParamConfig = ParameterConfig;
/** E17 series: `null` where the platform wrote `-` (no value at that point). */
export type ParamSeries = ParamData;

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
		download(url: string): Promise<DownloadedFile>;
	};
	ranges: {
		events(input: { assetId: number; startTime: Time; endTime: Time }): Promise<PlatformEvent[]>;
	};
}
