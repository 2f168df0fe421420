/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { App } from '@slack/bolt';
import { commandMessage } from '../../blocks/command';
import { errorText } from '../../log';
import { refusal, splitVisibility } from '../access';
import type { ListenerDeps } from '../deps';
import { sendAnswer } from '../send';
import type { SlackMessage } from '../../kernel/message';

/**
 * `/drive <subcommand>`: acknowledged at once (Slack wants it within 3 s), answered through the
 * response URL when the platform has replied.
 */
export function registerDriveCommand(app: App, { commands, config, logger }: ListenerDeps): void {
	app.command(config.command, async ({ command, ack, respond }) => {
		const refused = refusal(config.allow, { channel: command.channel_id, user: command.user_id });
		if (refused) {
			await ack({ response_type: 'ephemeral', text: refused });
			return;
		}
		await ack();
		const { text, inChannel } = splitVisibility(command.text, config.respondInChannel);
		const result = await commands.handle(text, {
			channel: command.channel_id,
			user: command.user_id,
		});
		const message = commandMessage(result, config.timeZone);
		const send = (m: SlackMessage) =>
			respond({
				response_type: inChannel ? 'in_channel' : 'ephemeral',
				text: m.text,
				blocks: m.blocks,
				attachments: m.attachments,
			});
		await sendAnswer(message, send, logger).catch((error: unknown) =>
			logger.error(
				`slack: answer to ${config.command} ${text.split(' ')[0] ?? ''} not delivered (${errorText(error)})`,
			),
		);
	});
}
