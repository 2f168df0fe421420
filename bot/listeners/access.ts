import type { BotConfig } from '../config/schema';

/** The allow-lists: a reason to refuse, or undefined when the caller may use the bot here. */
export function refusal(
	allow: BotConfig['allow'],
	where: { channel?: string; user?: string },
): string | undefined {
	if (allow.users.length > 0 && !allow.users.includes(where.user ?? ''))
		return 'You are not on the list of people who may use this command. Ask your Slack admin.';
	if (allow.channels.length > 0 && !allow.channels.includes(where.channel ?? ''))
		return 'This command is not enabled in this channel. Try it in one of the maintenance channels.';
	return undefined;
}

/** `--channel` (or `--public`) at the end of the text posts the answer for everyone. */
export function splitVisibility(
	text: string,
	inChannelByDefault: boolean,
): { text: string; inChannel: boolean } {
	const flag = /\s*--(channel|public)\s*$/i;
	return flag.test(text)
		? { text: text.replace(flag, ''), inChannel: true }
		: { text, inChannel: inChannelByDefault };
}
