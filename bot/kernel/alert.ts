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
	/** The PowerTrain this drive or motor belongs to (inhibition shows both under its name). */
	powerTrain?: { id: number; name: string };
}

/** Who took an alert (Acknowledge, or a later take-over). Persisted by bot/oncall. */
export interface AckInfo {
	userId: string;
	/** Epoch ms. */
	at: number;
	/** Earlier holders, oldest first, when someone took it over. */
	previous: Array<{ userId: string; at: number }>;
}

/** A button that opens a page (asset page, runbook). */
export interface LinkButton {
	text: string;
	url: string;
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
	/** Filled when the alert is rendered (never stored with the event): on-call state and links. */
	ack?: AckInfo;
	links?: LinkButton[];
	/** Epoch ms until which the alert's asset is muted, when it is. */
	mutedUntil?: number;
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

export interface SilenceSummary {
	scope: string;
	reason?: string;
	from: number;
	until: number;
	endedBy?: string;
	/** Alerts recorded (not posted) during the silence, with their state when it ended. */
	alerts: AlertRecord[];
}

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
