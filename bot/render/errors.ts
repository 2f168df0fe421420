// A core error as the sentence the bot shows in Slack: what went wrong in plain words, then what
// to do (the core's hint). Endpoint numbers, raw platform text and secrets stay out; the log
// line keeps the full message.
import {
	AuthError,
	DriveMonitoringApiError,
	DriveMonitoringError,
	RateLimitedError,
	TransportError,
	UnexpectedResponseError,
} from '../../shared/errors';
import { redact } from '../../shared/redact';
import { DatabaseError } from '../state/database-error';

function sentence(text: string): string {
	const trimmed = text.trim();
	return trimmed === '' || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The first part of the Slack sentence: what went wrong. */
function what(error: DriveMonitoringError): string {
	if (error instanceof DriveMonitoringApiError) return error.summary;
	if (error instanceof AuthError) return error.message;
	if (error instanceof TransportError) return error.summary;
	if (error instanceof RateLimitedError)
		return 'The Drive Monitoring platform is limiting the request rate';
	if (error instanceof UnexpectedResponseError)
		return `The Drive Monitoring platform sent an unexpected answer (HTTP ${error.httpStatus})`;
	return error.message;
}

/** "The asset does not exist. Check the asset ID, ..." for any error a platform call threw. */
export function platformErrorText(error: unknown): string {
	if (error instanceof DriveMonitoringError)
		return redact([sentence(what(error)), sentence(error.hint)].filter(Boolean).join(' '));
	// The bot's own database (PostgreSQL away or restarting): nothing was changed; its place is shown without the password.
	if (error instanceof DatabaseError)
		return redact(
			`${sentence(error.message)} Nothing was changed: try again in a minute, and if it lasts, tell whoever runs the bot.`,
		);
	return redact(`Something went wrong: ${error instanceof Error ? error.message : String(error)}`);
}
