// Secrets (the API secret, access tokens, data-subscription passwords) must never reach an error
// message, a log line or a serialized error. Two layers: every secret the core handles is
// registered and masked wherever it appears, and well-known secret shapes (bearer headers, JWTs,
// form and JSON fields named like secrets) are masked even when nobody registered them.

export const REDACTED = '[REDACTED]';

const MAX_REGISTERED = 2000;
const MIN_SECRET_LENGTH = 4;
const registered = new Set<string>();

/** Remember a secret so that `redact` masks it wherever it shows up. */
export function registerSecret(secret: string | undefined | null): void {
	if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH || secret === '********')
		return;
	if (registered.has(secret)) return;
	if (registered.size >= MAX_REGISTERED) {
		// Oldest first: a Set iterates in insertion order, and the oldest entries are expired tokens.
		const oldest = registered.values().next().value;
		if (oldest !== undefined) registered.delete(oldest);
	}
	registered.add(secret);
}

const SECRET_NAMES =
	'client_secret|clientSecret|apiSecret|api_secret|access_token|accessToken|refresh_token|password|passwd|secret|token';
const PATTERNS: Array<[RegExp, string]> = [
	[/\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
	[/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
	// "password":"..." in JSON text (any casing of the name)
	[new RegExp(`("(?:${SECRET_NAMES})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${REDACTED}"`],
	// password=... in form bodies and query strings
	[new RegExp(`\\b((?:${SECRET_NAMES})=)[^&\\s"']+`, 'gi'), `$1${REDACTED}`],
];

/** Mask every registered secret and every well-known secret shape in a text. */
export function redact(text: string): string {
	let out = text;
	for (const secret of registered) {
		if (out.includes(secret)) out = out.split(secret).join(REDACTED);
	}
	for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
	return out;
}

const SECRET_KEY = new RegExp(`^(?:${SECRET_NAMES}|authorization)$`, 'i');

/** A deep copy of a value with secret-named fields masked and every string redacted (for logs). */
export function redactValue(value: unknown, depth = 0): unknown {
	if (typeof value === 'string') return redact(value);
	if (value === null || typeof value !== 'object' || depth > 8) return value;
	if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
	if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
	if (value instanceof Error) return redact(value.message);
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(value)) {
		out[k] =
			SECRET_KEY.test(k) && v !== null && v !== undefined && v !== ''
				? REDACTED
				: redactValue(v, depth + 1);
	}
	return out;
}

/**
 * A token server's own error text for the details: the values it echoes from the request (the
 * API key, the tenant) and its per-request trace, correlation and timestamp stamps masked. The
 * OAuth error code (AADSTS...) and the sentence stay: they say what was refused.
 */
export function scrubTokenServerText(
	text: string,
	echoed: ReadonlyArray<string | undefined>,
): string {
	let out = redact(text);
	for (const value of echoed) {
		if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH)
			out = out.split(value).join(REDACTED);
	}
	return out
		.replace(/\b(Trace|Correlation) ID:\s*[0-9a-f-]{8,}/gi, `$1 ID: ${REDACTED}`)
		.replace(/\bTimestamp:\s*[0-9][0-9:\- TZ.]+/g, '')
		.replace(/\s+/g, ' ')
		.trim();
}
