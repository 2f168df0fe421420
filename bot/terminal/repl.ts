/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { createInterface } from 'node:readline';
import { commandMessage } from '../blocks/command';
import type { CommandHandler } from '../features/commands/handler';
import { messageToText } from '../render/text';

export interface ReplOptions {
	commands: CommandHandler;
	command: string;
	timeZone: string;
	input: NodeJS.ReadableStream;
	write: (text: string) => void;
	/** Called on `exit`, `quit` or the end of input. */
	onClose: () => void;
}

/**
 * The terminal's stand-in for the slash command: `/drive status pump 3` (or just
 * `status pump 3`) at the prompt, answered as Slack would render it.
 */
export function startRepl(options: ReplOptions): { close(): void } {
	const { commands, command, timeZone, write } = options;
	const rl = createInterface({ input: options.input, terminal: false });
	let queue = Promise.resolve();
	const prompt = () => write(`${command}> `);
	rl.on('line', (line) => {
		const text = line.trim();
		queue = queue.then(async () => {
			if (text === 'exit' || text === 'quit') {
				rl.close();
				return;
			}
			if (text) {
				const args = text.startsWith(command)
					? text.slice(command.length)
					: text.replace(/^\/\S+/, '');
				const result = await commands.handle(args, { channel: 'terminal', user: 'terminal' });
				write(
					`${messageToText(commandMessage(result, timeZone), (_a, value) => `[Details: ${command} status ${value}]`)}\n`,
				);
			}
			prompt();
		});
	});
	rl.on('close', () => void queue.then(options.onClose));
	write(`Type ${command} help (or just help), exit to stop.\n`);
	prompt();
	return { close: () => rl.close() };
}
