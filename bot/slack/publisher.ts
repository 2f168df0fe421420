/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { webApi } from '@slack/bolt';
import type { Posted } from '../kernel/notice';
import type { Publisher, OutgoingFile } from '../kernel/publisher';
import type { SlackMessage } from '../kernel/message';

/**
 * The Web API client for reports and charts: unlike the alerts' client it waits out a 429 itself
 * (Retry-After), as these are single user-facing calls and no channel queue stands behind them.
 */
export function createPublisherClient(token: string, slackApiUrl?: string): webApi.WebClient {
	return new webApi.WebClient(token, {
		slackApiUrl,
		retryConfig: { retries: 5, factor: 2, minTimeout: 500, maxTimeout: 10_000 },
		logLevel: webApi.LogLevel.ERROR,
	});
}

/** Reports and charts in Slack: chat.postMessage/update and files.uploadV2 (the only upload Slack keeps). */
export class SlackPublisher implements Publisher {
	constructor(private readonly client: webApi.WebClient) {}

	async post(channel: string, message: SlackMessage, threadTs?: string): Promise<Posted> {
		const result = await this.client.chat.postMessage({
			channel,
			text: message.text,
			blocks: message.blocks,
			thread_ts: threadTs,
			unfurl_links: false,
		});
		return {
			ts: result.ts as string,
			channelId: (result.channel as string | undefined) ?? channel,
		};
	}

	async update(channelId: string, ts: string, message: SlackMessage): Promise<void> {
		await this.client.chat.update({
			channel: channelId,
			ts,
			text: message.text,
			blocks: message.blocks,
		});
	}

	async upload(
		channelId: string,
		file: OutgoingFile,
		comment: string,
		threadTs?: string,
	): Promise<string | undefined> {
		const common = {
			channel_id: channelId,
			file: file.data,
			filename: file.filename,
			title: file.title,
			initial_comment: comment,
			alt_text: file.altText,
		};
		const result = await this.client.files.uploadV2(
			threadTs ? { ...common, thread_ts: threadTs } : common,
		);
		// One files.completeUploadExternal answer per upload, each listing the files it completed.
		return (result as { files?: Array<{ files?: Array<{ id?: string }> }> }).files?.[0]?.files?.[0]
			?.id;
	}
}
