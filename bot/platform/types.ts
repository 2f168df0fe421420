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
    listEvents(input: { assetId: number; startTime: Time; endTime: Time }): Promise<PlatformEvent[]>;
    getConditions(input: { assetId: number }): Promise<Condition[]>;
    getCbm(input: { assetId: number }): Promise<CbmResult[]>;
  };
  ranges: {
    events(input: { assetId: number; startTime: Time; endTime: Time }): Promise<PlatformEvent[]>;
  };
}
