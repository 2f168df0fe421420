/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { AllMiddlewareArgs, AnyMiddlewareArgs, App } from '@slack/bolt';
import { errorText } from '../log';
import { claimPayload, forgetOldPayloads, payloadKey, releasePayload } from '../cluster/slack-once';
import type { ListenerDeps } from './deps';

/** How often a replica forgets old claims, at most (lazily, on a payload it receives). */
const FORGET_EVERY_MS = 3_600_000;

/** What a payload is, for the log: its kind, never its content. */
function kindOf(body: Record<string, unknown>): string {
	if (typeof body.command === 'string') return `command ${body.command}`;
	const event = body.event as { type?: unknown } | undefined;
	if (body.type === 'event_callback' && typeof event?.type === 'string')
		return `event ${event.type}`;
	return typeof body.type === 'string' ? body.type : 'payload';
}

/**
 * Every Slack payload acts once: commands, buttons, modals, shortcuts and events, over HTTP or Socket
 * Mode. The first replica to claim the payload's key in the shared store (Slack's event_id or trigger_id, else a
 * hash of the payload) acts on it; a copy that another replica, or this one, claimed already (a Slack retry, a
 * load balancer's second try, Socket Mode's redelivery) is acknowledged and nothing more. A listener that fails
 * frees the key again, so Slack's retry is acted on. Select-menu options are only read and need an answer of their
 * own: never claimed. Without a database (tests of the front alone), every payload is acted on.
 */
export function registerOnce(app: App, { database, logger }: ListenerDeps): void {
	if (!database) return;
	// Statements on the database itself, outside any transaction: answering Slack is no leader's duty, so the
	// leader's fence does not apply, and a claim is one statement.
	const db = database;
	let forgotAt = 0;
	const forgetLazily = () => {
		if (Date.now() - forgotAt < FORGET_EVERY_MS) return;
		forgotAt = Date.now();
		forgetOldPayloads(db).then(
			(n) => n > 0 && logger.debug(`slack: forgot ${n} payload claims older than a day`),
			(error: unknown) =>
				logger.warn(
					`slack: old payload claims not forgotten (${errorText(error)}); tried again within an hour`,
				),
		);
	};
	app.use(async (args: AnyMiddlewareArgs & AllMiddlewareArgs) => {
		const { next, context } = args;
		const body = args.body as unknown as Record<string, unknown>;
		if (body.type === 'block_suggestion' || body.type === 'dialog_suggestion') return next();
		const key = payloadKey(body);
		let claimed: boolean;
		try {
			claimed = await claimPayload(db, key);
		} catch (error) {
			// The database is away: acting is better than dropping a person's click (what it changes fails and says so).
			logger.warn(
				`slack: could not check whether another replica took this ${kindOf(body)} (${errorText(error)}); acting on it`,
			);
			return next();
		}
		if (!claimed) {
			const retry = context.retryNum
				? ` (Slack's retry ${context.retryNum}${context.retryReason ? `, ${context.retryReason}` : ''})`
				: '';
			logger.info(
				`slack: ${kindOf(body)}${retry} already taken by this or another replica: acknowledged, not acted on again`,
			);
			if ('ack' in args && typeof args.ack === 'function')
				await (args.ack as () => Promise<void>)();
			return;
		}
		forgetLazily();
		try {
			await next();
		} catch (error) {
			await releasePayload(db, key).catch((e: unknown) =>
				logger.warn(
					`slack: claim of a failed ${kindOf(body)} not freed (${errorText(e)}); Slack's retry of it is not acted on`,
				),
			);
			throw error;
		}
	});
}
