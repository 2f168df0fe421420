/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { webApi } from '@slack/bolt';
import { noticeMessage } from '../blocks/notice';
import {
	METADATA_TYPE,
	type Notice,
	noticeEvents,
	type Notifier,
	type Posted,
	PermanentSlackError,
	SlackRateLimitedError,
} from '../kernel/notice';
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
export function createNotifierClient(token: string, slackApiUrl?: string): webApi.WebClient {
	return new webApi.WebClient(token, {
		slackApiUrl,
		rejectRateLimitedCalls: true,
		// No retry of its own: a post or update whose answer was lost (connection reset, timeout) may have been made, and
		// the WebClient would make it again. The outbox retries it instead, looking for it in Slack first.
		retryConfig: { retries: 0 },
		logLevel: webApi.LogLevel.ERROR,
	});
}

function translate(error: unknown): Error {
	const e = error as {
		code?: string;
		retryAfter?: number;
		data?: { error?: string };
		message?: string;
	};
	if (e.code === webApi.ErrorCode.RateLimitedError) slackRateLimitedCall();
	if (e.code === webApi.ErrorCode.RateLimitedError)
		return new SlackRateLimitedError(Math.max(1, e.retryAfter ?? 1) * 1000);
	if (e.code === webApi.ErrorCode.PlatformError && e.data?.error && PERMANENT.has(e.data.error)) {
		return new PermanentSlackError(`Slack refused the call: ${e.data.error}`);
	}
	return error instanceof Error ? error : new Error(String(error));
}

const CHANNEL_ID = /^[CGD][A-Z0-9]{6,}$/;
/** A user (U…, W…) or user group (S…) id. */
const MENTION_ID = /^[UWS][A-Z0-9]{2,}$/;

/** Message metadata (assumption B11): the call's tag and the event ids the message shows. */
function metadataOf(notice: Notice, tag: string) {
	const events = noticeEvents(notice);
	return {
		event_type: METADATA_TYPE,
		event_payload: {
			call: tag,
			alerts: events.alerts.join(','),
			resolved: events.resolved.join(','),
		},
	};
}
/** Pages of history read when looking for a post whose answer was lost (200 messages each). */
const FIND_PAGES = 5;

interface FoundMessage {
	ts?: string;
	metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
}

export class SlackNotifier implements Notifier {
	private readonly channelIds = new Map<string, string>();
	private groups: { at: number; byHandle: Map<string, string> } | undefined;

	constructor(
		private readonly client: webApi.WebClient,
		private readonly timeZone: string,
	) {}

	async post(channel: string, notice: Notice, threadTs?: string, tag?: string): Promise<Posted> {
		const message = noticeMessage(
			notice.kind === 'reminder'
				? { ...notice, mentions: await this.mentionIds(notice.mentions) }
				: notice,
			this.timeZone,
		);
		// Every post carries its call's tag and the event ids it shows (assumption B11).
		const metadata = tag === undefined ? undefined : metadataOf(notice, tag);
		try {
			const result = await this.client.chat.postMessage({
				channel,
				text: message.text,
				blocks: message.blocks,
				thread_ts: threadTs,
				unfurl_links: false,
				metadata,
			});
			const posted = {
				ts: result.ts as string,
				channelId: (result.channel as string | undefined) ?? channel,
			};
			this.channelIds.set(channel, posted.channelId);
			return posted;
		} catch (error) {
			throw translate(error);
		}
	}

	async find(
		channel: string,
		channelId: string | undefined,
		tag: string,
		threadTs: string | undefined,
		since: number,
	): Promise<Posted | undefined> {
		try {
			const id =
				channelId ??
				this.channelIds.get(channel) ??
				(CHANNEL_ID.test(channel) ? channel : await this.lookUpChannel(channel));
			if (id === undefined) return undefined;
			let cursor: string | undefined;
			for (let page = 0; page < FIND_PAGES; page++) {
				const answer = threadTs
					? await this.client.conversations.replies({
							channel: id,
							ts: threadTs,
							include_all_metadata: true,
							limit: 200,
							cursor,
						})
					: await this.client.conversations.history({
							channel: id,
							oldest: String(Math.floor(since / 1000) - 60),
							include_all_metadata: true,
							limit: 200,
							cursor,
						});
				const hit = (answer.messages as FoundMessage[] | undefined)?.find(
					(m) => m.metadata?.event_type === METADATA_TYPE && m.metadata.event_payload?.call === tag,
				);
				if (hit?.ts) return { ts: hit.ts, channelId: id };
				cursor = answer.response_metadata?.next_cursor || undefined;
				if (!cursor) break;
			}
			return undefined;
		} catch (error) {
			throw translate(error);
		}
	}

	async updated(channelId: string, ts: string, tag: string): Promise<boolean> {
		try {
			const answer = await this.client.conversations.history({
				channel: channelId,
				oldest: ts,
				latest: ts,
				inclusive: true,
				include_all_metadata: true,
				limit: 1,
			});
			const message = (answer.messages as FoundMessage[] | undefined)?.find((m) => m.ts === ts);
			return (
				message?.metadata?.event_type === METADATA_TYPE &&
				message.metadata.event_payload?.call === tag
			);
		} catch (error) {
			throw translate(error);
		}
	}

	/**
	 * Mentions as ids: a user group handle (`@maint-oncall`, `maint-oncall`) becomes its S… id from
	 * usergroups.list, so Slack notifies its members; ids pass through; an unknown handle stays text.
	 */
	private async mentionIds(mentions: readonly string[]): Promise<string[]> {
		if (mentions.every((m) => MENTION_ID.test(m))) return [...mentions];
		if (this.groups === undefined || Date.now() - this.groups.at > 10 * 60_000) {
			try {
				const answer = await this.client.usergroups.list({ include_disabled: false });
				this.groups = {
					at: Date.now(),
					byHandle: new Map(
						(answer.usergroups ?? []).map((g) => [String(g.handle).toLowerCase(), String(g.id)]),
					),
				};
			} catch (error) {
				const translated = translate(error);
				if (!(translated instanceof PermanentSlackError)) throw translated;
				this.groups = { at: Date.now(), byHandle: new Map() };
			}
		}
		return mentions.map((m) =>
			MENTION_ID.test(m) ? m : (this.groups?.byHandle.get(m.replace(/^@/, '').toLowerCase()) ?? m),
		);
	}

	/** A #name's id (history needs ids): the channels the app can see. */
	private async lookUpChannel(channel: string): Promise<string | undefined> {
		const name = channel.replace(/^#/, '');
		let cursor: string | undefined;
		do {
			const answer = await this.client.conversations.list({
				types: 'public_channel,private_channel',
				exclude_archived: true,
				limit: 1000,
				cursor,
			});
			const hit = answer.channels?.find((c) => c.name === name);
			if (hit?.id) {
				this.channelIds.set(channel, hit.id);
				return hit.id;
			}
			cursor = answer.response_metadata?.next_cursor || undefined;
		} while (cursor);
		return undefined;
	}

	async update(channel: string, ts: string, notice: Notice, tag?: string): Promise<void> {
		const message = noticeMessage(notice, this.timeZone);
		try {
			// The metadata follows what the message shows (a sibling merged in, a digest re-rendered), and names the call.
			await this.client.chat.update({
				channel,
				ts,
				text: message.text,
				blocks: message.blocks,
				metadata: metadataOf(notice, tag ?? 'update'),
			});
		} catch (error) {
			throw translate(error);
		}
	}
}
