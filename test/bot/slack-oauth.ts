// Slack's OAuth v2 for a distributed app, as the test Slack plays it: the authorize page a
// signed-in person approves (a code sent back to the app's redirect URL with its state), and
// oauth.v2.access, which trades a code once for the installation's bot token.
import { randomBytes } from 'node:crypto';
import { APP_ID, type Grant, type SlackDirectory } from './slack-workspaces';

/** The app's settings on api.slack.com: its credentials and Redirect URLs. */
export interface OAuthAppSpec {
	clientId: string;
	clientSecret: string;
	appId?: string;
	/**
	 * The Redirect URLs of the app's settings. An authorize request's redirect_uri must be one of
	 * them or below one; without any, the request must carry its own.
	 */
	redirectUris?: string[];
}

/** Who approves on the authorize page: the person signed in to Slack in the browser, and where to. */
export interface Consent {
	user: string;
	/** The workspace to install to. */
	team?: string;
	/** With `orgWide`, the Grid org to install to (the team is then null). */
	enterprise?: string;
	orgWide?: boolean;
	/** Clicks Cancel instead of Allow. */
	deny?: boolean;
}

interface IssuedCode {
	redirectUri: string;
	/** Was redirect_uri in the authorize request? Then the exchange must send the same one. */
	explicitRedirect: boolean;
	consent: Consent;
	scopes: string[];
	expiresAt: number;
	used: boolean;
}

/** A code lives ten minutes, as Slack's. */
const CODE_TTL_MS = 10 * 60_000;

export class SlackOAuth {
	private readonly codes = new Map<string, IssuedCode>();

	constructor(
		readonly app: OAuthAppSpec,
		private readonly directory: SlackDirectory,
	) {}

	/**
	 * Slack's authorize page (oauth/v2/authorize) approved by `who`: the URL the browser is sent
	 * on to, the app's redirect URL with `code` and `state` (or `error=access_denied`); or the
	 * error Slack's page shows instead, before anyone can approve.
	 */
	approve(authorizeUrl: URL, who: Consent): { location: string } | { refused: string } {
		const query = authorizeUrl.searchParams;
		if (query.get('client_id') !== this.app.clientId) return { refused: 'invalid_client_id' };
		const scopes = (query.get('scope') ?? '').split(',').filter(Boolean);
		if (scopes.length === 0) return { refused: 'invalid_scope' };
		const asked = query.get('redirect_uri');
		const redirectUri = this.redirectUri(asked);
		if (!redirectUri) return { refused: 'bad_redirect_uri' };
		const back = new URL(redirectUri);
		const state = query.get('state');
		if (who.deny) back.searchParams.set('error', 'access_denied');
		else
			back.searchParams.set(
				'code',
				this.issueCode(who, scopes, { redirectUri, explicitRedirect: asked !== null }),
			);
		if (state !== null) back.searchParams.set('state', state);
		return { location: back.toString() };
	}

	/** A code as the authorize page issues it, for a test that skips the page. */
	issueCode(
		who: Consent,
		scopes: string[],
		redirect: { redirectUri: string; explicitRedirect: boolean } = {
			redirectUri: this.app.redirectUris?.[0] ?? '',
			explicitRedirect: false,
		},
	): string {
		if (
			who.orgWide
				? !this.directory.enterprise(who.enterprise ?? '')
				: !this.directory.workspace(who.team ?? '')
		)
			throw new Error(`the test Slack has no ${who.orgWide ? 'org' : 'workspace'} to install to`);
		const code = `${Date.now()}.${randomBytes(6).readUIntBE(0, 6)}.${randomBytes(24).toString('hex')}`;
		this.codes.set(code, {
			...redirect,
			consent: who,
			scopes,
			expiresAt: Date.now() + CODE_TTL_MS,
			used: false,
		});
		return code;
	}

	/** oauth.v2.access: client credentials by HTTP Basic or form fields, a code used once. */
	exchange(
		body: Record<string, unknown>,
		authorization: string | undefined,
	): Record<string, unknown> {
		const refused = this.clientError(body, authorization);
		if (refused) return { ok: false, error: refused };
		if (body.grant_type !== undefined && body.grant_type !== 'authorization_code')
			return { ok: false, error: 'invalid_grant_type' };
		const issued = this.codes.get(String(body.code ?? ''));
		if (!issued || issued.used || issued.expiresAt < Date.now())
			return { ok: false, error: 'invalid_code' };
		const sent = typeof body.redirect_uri === 'string' ? body.redirect_uri : undefined;
		if ((issued.explicitRedirect || sent !== undefined) && sent !== issued.redirectUri)
			return { ok: false, error: 'bad_redirect_uri' };
		issued.used = true;
		return this.installed(issued);
	}

	/** The error Slack answers when a call's client credentials are not the app's; none when they are. */
	clientError(
		body: Record<string, unknown>,
		authorization: string | undefined,
	): string | undefined {
		const client = clientCredentials(body, authorization);
		if (client.id !== this.app.clientId) return 'invalid_client_id';
		if (client.secret !== this.app.clientSecret) return 'bad_client_secret';
		return undefined;
	}

	private installed(issued: IssuedCode): Record<string, unknown> {
		const who = issued.consent;
		const enterpriseId = who.orgWide
			? (who.enterprise ?? null)
			: (this.directory.workspace(who.team ?? '')?.enterpriseId ?? null);
		const grant = this.directory.install({
			teamId: who.orgWide ? null : (who.team ?? null),
			enterpriseId,
			orgWide: who.orgWide === true,
			installerId: who.user,
			scopes: issued.scopes,
			appId: this.app.appId ?? APP_ID,
		});
		return this.accessAnswer(grant);
	}

	/** oauth.v2.access's answer for a bot install: no user token asked, no incoming webhook. */
	private accessAnswer(grant: Grant): Record<string, unknown> {
		const team = grant.teamId ? this.directory.workspace(grant.teamId) : undefined;
		const enterprise = grant.enterpriseId
			? this.directory.enterprise(grant.enterpriseId)
			: undefined;
		return {
			ok: true,
			app_id: grant.appId,
			authed_user: { id: grant.installerId },
			scope: grant.scopes.join(','),
			token_type: 'bot',
			access_token: grant.token,
			bot_user_id: grant.botUserId,
			team: team ? { id: team.id, name: team.name } : null,
			enterprise: enterprise ? { id: enterprise.id, name: enterprise.name } : null,
			is_enterprise_install: grant.isEnterpriseInstall,
		};
	}

	/** Where the page sends the browser back to: the one asked for if the app's settings allow it. */
	private redirectUri(asked: string | null): string | undefined {
		const configured = this.app.redirectUris ?? [];
		if (asked === null) return configured[0];
		const allowed =
			configured.length === 0 ||
			configured.some((u) => asked === u || asked.startsWith(u.endsWith('/') ? u : `${u}/`));
		return allowed ? asked : undefined;
	}
}

/** The client id and secret of a token exchange: HTTP Basic (Slack's advice) or the form's fields. */
function clientCredentials(
	body: Record<string, unknown>,
	authorization: string | undefined,
): { id?: string; secret?: string } {
	const basic = /^Basic\s+(.+)$/i.exec(authorization ?? '');
	if (basic) {
		const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		if (colon >= 0) return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
	}
	return {
		id: typeof body.client_id === 'string' ? body.client_id : undefined,
		secret: typeof body.client_secret === 'string' ? body.client_secret : undefined,
	};
}
