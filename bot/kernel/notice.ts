import type { Outage } from './outage';
import type { AlertRecord, CatchUpSummary, CbmAlert, SilenceSummary } from './alert';

export interface Posted {
	ts: string;
	channelId: string;
}

/** What the bot says, before it is rendered to Block Kit (Slack) or text (terminal). */
export type Notice =
	| { kind: 'alert'; alert: AlertRecord; related?: AlertRecord[] }
	| { kind: 'resolved_reply'; alert: AlertRecord }
	| { kind: 'digest'; alerts: AlertRecord[]; resolved: AlertRecord[] }
	| { kind: 'cbm'; cbm: CbmAlert }
	| { kind: 'cbm_good'; cbm: CbmAlert }
	| { kind: 'cbm_digest'; units: CbmAlert[]; day: string }
	| { kind: 'connectivity'; outage: Outage }
	| { kind: 'connectivity_back'; outage: Outage; returned: number[] }
	| { kind: 'reminder'; alert: AlertRecord; level: 'remind' | 'escalate'; mentions: string[] }
	| { kind: 'silence_summary'; summary: SilenceSummary }
	| { kind: 'catch_up'; summary: CatchUpSummary }
	| { kind: 'source_lag'; text: string };

/** Where notices go: Slack's Web API, or the terminal. */
export interface Notifier {
	/**
	 * Posts a message (in a thread when threadTs is given). Returns its ts and the channel's id:
	 * a route may name a channel (#name), but updates need the id.
	 */
	post(channel: string, notice: Notice, threadTs?: string, tag?: string): Promise<Posted>;
	/** Replaces a message's content; `tag` names the call (carried in the message metadata, as a post's is). */
	update(channelId: string, ts: string, notice: Notice, tag?: string): Promise<void>;
	/**
	 * The message a post tagged `tag` created, if Slack has it (looked for in the channel's recent
	 * history, or the thread's replies): how a call whose answer was lost is not made twice.
	 * `since` (epoch ms) is when that call was attempted. Notifiers that cannot look return undefined.
	 */
	find?(
		channel: string,
		channelId: string | undefined,
		tag: string,
		threadTs: string | undefined,
		since: number,
	): Promise<Posted | undefined>;
	/**
	 * Whether the message already shows the update tagged `tag` (its metadata names it): how an update whose answer
	 * was lost (a kill, a leader frozen mid-call) is not made a second time. Notifiers that cannot look leave it out.
	 */
	updated?(channelId: string, ts: string, tag: string): Promise<boolean>;
}

/** The Slack message metadata type every notice the bot posts carries (assumption B11). */
export const METADATA_TYPE = 'drive_monitoring_notice';

/** The event ids a notice shows, for its metadata: alerts it carries, and closes it announces. */
export function noticeEvents(notice: Notice): { alerts: string[]; resolved: string[] } {
	switch (notice.kind) {
		case 'alert':
			return {
				alerts: [notice.alert, ...(notice.related ?? [])].map((a) => a.eventId),
				resolved: [],
			};
		case 'digest':
			return {
				alerts: notice.alerts.map((a) => a.eventId),
				resolved: notice.resolved.map((a) => a.eventId),
			};
		case 'resolved_reply':
			return { alerts: [], resolved: [notice.alert.eventId] };
		default:
			return { alerts: [], resolved: [] };
	}
}

/** Thrown by the Slack notifier when Slack answered 429: only this channel waits. */
export class SlackRateLimitedError extends Error {
	constructor(readonly retryAfterMs: number) {
		super(`rate limited, retry after ${retryAfterMs} ms`);
		this.name = 'SlackRateLimitedError';
	}
}

/** Thrown by the Slack notifier for an answer that retrying will not change (channel_not_found, invalid_blocks...). */
export class PermanentSlackError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'PermanentSlackError';
	}
}
