/** What the bot knows about an asset when it posts about it. */
export interface AssetRef {
  id: number;
  name: string;
  serialNumber: string;
  organization: string;
  organizationId?: number;
  group: string;
  groupId?: number;
  plant: string;
}

/** One platform event as an alert (persisted in the state database and the outbox). */
export interface AlertRecord {
  key: string;
  eventId: string;
  severity: string;
  asset: AssetRef;
  code: string;
  content: string;
  /** ISO 8601 UTC. */
  eventTime: string;
  status: 'Open' | 'Close';
  closeReason?: string;
  closeAt?: string;
  /** 0 unknown, 1 running, 2 standby. */
  deviceWorkStatus?: number;
  hasLogger: boolean;
}

export interface CbmAlert {
  key: string;
  asset: AssetRef;
  unit: string;
  status: string;
  previous?: string;
  predictedNoPlanDate?: string;
  predictedStartPlanDate?: string;
  predictedRunPlanDate?: string;
  /** The latest 30 days, oldest first. */
  kpis: Array<{ date: string; kpi: number }>;
}

export type OutboxItem =
  | { kind: 'alert'; alert: AlertRecord }
  | { kind: 'resolve'; alert: AlertRecord }
  | { kind: 'cbm'; cbm: CbmAlert }
  | { kind: 'cbm_good'; cbm: CbmAlert }
  | { kind: 'cbm_digest'; units: CbmAlert[]; day: string }
  /** What happened while the bot was away, one per channel (B47): `keys` of every alert it covers. */
  | { kind: 'catch_up'; summary: CatchUpSummary; keys: string[] }
  /** Polling is late (B48): posted once when the lag crosses the threshold. */
  | { kind: 'source_lag'; text: string };

export interface CatchUpSummary {
  /** ISO 8601 UTC: the start of the period covered. */
  since: string;
  total: number;
  stillOpen: number;
  bySeverity: Record<string, number>;
  /** The most recent ones, newest first (the rest are counted). */
  listed: AlertRecord[];
}

export function eventKey(assetId: number, eventId: string | number): string {
  return `${assetId}:${eventId}`;
}

export function cbmKey(assetId: number, unit: string): string {
  return `${assetId}:${unit}`;
}

/** CBM colours take the event severities in routing: Red is a Fault, Yellow a Warning. */
export function cbmSeverity(status: string): 'Fault' | 'Warning' {
  return status === 'Red' ? 'Fault' : 'Warning';
}
