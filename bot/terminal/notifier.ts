import type { Notice, Notifier, Posted } from '../kernel/notice';
import { ACK_ACTION, MUTE_ACTION } from '../blocks/alert';
import { noticeMessage } from '../blocks/notice';
import { messageToText } from '../render/text';

/** Alerts printed as they happen: the embedded mode's stand-in for Slack. */
export class TerminalNotifier implements Notifier {
	private seq = 0;

	constructor(
		private readonly write: (text: string) => void,
		private readonly timeZone: string,
		private readonly command: string,
	) {}

	private render(notice: Notice): string {
		return messageToText(noticeMessage(notice, this.timeZone), (action, value) =>
			action === ACK_ACTION
				? '[Acknowledge: in Slack]'
				: action === MUTE_ACTION
					? `[Mute: ${this.command} mute ${value.split(',')[0]} 2h]`
					: `[Details: ${this.command} status ${value}]`,
		);
	}

	async post(channel: string, notice: Notice, threadTs?: string): Promise<Posted> {
		const ts = `${Math.floor(Date.now() / 1000)}.${String(++this.seq).padStart(6, '0')}`;
		const where = threadTs ? `${channel}, in thread ${threadTs}` : channel;
		this.write(`\n[${where}] message ${ts}\n${this.render(notice)}\n`);
		return { ts, channelId: channel };
	}

	async update(channelId: string, ts: string, notice: Notice): Promise<void> {
		this.write(`\n[${channelId}] message ${ts} updated\n${this.render(notice)}\n`);
	}
}
