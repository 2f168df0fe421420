import { createHmac, createSecretKey, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { OrgRec } from './fleet/model';
import type { FleetStore } from './fleet/store';

/**
 * The token endpoint (`POST {authUrl}/{tenantId}/oauth2/v2.0/token`), answering the way
 * Microsoft Entra ID does, and the bearer check of the API. Tokens are HS256 JWTs signed with a
 * key made at start-up, so a token of another simulator run is refused like a forged one.
 */

export interface TokenAnswer {
	status: number;
	body: Record<string, unknown>;
}

export interface TokenServiceOptions {
	authUrl: string;
	tenantId: string;
	apiScopeId: string;
	/** Seconds a token lives (a fault may shorten it). */
	lifetimeSec: () => number;
	/** Wall time in ms (real time plus manual clock jumps). */
	now: () => number;
}

export type BearerCheck = { ok: true; orgId: number } | { ok: false; reason: string };

const base64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

interface Claims {
	exp?: number;
	nbf?: number;
	org_id?: number;
	aud?: string;
}

/** Tokens whose signature was checked, kept with their claims (cleared when this many). */
const VERIFIED_TOKENS_KEPT = 10_000;

export class TokenService {
	private readonly key = createSecretKey(randomBytes(32));
	private readonly verified = new Map<string, Claims>();

	constructor(
		private readonly store: FleetStore,
		private readonly options: TokenServiceOptions,
	) {}

	/** The auth URL is known once the server listens. */
	setAuthUrl(authUrl: string): void {
		this.options.authUrl = authUrl;
	}

	handle(tenantSegment: string, form: URLSearchParams): TokenAnswer {
		const { tenantId, apiScopeId } = this.options;
		if (tenantSegment.toLowerCase() !== tenantId.toLowerCase()) {
			return this.refuse(
				400,
				'invalid_request',
				90002,
				`Tenant '${tenantSegment}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
			);
		}
		const field = (name: string): string | null => form.get(name);
		const missing = (name: string): TokenAnswer =>
			this.refuse(
				400,
				'invalid_request',
				900144,
				`The request body must contain the following parameter: '${name}'.`,
			);
		const grant = field('grant_type');
		if (!grant) return missing('grant_type');
		if (grant !== 'client_credentials') {
			return this.refuse(
				400,
				'unsupported_grant_type',
				70003,
				`The app requested an unsupported grant type '${grant}'.`,
			);
		}
		const clientId = field('client_id');
		if (!clientId) return missing('client_id');
		const scope = field('scope');
		if (!scope) return missing('scope');
		const org = this.store.orgs().find((o) => o.apiKey === clientId);
		if (!org) {
			return this.refuse(
				400,
				'unauthorized_client',
				700016,
				`Application with identifier '${clientId}' was not found in the directory '${tenantId}'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You may have sent your authentication request to the wrong tenant.`,
			);
		}
		const secret = field('client_secret');
		if (!secret) {
			return this.refuse(
				401,
				'invalid_client',
				7000218,
				"The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
			);
		}
		if (!sameText(secret, org.apiSecret)) {
			return this.refuse(
				401,
				'invalid_client',
				7000215,
				`Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`,
			);
		}
		if (!scope.endsWith('/.default')) {
			return this.refuse(
				400,
				'invalid_scope',
				1002012,
				`The provided value for scope ${scope} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`,
			);
		}
		if (scope !== `${apiScopeId}/.default`) {
			const resource = scope.slice(0, -'/.default'.length);
			return this.refuse(
				400,
				'invalid_resource',
				500011,
				`The resource principal named ${resource} was not found in the tenant named ${tenantId}. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You might have sent your authentication request to the wrong tenant.`,
			);
		}
		const lifetime = Math.max(1, Math.floor(this.options.lifetimeSec()));
		return {
			status: 200,
			body: {
				token_type: 'Bearer',
				expires_in: lifetime,
				ext_expires_in: lifetime,
				access_token: this.sign(org, lifetime),
			},
		};
	}

	/** Checks an `Authorization` header value. */
	verify(header: string | undefined): BearerCheck {
		if (!header) return { ok: false, reason: 'missing bearer token' };
		const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
		if (!match) return { ok: false, reason: 'authorization header is not a bearer token' };
		const token = match[1];
		let claims = this.verified.get(token);
		if (!claims) {
			const parts = token.split('.');
			if (parts.length !== 3) return { ok: false, reason: 'token is not a JWT' };
			const expected = this.signature(`${parts[0]}.${parts[1]}`);
			if (!sameText(parts[2], expected)) return { ok: false, reason: 'token signature is invalid' };
			try {
				claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as Claims;
			} catch {
				return { ok: false, reason: 'token payload is not JSON' };
			}
			// The signature and payload of a token never change: checked once, its claims are kept (the
			// HMAC would be a fifth of the simulator's CPU per request). Time and audience are checked
			// below on every request.
			if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.clear();
			this.verified.set(token, claims);
		}
		const nowSec = Math.floor(this.options.now() / 1000);
		if (typeof claims.exp !== 'number' || claims.exp <= nowSec)
			return { ok: false, reason: 'token expired' };
		if (claims.aud !== this.options.apiScopeId || typeof claims.org_id !== 'number')
			return { ok: false, reason: 'token audience is wrong' };
		return { ok: true, orgId: claims.org_id };
	}

	private sign(org: OrgRec, lifetime: number): string {
		const nowSec = Math.floor(this.options.now() / 1000);
		const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
		const payload = base64url(
			JSON.stringify({
				aud: this.options.apiScopeId,
				iss: `${this.options.authUrl}/${this.options.tenantId}/v2.0`,
				iat: nowSec,
				nbf: nowSec,
				exp: nowSec + lifetime,
				azp: org.apiKey,
				sub: org.apiKey,
				tid: this.options.tenantId,
				org_id: org.id,
				jti: randomUUID(),
			}),
		);
		return `${header}.${payload}.${this.signature(`${header}.${payload}`)}`;
	}

	private signature(input: string): string {
		return createHmac('sha256', this.key).update(input).digest('base64url');
	}

	private refuse(status: number, error: string, aadsts: number, description: string): TokenAnswer {
		const traceId = randomUUID();
		const correlationId = randomUUID();
		const timestamp = new Date(this.options.now())
			.toISOString()
			.replace('T', ' ')
			.replace(/\.\d{3}Z$/, 'Z');
		return {
			status,
			body: {
				error,
				error_description: `AADSTS${aadsts}: ${description} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${timestamp}`,
				error_codes: [aadsts],
				timestamp,
				trace_id: traceId,
				correlation_id: correlationId,
				error_uri: `${this.options.authUrl}/error?code=${aadsts}`,
			},
		};
	}
}

export function sameText(a: string, b: string): boolean {
	const left = Buffer.from(a);
	const right = Buffer.from(b);
	return left.length === right.length && timingSafeEqual(left, right);
}
