import { webApi } from '@slack/bolt';
import { noticeMessage } from '../blocks/notice';
import { type Notice, type NoticeSink, type Posted, PermanentSinkError, RateLimitedError } from '../alerts/sink';
import { slackRateLimitedCall } from '../ops/metrics';

const PERMANENT = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_too_long',
  'no_text',
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'missing_scope',
  'cant_update_message',
  'message_not_found',
]);

/**
 * The Web API client for alerts. It rejects rate-limited calls instead of waiting inside the
 * client (which would hold every channel); the dispatcher waits per channel.
 */
export function createAlertClient(token: string, slackApiUrl?: string): webApi.WebClient {
  return new webApi.WebClient(token, {
    slackApiUrl,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2000 },
    logLevel: webApi.LogLevel.ERROR,
  });
}

function translate(error: unknown): Error {
  const e = error as { code?: string; retryAfter?: number; data?: { error?: string }; message?: string };
  if (e.code === webApi.ErrorCode.RateLimitedError) slackRateLimitedCall();
  if (e.code === webApi.ErrorCode.RateLimitedError) return new RateLimitedError(Math.max(1, e.retryAfter ?? 1) * 1000);
  if (e.code === webApi.ErrorCode.PlatformError && e.data?.error && PERMANENT.has(e.data.error)) {
    return new PermanentSinkError(`Slack refused the call: ${e.data.error}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

export class SlackNoticeSink implements NoticeSink {
  constructor(
    private readonly client: webApi.WebClient,
    private readonly timeZone: string,
  ) {}

  async post(channel: string, notice: Notice, threadTs?: string): Promise<Posted> {
    const message = noticeMessage(notice, this.timeZone);
    try {
      const result = await this.client.chat.postMessage({ channel, text: message.text, blocks: message.blocks, thread_ts: threadTs, unfurl_links: false });
      return { ts: result.ts as string, channelId: (result.channel as string | undefined) ?? channel };
    } catch (error) {
      throw translate(error);
    }
  }

  async update(channel: string, ts: string, notice: Notice): Promise<void> {
    const message = noticeMessage(notice, this.timeZone);
    try {
      await this.client.chat.update({ channel, ts, text: message.text, blocks: message.blocks });
    } catch (error) {
      throw translate(error);
    }
  }
}
