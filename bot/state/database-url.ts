/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { ClientConfig } from 'pg';

/**
 * Where the shared PostgreSQL state lives, read from DRIVE_BOT_DATABASE_URL; the standard PG* variables fill in
 * what the URL leaves out, as psql does. Without the URL the bot keeps its embedded SQLite file.
 */
export interface DatabaseSettings {
	/** Connection options for node-postgres; holds the password, so never log or show it. */
	readonly connection: ClientConfig;
	/** The same place with the password replaced, safe for logs, errors, /readyz and Slack. */
	readonly display: string;
	readonly password: string | undefined;
}

const fromUrl = (raw: string): URL => {
	const url = URL.canParse(raw) ? new URL(raw) : undefined;
	if (url?.protocol === 'postgres:' || url?.protocol === 'postgresql:') return url;
	// The raw value may carry the password: never repeat it.
	throw new Error(
		'DRIVE_BOT_DATABASE_URL is not a PostgreSQL URL. Set it to postgres://user@host:5432/database ' +
			'(put the password in PGPASSWORD or in the URL), or unset it to keep the embedded SQLite file.',
	);
};

const portOf = (value: string | undefined): number | undefined => {
	if (value === undefined || value === '') return undefined;
	const port = Number(value);
	if (!Number.isInteger(port) || port < 1 || port > 65535) {
		throw new Error(
			`The PostgreSQL port "${value}" is not a port number (1-65535). Fix the port in DRIVE_BOT_DATABASE_URL or PGPORT.`,
		);
	}
	return port;
};

/** undefined when DRIVE_BOT_DATABASE_URL is unset or empty: the embedded SQLite store applies. */
export function databaseSettings(
	env: NodeJS.ProcessEnv = process.env,
): DatabaseSettings | undefined {
	const raw = env.DRIVE_BOT_DATABASE_URL?.trim();
	if (!raw) return undefined;
	const url = fromUrl(raw);
	const pick = (fromUrlPart: string, variable: string): string | undefined =>
		fromUrlPart !== '' ? decodeURIComponent(fromUrlPart) : env[variable] || undefined;
	const host = pick(url.hostname.replace(/^\[|\]$/g, ''), 'PGHOST') ?? 'localhost';
	const port = portOf(url.port !== '' ? url.port : env.PGPORT) ?? 5432;
	const user = pick(url.username, 'PGUSER') ?? env.USER ?? 'postgres';
	const database = pick(url.pathname.replace(/^\//, ''), 'PGDATABASE') ?? user;
	const password = pick(url.password, 'PGPASSWORD');
	const connection: ClientConfig = {
		host,
		port,
		user,
		database,
		password,
		application_name: 'drive-monitoring-bot',
		connectionTimeoutMillis: 10_000,
	};
	const display = `postgres://${encodeURIComponent(user)}${password === undefined ? '' : ':***'}@${host}:${port}/${encodeURIComponent(database)}`;
	return { connection, display, password };
}

/** Removes the password from any text (a driver error, a log line) before it leaves the process. */
export function withoutPassword(text: string, settings: DatabaseSettings | undefined): string {
	const password = settings?.password;
	if (!password) return text;
	let out = text;
	for (const form of new Set([password, encodeURIComponent(password)]))
		out = out.split(form).join('***');
	return out;
}
