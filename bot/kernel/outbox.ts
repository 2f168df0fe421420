import type { AlertRecord, CatchUpSummary, CbmAlert, SilenceSummary } from './alert';
import type { Outage } from './outage';

/** What the outbox holds: one Slack call (or a few, under one kind) to make, persisted until Slack accepted it. */
export type OutboxItem =
	| { kind: 'alert'; alert: AlertRecord }
	| { kind: 'resolve'; alert: AlertRecord }
	| { kind: 'cbm'; cbm: CbmAlert }
	| { kind: 'cbm_good'; cbm: CbmAlert }
	| { kind: 'cbm_digest'; units: CbmAlert[]; day: string }
	/** A connectivity message posted or updated; `returned`: asset ids back since the last (thread reply). */
	| { kind: 'connectivity'; outage: Outage; returned: number[] }
	/** Re-render every message showing this alert (acknowledged, taken over, muted). */
	| { kind: 'refresh'; key: string }
	/** A thread reply re-announcing an open, unacknowledged fault, mentioning the on-call. */
	| { kind: 'reminder'; key: string; level: 'remind' | 'escalate'; mentions: string[] }
	/** What happened during a silence that ended, and what is still open. */
	| { kind: 'silence_summary'; summary: SilenceSummary }
	/** What happened while the bot was away, one per channel (B47): `keys` of every alert it covers. */
	| { kind: 'catch_up'; summary: CatchUpSummary; keys: string[] }
	/** Polling is late (B48): posted once when the lag crosses the threshold. */
	| { kind: 'source_lag'; text: string };
