// The spec's token flow ("Authentication"): an OAuth 2.0 client-credentials form posted to
// {auth_url}/{tenant_id}/oauth2/v2.0/token. This is the one token function: the client's token
// cache and the n8n credential's preAuthentication both call it.
import { AuthError, UnexpectedResponseError, type AuthRefusal } from '../errors';
import { registerSecret, scrubTokenServerText } from '../redact';
import { headerValue, type Transport } from '../transport/types';
import { defaultTransport } from '../transport/default';

export interface ApiCredentials {
	/** Token service base, e.g. https://login.example.com (the tenant and path are appended). */
	authUrl: string;
	tenantId: string;
	/** The API Key: the OAuth client_id. */
	apiKey: string;
	/** The API Secret: the OAuth client_secret. */
	apiSecret: string;
	/** The scope id; the request asks for `<apiScopeId>/.default`. */
	apiScopeId: string;
}

export interface AccessToken {
	accessToken: string;
	tokenType: string;
	/** Seconds, as the token endpoint said. */
	expiresIn: number;
	extExpiresIn?: number;
	/** Epoch milliseconds at which the token expires (obtained time + expires_in). */
	expiresAt: number;
}

export interface TokenRequest {
	url: string;
	headers: Record<string, string>;
	/** application/x-www-form-urlencoded body. */
	body: string;
}

export function tokenUrl(credentials: Pick<ApiCredentials, 'authUrl' | 'tenantId'>): string {
	return `${credentials.authUrl.replace(/\/+$/, '')}/${encodeURIComponent(credentials.tenantId)}/oauth2/v2.0/token`;
}

/** The token request exactly as the spec prints it (for callers that send it with their own HTTP helper). */
export function buildTokenRequest(credentials: ApiCredentials): TokenRequest {
	registerSecret(credentials.apiSecret);
	const form = new URLSearchParams({
		grant_type: 'client_credentials',
		client_id: credentials.apiKey,
		client_secret: credentials.apiSecret,
		Type: 'oauth2',
		scope: `${credentials.apiScopeId}/.default`,
	});
	return {
		url: tokenUrl(credentials),
		headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
		body: form.toString(),
	};
}

/** Read a token endpoint answer: the token, or an AuthError saying which credential was refused. */
export function parseTokenResponse(
	status: number,
	bodyText: string,
	credentials: ApiCredentials,
	contentType?: string,
	now: number = Date.now(),
): AccessToken {
	let json: Record<string, unknown> | undefined;
	try {
		const parsed: unknown = JSON.parse(bodyText);
		if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
			json = parsed as Record<string, unknown>;
	} catch {
		json = undefined;
	}
	if (
		status >= 200 &&
		status < 300 &&
		json &&
		typeof json.access_token === 'string' &&
		json.access_token !== ''
	) {
		const expiresIn = Number(json.expires_in);
		const token: AccessToken = {
			accessToken: json.access_token,
			tokenType: typeof json.token_type === 'string' ? json.token_type : 'Bearer',
			expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600,
			extExpiresIn: json.ext_expires_in === undefined ? undefined : Number(json.ext_expires_in),
			expiresAt: 0,
		};
		token.expiresAt = now + token.expiresIn * 1000;
		registerSecret(token.accessToken);
		return token;
	}
	if (!json) {
		throw new UnexpectedResponseError({
			httpStatus: status,
			body: bodyText,
			contentType,
			problem: `the token endpoint ${tokenUrl(credentials)} did not answer with OAuth JSON`,
		});
	}
	throw authErrorOf(status, json, credentials);
}

function authErrorOf(
	status: number,
	json: Record<string, unknown>,
	credentials: ApiCredentials,
): AuthError {
	const oauthError = typeof json.error === 'string' ? json.error : null;
	const description = typeof json.error_description === 'string' ? json.error_description : null;
	const codes = Array.isArray(json.error_codes) ? json.error_codes.map(Number) : [];
	const fromText = /AADSTS(\d+)/.exec(description ?? '');
	if (fromText) codes.push(Number(fromText[1]));
	const refused = classify(
		status,
		oauthError,
		codes,
		`${oauthError ?? ''} ${description ?? ''}`.toLowerCase(),
	);
	const explanations: Record<AuthRefusal, [string, string]> = {
		tenant: [`the tenant id "${credentials.tenantId}" was refused`, 'check the Tenant ID'],
		clientId: ['the API key (client id) is not known to this tenant', 'check the API Key'],
		clientSecret: [
			'the API secret was refused for this API key',
			'check the API Secret or regenerate it',
		],
		client: ['the API key or the API secret was refused', 'check both'],
		scope: [`the scope "${credentials.apiScopeId}/.default" was refused`, 'check the API Scope ID'],
		grant: [
			'the token endpoint refused the client-credentials grant',
			'check the Auth URL: it must lead to the OAuth 2.0 token service of the platform',
		],
		unknown: [
			`the token endpoint answered HTTP ${status}`,
			"check the Auth URL and the Tenant ID; the token service's words are in the details",
		],
	};
	const [what, fix] = explanations[refused];
	return new AuthError({
		refused,
		httpStatus: status,
		oauthError,
		oauthDescription:
			description === null
				? null
				: scrubTokenServerText(description, [credentials.apiKey, credentials.apiSecret]),
		explanation: `${what}; ${fix}`,
		hint: `${fix.charAt(0).toUpperCase()}${fix.slice(1)} in the Drive Monitoring API credentials.`,
	});
}

/** Entra ID (AADSTS) error codes first, then the OAuth error, then the wording. */
const AADSTS: Record<number, AuthRefusal> = {
	90002: 'tenant',
	900023: 'tenant',
	90013: 'tenant',
	700016: 'clientId',
	7000215: 'clientSecret',
	7000222: 'clientSecret',
	7000218: 'clientSecret',
	70011: 'scope',
	1002012: 'scope',
	500011: 'scope',
	70003: 'grant',
};

function classify(
	status: number,
	oauthError: string | null,
	codes: number[],
	text: string,
): AuthRefusal {
	for (const code of codes) if (AADSTS[code]) return AADSTS[code];
	switch (oauthError) {
		case 'invalid_scope':
		case 'invalid_resource':
			return 'scope';
		case 'unauthorized_client':
			return 'clientId';
		case 'invalid_client':
			return /secret/.test(text) ? 'clientSecret' : 'client';
		case 'unsupported_grant_type':
		case 'invalid_grant':
			return 'grant';
	}
	if (/tenant/.test(text) || status === 404) return 'tenant';
	if (/scope|resource/.test(text)) return 'scope';
	return 'unknown';
}

export interface FetchAccessTokenOptions {
	transport?: Transport;
	signal?: AbortSignal;
	timeoutMs?: number;
}

/** POST the client-credentials form and return the token (or throw AuthError / TransportError). */
export async function fetchAccessToken(
	credentials: ApiCredentials,
	options: FetchAccessTokenOptions = {},
): Promise<AccessToken> {
	const request = buildTokenRequest(credentials);
	const transport = options.transport ?? defaultTransport();
	const response = await transport.request({
		method: 'POST',
		url: request.url,
		headers: request.headers,
		body: request.body,
		signal: options.signal,
		timeoutMs: options.timeoutMs ?? 30_000,
	});
	return parseTokenResponse(
		response.status,
		response.body.toString('utf8'),
		credentials,
		headerValue(response.headers, 'content-type'),
	);
}
