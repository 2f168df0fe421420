/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { App, BlockButtonAction } from '@slack/bolt';
import { ACK_ACTION, ACK_LABEL, MUTE_ACTION, splitValue } from '../../blocks/alert';
import { errorText } from '../../log';
import { platformErrorText } from '../../render/errors';
import { refusal } from '../access';
import type { ListenerDeps } from '../deps';

/**
 * Acknowledge / Take over and Mute 2 h on an alert. The choice is persisted and the message is
 * updated through the outbox (so it survives a crash); the clicker gets a sentence back. A payload Slack
 * delivers twice (a retry, two replicas) reaches these once (once.ts).
 */
export function registerOnCallActions(app: App, { config, logger, oncall }: ListenerDeps): void {
	const reply = async (respond: (m: object) => Promise<unknown>, text: string, what: string) =>
		respond({ response_type: 'ephemeral', replace_original: false, text }).catch((error: unknown) =>
			logger.error(`slack: answer to ${what} not delivered (${errorText(error)})`),
		);
	// A choice that could not be recorded (the bot's database away) is answered with why, not left without an answer.
	const attempt = (work: () => Promise<string>, what: string): Promise<string> =>
		work().catch((error: unknown) => {
			logger.error(`slack: ${what} not recorded (${errorText(error)})`);
			return platformErrorText(error);
		});

	app.action<BlockButtonAction>(ACK_ACTION, async ({ ack, body, action, respond }) => {
		await ack();
		const refused = refusal(config.allow, { channel: body.channel?.id, user: body.user.id });
		// The label the presser saw: Acknowledge takes only what nobody holds (someone may have taken it a moment
		// before, on another replica); Take over (or a message from before labels counted) takes it from its holder.
		const intent = action.text?.text === ACK_LABEL ? 'acknowledge' : 'take-over';
		const text =
			refused ??
			(oncall
				? await attempt(
						async () => (await oncall.take(splitValue(action.value), body.user.id, intent)).text,
						'Acknowledge',
					)
				: 'The bot is still starting; try again in a moment.');
		await reply(respond, text, 'Acknowledge');
	});

	app.action<BlockButtonAction>(MUTE_ACTION, async ({ ack, body, action, respond }) => {
		await ack();
		const refused = refusal(config.allow, { channel: body.channel?.id, user: body.user.id });
		const ids = splitValue(action.value).map(Number).filter(Number.isInteger);
		const text =
			refused ??
			(oncall
				? await attempt(() => oncall.muteAssets(ids, body.user.id), 'Mute 2 h')
				: 'The bot is still starting; try again in a moment.');
		await reply(respond, text, 'Mute 2 h');
	});

	// Link buttons open their page in the browser; Slack still sends an action to acknowledge.
	app.action(/^link:\d+$/, async ({ ack }) => {
		await ack();
	});
}
