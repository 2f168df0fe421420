/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Bolt 5 in OAuth mode against the test Slack, end to end: a browser installs the app through
// /slack/install, Slack's authorize page and /slack/oauth_redirect; the token exchange goes to
// the test Slack (the receiver's installerOptions.clientOptions.slackApiUrl); the installation
// is stored encrypted; every request is then authorized as the installation Slack names, and the
// events that end an installation reach the app.
import {
	App,
	HTTPReceiver,
	LogLevel,
	webApi,
	type Context,
	type Installation,
	type InstallationQuery,
	type InstallationStore,
	type Logger,
} from '@slack/bolt';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lookupKeys, queryKey } from '../../bot/features/installations/installation-key';
import {
	installationFromStore,
	storedInstallation,
	type StoredInstallation,
} from '../../bot/features/installations/stored-installation';
import { TokenCipher } from '../../bot/features/installations/token-cipher';
import { waitFor } from './helpers';
import type { Consent } from './slack-oauth';
import {
	actionBody,
	commandBody,
	messageEvent,
	signedRequest,
	type EventEnvelope,
} from './slack-payloads';
import { SlackApiServer } from './slack-server';
import { sampleSlack } from './slack-workspaces';

const signingSecret = randomBytes(16).toString('hex');
const clientId = '3333.4444';
const clientSecret = randomBytes(16).toString('hex');
const stateSecret = randomBytes(16).toString('hex');

/** Installations as the bot will keep them: by installationKey, the token encrypted. */
class EncryptedInstallationStore implements InstallationStore {
	readonly rows = new Map<string, StoredInstallation>();
	constructor(private readonly cipher: TokenCipher) {}

	async storeInstallation(installation: Installation): Promise<void> {
		const row = storedInstallation(installation, this.cipher);
		this.rows.set(row.key, row);
	}

	async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation> {
		for (const key of lookupKeys(query)) {
			const row = this.rows.get(key);
			if (row) return installationFromStore(row, this.cipher);
		}
		throw new Error(`no installation for ${lookupKeys(query).join(' or ') || 'this request'}`);
	}

	async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
		this.rows.delete(queryKey(query) ?? '');
	}
}

/** A browser: redirects followed by hand, the cookies each host sets kept for it. */
class Browser {
	private readonly jar = new Map<string, Map<string, string>>();

	async get(url: string): Promise<{ status: number; location: string; text: string }> {
		const target = new URL(url);
		const cookies = [...(this.jar.get(target.host) ?? [])].map(([k, v]) => `${k}=${v}`);
		const response = await fetch(target, {
			redirect: 'manual',
			headers: cookies.length ? { cookie: cookies.join('; ') } : {},
		});
		for (const line of response.headers.getSetCookie()) this.keep(target.host, line);
		const location = response.headers.get('location') ?? '';
		return { status: response.status, location, text: await response.text() };
	}

	cookie(url: string, name: string): string | undefined {
		return this.jar.get(new URL(url).host)?.get(name);
	}

	private keep(host: string, line: string): void {
		const [pair, ...attributes] = line.split(';');
		const at = pair.indexOf('=');
		const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
		const cookies = this.jar.get(host) ?? new Map<string, string>();
		this.jar.set(host, cookies);
		const expired = attributes.some((a) => /^\s*expires=.*1970/i.test(a));
		if (expired) cookies.delete(name);
		else cookies.set(name, value);
	}
}

function logger(): Logger {
	let level = LogLevel.INFO;
	const ignore = () => undefined;
	return {
		debug: ignore,
		info: ignore,
		warn: ignore,
		error: ignore,
		setLevel: (l: LogLevel) => (level = l),
		getLevel: () => level,
		setName: ignore,
	};
}

const store = new EncryptedInstallationStore(new TokenCipher(randomBytes(32)));
const seen: Array<{ kind: string; context: Context; body: Record<string, unknown> }> = [];
let slack: SlackApiServer;
let app: App;
let base = '';

beforeAll(async () => {
	slack = await new SlackApiServer({
		...sampleSlack(),
		oauth: { clientId, clientSecret },
		// The listener answers each message in its channel; Slack's one-a-second limit is not under test.
		perChannelPerSecond: 100,
	}).start();
	const receiver = new HTTPReceiver({
		signingSecret,
		endpoints: '/slack/events',
		clientId,
		clientSecret,
		stateSecret,
		scopes: ['chat:write', 'commands'],
		installationStore: store,
		installerOptions: {
			directInstall: true,
			authorizationUrl: slack.authorizeUrl,
			// A receiver built by hand gets none of the App's clientOptions: the exchange needs its own.
			clientOptions: { slackApiUrl: slack.apiUrl },
		},
		logger: logger(),
	});
	app = new App({ receiver, clientOptions: { slackApiUrl: slack.apiUrl }, logger: logger() });
	app.event('message', async ({ event, context, body, client }) => {
		seen.push({ kind: 'message', context, body });
		await client.chat.postMessage({
			channel: (event as { channel: string }).channel,
			text: 'seen',
		});
	});
	app.command('/drive', async ({ ack, context, body }) => {
		await ack();
		seen.push({ kind: 'command', context, body });
	});
	app.action('details', async ({ ack, context, body }) => {
		await ack();
		seen.push({ kind: 'action', context, body: body as unknown as Record<string, unknown> });
	});
	for (const kind of ['app_uninstalled', 'tokens_revoked'] as const)
		app.event(kind, async ({ context, body }) => {
			seen.push({ kind, context, body });
			await store.deleteInstallation({
				teamId: context.teamId,
				enterpriseId: context.enterpriseId,
				isEnterpriseInstall: context.isEnterpriseInstall,
			});
		});
	const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	// The Redirect URL of the app's settings on api.slack.com.
	slack.oauth!.app.redirectUris = [`${base}/slack/oauth_redirect`];
});

afterAll(async () => {
	await app?.stop();
	await slack?.close();
});

/** The install flow in a browser signed in to Slack as `who`: the last answer of the app. */
async function install(who: Consent, browser = new Browser()) {
	slack.signedInAs = who;
	const start = await browser.get(`${base}/slack/install`);
	const approved = await browser.get(start.location);
	const done = await browser.get(approved.location);
	return { start, approved, done, browser };
}

async function deliver(body: string | EventEnvelope): Promise<number> {
	const request = signedRequest(signingSecret, body);
	const response = await fetch(`${base}/slack/events`, {
		method: 'POST',
		headers: request.headers,
		body: request.body,
	});
	await response.text();
	return response.status;
}

function tokenOf(key: string): string {
	const grant = slack.directory.activeGrant(key);
	if (!grant) throw new Error(`the app is not installed in ${key}`);
	return grant.token;
}

/** Delivers a signed request and waits for the listener of `kind` it reaches. */
async function handled(kind: string, body: string | EventEnvelope) {
	const from = seen.length;
	expect(await deliver(body)).toBe(200);
	return waitFor(kind, () => seen.slice(from).find((s) => s.kind === kind));
}

test('a workspace installs the app from /slack/install: state cookie, authorize page, redirect; the exchange goes to the test Slack and the installation is stored, its token encrypted', async () => {
	const calls = slack.calls.length;
	const { start, approved, done, browser } = await install({
		team: 'T0HARBOR',
		user: 'U0HADMIN',
	});
	expect(start.status).toBe(302);
	const page = new URL(start.location);
	expect(`${page.origin}${page.pathname}`).toBe(slack.authorizeUrl);
	expect(page.searchParams.get('client_id')).toBe(clientId);
	expect(page.searchParams.get('scope')).toBe('chat:write,commands');
	expect(browser.cookie(base, 'slack-app-oauth-state')).toBeUndefined();
	expect(approved.location).toMatch(new RegExp(`^${base}/slack/oauth_redirect\\?code=`));
	expect(done.status).toBe(200);
	const token = tokenOf('T0HARBOR');
	expect(slack.calls.slice(calls).map((c) => [c.method, c.ok])).toEqual([
		['oauth/v2/authorize', true],
		['oauth.v2.access', true],
		['auth.test', true],
	]);
	const installed = await store.fetchInstallation({
		teamId: 'T0HARBOR',
		enterpriseId: undefined,
		isEnterpriseInstall: false,
	});
	const grant = slack.directory.grant(token)!;
	expect(installed).toMatchObject({
		team: { id: 'T0HARBOR', name: 'Harbor Water' },
		bot: { token, userId: grant.botUserId, id: grant.botId, scopes: ['chat:write', 'commands'] },
		user: { id: 'U0HADMIN' },
		isEnterpriseInstall: false,
		appId: 'A0DRIVE',
	});
	expect(JSON.stringify([...store.rows.values()])).not.toContain(token);
});

test('an org-wide install (team null) is stored under its org id', async () => {
	const { done } = await install({ enterprise: 'E0GRID', orgWide: true, user: 'U0GADMIN' });
	expect(done.status).toBe(200);
	expect(store.rows.get('E0GRID')).toMatchObject({
		teamId: null,
		enterpriseId: 'E0GRID',
		isEnterpriseInstall: true,
	});
	const installed = await store.fetchInstallation({
		teamId: 'T0GRIDB',
		enterpriseId: 'E0GRID',
		isEnterpriseInstall: true,
	});
	expect(installed.team).toBeUndefined();
	expect(installed.bot?.token).toBe(tokenOf('E0GRID'));
	expect(installed.enterpriseUrl).toBe('https://e0grid.enterprise.slack.com/');
});

test("the redirect is refused without this browser's state cookie, for a code already used and after a refusal; nothing is stored", async () => {
	slack.signedInAs = { team: 'T0LAKE', user: 'U0LADMIN' };
	const browser = new Browser();
	const start = await browser.get(`${base}/slack/install`);
	const state = browser.cookie(base, 'slack-app-oauth-state');
	const approved = await browser.get(start.location);
	expect((await new Browser().get(approved.location)).status).toBe(400);
	expect(store.rows.has('T0LAKE')).toBe(false);
	expect((await browser.get(approved.location)).status).toBe(200);
	expect(store.rows.has('T0LAKE')).toBe(true);
	// The same redirect again, the state cookie put back: the state holds, the code does not.
	store.rows.delete('T0LAKE');
	const replay = await fetch(approved.location, {
		headers: { cookie: `slack-app-oauth-state=${state}` },
	});
	expect(replay.status).toBe(500);
	expect(slack.calls.at(-1)).toMatchObject({ method: 'oauth.v2.access', error: 'invalid_code' });
	expect(store.rows.has('T0LAKE')).toBe(false);
	const denied = await install({ team: 'T0LAKE', user: 'U0LADMIN', deny: true });
	expect(denied.done.status).toBe(500);
	expect(store.rows.has('T0LAKE')).toBe(false);
});

test("each request is authorized as the installation Slack names: a message in the Slack Connect channel, commands from its two sides and from a Grid org, a click on the other side's message", async () => {
	await install({ team: 'T0PROVIDER', user: 'U0PADMIN' });
	await install({ team: 'T0HARBOR', user: 'U0HADMIN' });
	if (!store.rows.has('E0GRID'))
		await install({ enterprise: 'E0GRID', orgWide: true, user: 'U0GADMIN' });
	const seenByHarbor = messageEvent(slack.directory, {
		channel: 'C0SHARED01',
		user: 'U0HUSER',
		userTeam: 'T0HARBOR',
		text: 'is the pump back?',
		seenBy: 'T0HARBOR',
	});
	expect(seenByHarbor).toMatchObject({
		team_id: 'T0PROVIDER',
		context_team_id: 'T0PROVIDER',
		is_ext_shared_channel: true,
		event: { team: 'T0HARBOR', user_team: 'T0HARBOR', channel: 'C0SHARED01' },
		authorizations: [{ team_id: 'T0HARBOR', is_enterprise_install: false }],
	});
	const message = await handled('message', seenByHarbor);
	expect(message.context).toMatchObject({ teamId: 'T0HARBOR', botToken: tokenOf('T0HARBOR') });
	await waitFor('the reply in the shared channel', () =>
		slack.accepted('chat.postMessage').find((c) => c.body.channel === 'C0SHARED01'),
	);
	// By default the host's installation is the one named.
	const again = { channel: 'C0SHARED01', user: 'U0HUSER', userTeam: 'T0HARBOR', text: 'again' };
	expect((await handled('message', messageEvent(slack.directory, again))).context.teamId).toBe(
		'T0PROVIDER',
	);
	const command = async (user: string, userTeam: string, channel: string) => {
		const responseUrl = slack.responseUrl(`${userTeam}-${channel}`);
		const fields = { channel, user, userTeam, command: '/drive', text: 'status', responseUrl };
		return (await handled('command', commandBody(slack.directory, fields))).context;
	};
	expect(await command('U0HUSER', 'T0HARBOR', 'C0SHARED01')).toMatchObject({
		teamId: 'T0HARBOR',
		botToken: tokenOf('T0HARBOR'),
	});
	expect(await command('U0PUSER', 'T0PROVIDER', 'C0SHARED01')).toMatchObject({
		teamId: 'T0PROVIDER',
		botToken: tokenOf('T0PROVIDER'),
	});
	expect(await command('U0GUSER', 'T0GRIDB', 'C0GRIDB001')).toMatchObject({
		teamId: 'T0GRIDB',
		enterpriseId: 'E0GRID',
		isEnterpriseInstall: true,
		botToken: tokenOf('E0GRID'),
	});
	// A Harbor user clicks the provider's alert: Bolt acts as the provider's installation; the
	// clicking user's workspace is only in user.team_id.
	const click = await handled(
		'action',
		actionBody(slack.directory, {
			channel: 'C0SHARED01',
			user: 'U0HUSER',
			userTeam: 'T0HARBOR',
			postedBy: 'T0PROVIDER',
			actionId: 'details',
			value: 'fault-1',
			responseUrl: slack.responseUrl('click'),
		}),
	);
	expect(click.context).toMatchObject({ teamId: 'T0PROVIDER', botToken: tokenOf('T0PROVIDER') });
	expect(click.body).toMatchObject({ user: { team_id: 'T0HARBOR' }, team: { id: 'T0PROVIDER' } });
});

test('app_uninstalled and tokens_revoked reach the app for the installation they end, in either order; the token is refused at once', async () => {
	await install({ team: 'T0HARBOR', user: 'U0HADMIN' });
	if (!store.rows.has('E0GRID'))
		await install({ enterprise: 'E0GRID', orgWide: true, user: 'U0GADMIN' });
	const harborToken = tokenOf('T0HARBOR');
	const harbor = slack.uninstall('T0HARBOR');
	const web = new webApi.WebClient(harborToken, {
		slackApiUrl: slack.apiUrl,
		logLevel: LogLevel.ERROR,
		retryConfig: { retries: 0 },
	});
	await expect(web.auth.test()).rejects.toMatchObject({ data: { error: 'token_revoked' } });
	expect((await handled('tokens_revoked', harbor.tokensRevoked)).context).toMatchObject({
		teamId: 'T0HARBOR',
		isEnterpriseInstall: false,
	});
	expect(store.rows.has('T0HARBOR')).toBe(false);
	await handled('app_uninstalled', harbor.appUninstalled);
	const org = slack.uninstall('E0GRID');
	expect((await handled('app_uninstalled', org.appUninstalled)).context).toMatchObject({
		enterpriseId: 'E0GRID',
		isEnterpriseInstall: true,
	});
	expect(store.rows.has('E0GRID')).toBe(false);
	expect(store.rows.has('T0PROVIDER')).toBe(true);
});
