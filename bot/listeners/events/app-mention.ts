/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { App } from '@slack/bolt';
import { commandMessage } from '../../blocks/command';
import { esc, section } from '../../blocks/kit';
import { refusal } from '../access';
import type { ListenerDeps } from '../deps';
import { sendAnswer } from '../send';
import type { SlackMessage } from '../../kernel/message';

/** `@Drive Monitoring status pump 3` in a channel: the same commands, answered in the thread. */
export function registerAppMention(app: App, { commands, config, logger }: ListenerDeps): void {
	app.event('app_mention', async ({ event, say }) => {
		const refused = refusal(config.allow, { channel: event.channel, user: event.user });
		const text = event.text.replace(/<@[A-Z0-9]+>/g, '').trim();
		const message: SlackMessage = refused
			? { text: refused, blocks: [section(esc(refused))] }
			: commandMessage(
					await commands.handle(text, { channel: event.channel, user: event.user }),
					config.timeZone,
				);
		await sendAnswer(
			message,
			(m) =>
				say({
					text: m.text,
					blocks: m.blocks,
					attachments: m.attachments,
					thread_ts: event.thread_ts ?? event.ts,
				}),
			logger,
		);
	});
}
