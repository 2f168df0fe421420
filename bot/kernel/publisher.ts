import type { Posted } from './notice';
import type { SlackMessage } from './message';

export interface OutgoingFile {
	data: Buffer;
	filename: string;
	title: string;
	/** Shown to screen readers (images). */
	altText?: string;
}

/**
 * Where reports and charts go: messages the bot posts and updates itself (not alerts: those go
 * through the outbox), and files uploaded with files.uploadV2. Slack, or the terminal.
 */
export interface Publisher {
	post(channel: string, message: SlackMessage, threadTs?: string): Promise<Posted>;
	update(channelId: string, ts: string, message: SlackMessage): Promise<void>;
	/** Uploads a file into a channel (in a thread when threadTs is given), with a comment; answers the file's id where there is one. */
	upload(
		channelId: string,
		file: OutgoingFile,
		comment: string,
		threadTs?: string,
	): Promise<string | undefined>;
}
