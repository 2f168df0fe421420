import type { AlertRecord, CatchUpSummary, CbmAlert } from './model';

export interface Posted {
  ts: string;
  channelId: string;
}

/** What the bot says, before it is rendered to Block Kit (Slack) or text (terminal). */
export type Notice =
  | { kind: 'alert'; alert: AlertRecord }
  | { kind: 'resolved_reply'; alert: AlertRecord }
  | { kind: 'digest'; alerts: AlertRecord[]; resolved: AlertRecord[] }
  | { kind: 'cbm'; cbm: CbmAlert }
  | { kind: 'cbm_good'; cbm: CbmAlert }
  | { kind: 'cbm_digest'; units: CbmAlert[]; day: string }
  | { kind: 'catch_up'; summary: CatchUpSummary }
  | { kind: 'source_lag'; text: string };

/** Where notices go: Slack's Web API, or the terminal. */
export interface NoticeSink {
  /**
   * Posts a message (in a thread when threadTs is given). Returns its ts and the channel's id:
   * a route may name a channel (#name), but updates need the id.
   */
  post(channel: string, notice: Notice, threadTs?: string): Promise<Posted>;
  update(channelId: string, ts: string, notice: Notice): Promise<void>;
}

/** Thrown by a sink when Slack answered 429: only this channel waits. */
export class RateLimitedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`rate limited, retry after ${retryAfterMs} ms`);
    this.name = 'RateLimitedError';
  }
}

/** Thrown by a sink for an answer that retrying will not change (channel_not_found, invalid_blocks...). */
export class PermanentSinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentSinkError';
  }
}
