/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Posted } from '../kernel/notice';
import { messageToText, mrkdwnToText } from '../render/text';
import type { Publisher, OutgoingFile } from '../kernel/publisher';
import type { SlackMessage } from '../kernel/message';

/** Reports and charts in the terminal: messages printed, files saved in a folder and named. */
export class TerminalPublisher implements Publisher {
	private seq = 0;

	constructor(
		private readonly write: (text: string) => void,
		private readonly folder: string,
	) {}

	async post(channel: string, message: SlackMessage, threadTs?: string): Promise<Posted> {
		const ts = `${Math.floor(Date.now() / 1000)}.${String(++this.seq).padStart(6, '0')}`;
		this.write(
			`\n[${threadTs ? `${channel}, in thread ${threadTs}` : channel}] message ${ts}\n${messageToText(message, () => '')}\n`,
		);
		return { ts, channelId: channel };
	}

	async update(channelId: string, ts: string, message: SlackMessage): Promise<void> {
		this.write(`\n[${channelId}] message ${ts} updated\n${messageToText(message, () => '')}\n`);
	}

	async upload(
		channelId: string,
		file: OutgoingFile,
		comment: string,
		threadTs?: string,
	): Promise<undefined> {
		const target = path.join(this.folder, path.basename(file.filename));
		writeFileSync(target, file.data);
		this.write(
			`\n[${threadTs ? `${channelId}, in thread ${threadTs}` : channelId}] ${mrkdwnToText(comment)}\n  file: ${target} (${Math.ceil(file.data.length / 1024)} kB)\n`,
		);
		return undefined;
	}
}
