import { withoutCharts } from '../blocks/kit';
import { type BotLogger, errorText } from '../log';
import type { SlackMessage } from '../kernel/message';

/**
 * Sends an answer; when Slack refuses it and it holds a chart block, sends it again without the
 * chart (the PNG and the text chart stay). Other failures reach the caller.
 */
export async function sendAnswer(
	message: SlackMessage,
	send: (m: SlackMessage) => Promise<unknown>,
	logger: BotLogger,
): Promise<void> {
	await send(message).catch((error: unknown) => {
		const plain = withoutCharts(message);
		if (!plain) throw error;
		logger.warn(`slack: chart block refused (${errorText(error)}); answered without it`);
		return send(plain);
	});
}
