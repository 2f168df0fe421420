/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { App, BlockButtonAction } from '@slack/bolt';
import { DETAILS_ACTION } from '../../blocks/alert';
import { commandMessage } from '../../blocks/command';
import { errorText } from '../../log';
import { refusal } from '../access';
import type { ListenerDeps } from '../deps';

/** The "Details" button of an alert: the asset's status, as `/drive status` shows it, to the clicker. */
export function registerDetailsAction(app: App, { commands, config, logger }: ListenerDeps): void {
	// One Details button per asset in a message: `asset_details`, `asset_details:<n>`.
	app.action<BlockButtonAction>(
		new RegExp(`^${DETAILS_ACTION}(:\\d+)?$`),
		async ({ ack, body, action, respond }) => {
			await ack();
			const refused = refusal(config.allow, { channel: body.channel?.id, user: body.user.id });
			const message = refused
				? { text: refused, blocks: undefined }
				: commandMessage(await commands.handle(`status ${action.value ?? ''}`), config.timeZone);
			await respond({
				response_type: 'ephemeral',
				replace_original: false,
				text: message.text,
				blocks: message.blocks,
				attachments: 'attachments' in message ? message.attachments : undefined,
			}).catch((error: unknown) =>
				logger.error(
					`slack: details for asset ${action.value ?? '?'} not delivered (${errorText(error)})`,
				),
			);
		},
	);
}
