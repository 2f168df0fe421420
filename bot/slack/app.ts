/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { App, HTTPReceiver, LogLevel, type Logger } from '@slack/bolt';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { registerListeners, type ListenerDeps } from '../listeners';
import type { BotLogger } from '../log';

export type SlackMode =
	| { kind: 'socket'; appToken: string }
	| { kind: 'http'; signingSecret: string; port?: number; host?: string };

export interface SlackAppOptions extends ListenerDeps {
	botToken: string;
	mode: SlackMode;
	/** A Slack-compatible Web API (tests, proxies); default Slack's. */
	slackApiUrl?: string;
}

/** Bolt's logger interface over ours, so Bolt's own lines are redacted too. */
function boltLogger(logger: BotLogger): Logger {
	let level = LogLevel.INFO;
	const text = (parts: unknown[]) =>
		parts.map((p) => (typeof p === 'string' ? p : inspect(p, { depth: 3 }))).join(' ');
	return {
		debug: (...m: unknown[]) => logger.debug(`bolt: ${text(m)}`),
		info: (...m: unknown[]) => logger.info(`bolt: ${text(m)}`),
		warn: (...m: unknown[]) => logger.warn(`bolt: ${text(m)}`),
		error: (...m: unknown[]) => logger.error(`bolt: ${text(m)}`),
		setLevel: (l: LogLevel) => (level = l),
		getLevel: () => level,
		setName: () => undefined,
	};
}

/** Slack's replay window: a request timestamp more than 5 minutes from now either way is refused. */
export const REQUEST_WINDOW_SECONDS = 5 * 60;

/**
 * Bolt refuses stale timestamps but accepts ones from the future; Slack asks for the window both
 * ways, so a captured request cannot be replayed later by someone who forged its clock.
 */
function withTimestampWindow(receiver: HTTPReceiver, log: BotLogger): HTTPReceiver {
	const listener = receiver.requestListener;
	receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
		const header = req.headers['x-slack-request-timestamp'];
		const sent = Number(Array.isArray(header) ? header[0] : header);
		if (
			header !== undefined &&
			(!Number.isFinite(sent) || Math.abs(Date.now() / 1000 - sent) > REQUEST_WINDOW_SECONDS)
		) {
			log.warn(
				'slack: refused a request whose timestamp is more than 5 minutes from now (replayed or a wrong clock)',
			);
			res.writeHead(401).end();
			return;
		}
		listener(req, res);
	};
	return receiver;
}

/**
 * The Bolt app: Socket Mode (outbound only, the default for plants) or HTTP with request
 * signatures checked by Bolt's receiver.
 */
export function createSlackApp(options: SlackAppOptions): App {
	const logger = boltLogger(options.logger);
	const clientOptions = { slackApiUrl: options.slackApiUrl };
	const app =
		options.mode.kind === 'socket'
			? new App({
					token: options.botToken,
					appToken: options.mode.appToken,
					socketMode: true,
					logger,
					clientOptions,
					installerOptions: { clientOptions },
				})
			: new App({
					token: options.botToken,
					receiver: withTimestampWindow(
						new HTTPReceiver({
							signingSecret: options.mode.signingSecret,
							endpoints: '/slack/events',
							logger,
						}),
						options.logger,
					),
					logger,
					clientOptions,
				});
	app.error(async (error) => options.logger.error(`slack: listener failed (${error.message})`));
	registerListeners(app, options);
	return app;
}
