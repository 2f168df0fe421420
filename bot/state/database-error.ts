/**
 * The bot's database could not do what was asked: PostgreSQL unreachable, restarted, refused the login, or a
 * statement failed. The message never holds the password.
 */
export class DatabaseError extends Error {
	constructor(
		message: string,
		readonly hint: string,
		/** PostgreSQL's SQLSTATE or the socket's error code, when there is one. */
		readonly code: string | undefined,
	) {
		super(`${message} ${hint}`);
		this.name = 'DatabaseError';
	}
}
