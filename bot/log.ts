/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
/** The bot's logger: one line per entry on stderr, secrets replaced before anything is written. */
export interface BotLogger {
	debug(message: string): void;
	info(message: string): void;
	warn(message: string): void;
	error(message: string): void;
}

const SECRET_PATTERNS = [
	/\bxox[a-z]-[A-Za-z0-9-]+/g,
	/\bxapp-[A-Za-z0-9-]+/g,
	/(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi,
];

/** Removes Slack tokens, bearer tokens and any extra secret (API secret, push password) given. */
export function redact(text: string, secrets: readonly string[] = []): string {
	let out = text;
	for (const pattern of SECRET_PATTERNS)
		out = out.replace(pattern, (match, prefix?: string) =>
			typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}[redacted]` : '[redacted]',
		);
	for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
	return out;
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];

export function createLogger(
	options: { level?: Level; secrets?: readonly string[]; write?: (line: string) => void } = {},
): BotLogger {
	const threshold = LEVELS.indexOf(options.level ?? 'info');
	const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
	const at = (level: Level) => (message: string) => {
		if (LEVELS.indexOf(level) < threshold) return;
		write(redact(`${new Date().toISOString()} ${level} ${message}`, options.secrets));
	};
	return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
