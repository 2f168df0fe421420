/** A push-channel failure. `terminal` errors end the stream: reconnecting would not help. */
export class PushError extends Error {
	constructor(
		message: string,
		readonly terminal: boolean,
		options?: { cause?: unknown },
	) {
		super(message, options);
		this.name = 'PushError';
	}
}

/** The broker refused the login. Terminal: the same credentials would be refused again. */
export class PushAuthError extends PushError {
	constructor(userName: string, url: string, detail?: string) {
		super(
			`credentials rejected: was the password reset or the user deleted? (user "${userName}" at ${url}${detail ? `: ${detail}` : ''})`,
			true,
		);
		this.name = 'PushAuthError';
	}
}

/** The broker removed the user's queue (E29) or refused the address: the stream is over. */
export class PushStreamEndedError extends PushError {
	constructor(message: string) {
		super(message, true);
		this.name = 'PushStreamEndedError';
	}
}

/** A delivery that is not a pushed message we understand. Rejected, never handed to the consumer. */
export class PushMessageError extends PushError {
	constructor(message: string) {
		super(message, false);
		this.name = 'PushMessageError';
	}
}

/**
 * One failure shared by every message of a batch (Events per Execution): each message's handler
 * rejects with this same object, so the receiver tells it once, with the batch's size.
 */
export class PushBatchError extends Error {
	constructor(
		/** How many messages the batch held. */
		readonly size: number,
		cause: unknown,
	) {
		super(cause instanceof Error ? cause.message : String(cause), { cause });
		this.name = 'PushBatchError';
	}
}

/** A URL with its password (user info) removed, safe for logs and errors. */
export function redactUrl(url: string): string {
	try {
		const parsed = new URL(url);
		if (parsed.password) parsed.password = '***';
		return parsed.toString();
	} catch {
		return url.replace(/\/\/[^@/]*@/, '//***@');
	}
}
