// The test Slack with many workspaces, as @slack/web-api's WebClient meets it.
import { LogLevel, webApi } from '@slack/bolt';
import { randomBytes } from 'node:crypto';
import { fakeSlackToken } from './helpers';
import type { Consent } from './slack-oauth';
import { SlackApiServer } from './slack-server';
import { sampleSlack } from './slack-workspaces';

const providerToken = fakeSlackToken('b');
const clientId = '1111.2222';
const clientSecret = randomBytes(16).toString('hex');
const redirect = 'https://bot.example/slack/oauth_redirect';
let slack: SlackApiServer;

beforeAll(async () => {
	slack = await new SlackApiServer({
		...sampleSlack({ T0PROVIDER: providerToken }),
		oauth: { clientId, clientSecret, redirectUris: [redirect] },
		perChannelPerSecond: 100,
	}).start();
});

afterAll(async () => {
	await slack?.close();
});

function client(token?: string, server = slack): webApi.WebClient {
	return new webApi.WebClient(token, {
		slackApiUrl: server.apiUrl,
		logLevel: LogLevel.ERROR,
		retryConfig: { retries: 0 },
	});
}

/** Slack's error code for a call, or 'ok'. */
async function errorOf(call: Promise<unknown>): Promise<string> {
	try {
		await call;
		return 'ok';
	} catch (error) {
		return (error as { data?: { error?: string } }).data?.error ?? String(error);
	}
}

/** A code from the authorize page, exchanged as InstallProvider does (form fields). */
async function install(who: Consent): Promise<webApi.OauthV2AccessResponse> {
	const code = slack.oauth!.issueCode(who, ['chat:write', 'commands']);
	return client().oauth.v2.access({ client_id: clientId, client_secret: clientSecret, code });
}

/** oauth.v2.access by hand: the raw answer. */
async function exchange(
	fields: Record<string, string>,
	authorization?: string,
): Promise<Record<string, unknown>> {
	const response = await fetch(`${slack.apiUrl}oauth.v2.access`, {
		method: 'POST',
		headers: {
			'content-type': 'application/x-www-form-urlencoded',
			...(authorization ? { authorization } : {}),
		},
		body: new URLSearchParams(fields).toString(),
	});
	return (await response.json()) as Record<string, unknown>;
}

test("the single-token form is as before: one workspace holding every undeclared channel, not a declared workspace's", async () => {
	const token = fakeSlackToken('b');
	const single = await new SlackApiServer({
		token,
		workspaces: [{ id: 'T0OTHER', name: 'Other', channels: ['C0OTHER001'] }],
	}).start();
	try {
		const web = client(token, single);
		expect(await web.auth.test()).toMatchObject({
			team_id: 'T0001',
			user_id: 'U0BOT',
			bot_id: 'B0BOT',
			url: 'https://example.slack.com/',
		});
		expect((await web.chat.postMessage({ channel: 'C0ANY00001', text: 'a' })).channel).toBe(
			'C0ANY00001',
		);
		expect((await web.chat.postMessage({ channel: '#alerts', text: 'b' })).channel).toBe(
			single.channelId('#alerts'),
		);
		expect(await errorOf(web.chat.postMessage({ channel: 'C0OTHER001', text: 'c' }))).toBe(
			'channel_not_found',
		);
		expect(await errorOf(client(fakeSlackToken('b'), single).auth.test())).toBe('invalid_auth');
		expect(await errorOf(client(undefined, single).auth.test())).toBe('not_authed');
	} finally {
		await single.close();
	}
});

test("a workspace's token reaches its own channels; another workspace's is channel_not_found for every method that takes a channel", async () => {
	const harbor = client((await install({ team: 'T0HARBOR', user: 'U0HADMIN' })).access_token);
	const provider = client(providerToken);
	const channel = 'C0PROVIDER1';
	const { ts } = await provider.chat.postMessage({ channel, text: 'fault on drive 7' });
	const calls: Array<[string, (web: webApi.WebClient) => Promise<unknown>]> = [
		['chat.postMessage', (web) => web.chat.postMessage({ channel, text: 'hello' })],
		['chat.update', (web) => web.chat.update({ channel, ts: ts!, text: 'fault on drive 7' })],
		['chat.postEphemeral', (web) => web.chat.postEphemeral({ channel, user: 'U0P1', text: 'x' })],
		['conversations.history', (web) => web.conversations.history({ channel })],
		['conversations.replies', (web) => web.conversations.replies({ channel, ts: ts! })],
		['chat.getPermalink', (web) => web.chat.getPermalink({ channel, message_ts: ts! })],
		[
			'files.uploadV2',
			(web) => web.filesUploadV2({ channel_id: channel, content: 'x', filename: 'trend.csv' }),
		],
	];
	for (const [method, call] of calls) {
		expect([method, await errorOf(call(harbor))]).toEqual([method, 'channel_not_found']);
		expect([method, await errorOf(call(provider))]).toEqual([method, 'ok']);
	}
	expect(slack.posts().filter((m) => m.channel === channel && m.text === 'hello')).toHaveLength(1);
	// A #name is looked up among the caller's own channels: two workspaces have an #alerts.
	expect((await harbor.chat.postMessage({ channel: '#alerts', text: 'h' })).channel).toBe(
		'C0HARBOR01',
	);
	expect(await errorOf(provider.chat.postMessage({ channel: '#alerts', text: 'p' }))).toBe(
		'channel_not_found',
	);
});

test("a Slack Connect channel shared by two workspaces takes both their tokens and no third's", async () => {
	const harborToken = (await install({ team: 'T0HARBOR', user: 'U0HADMIN' })).access_token;
	const lakeToken = (await install({ team: 'T0LAKE', user: 'U0LADMIN' })).access_token;
	for (const token of [providerToken, harborToken])
		expect(
			await errorOf(client(token).chat.postMessage({ channel: 'C0SHARED01', text: 'shared' })),
		).toBe('ok');
	expect(
		await errorOf(client(lakeToken).chat.postMessage({ channel: 'C0SHARED01', text: 'x' })),
	).toBe('channel_not_found');
	const listed = await client(harborToken).conversations.list();
	expect(listed.channels).toEqual([
		expect.objectContaining({
			id: 'C0SHARED01',
			is_ext_shared: true,
			context_team_id: 'T0PROVIDER',
		}),
		expect.objectContaining({
			id: 'C0HARBOR01',
			is_ext_shared: false,
			context_team_id: 'T0HARBOR',
		}),
	]);
});

test("oauth.v2.access answers as Slack's v2 OAuth does, for a workspace, a Grid workspace and an org-wide install; auth.test then names the installation", async () => {
	const fields = (who: Consent) => ({
		client_id: clientId,
		client_secret: clientSecret,
		code: slack.oauth!.issueCode(who, ['chat:write', 'commands']),
	});
	const lake = await exchange(fields({ team: 'T0LAKE', user: 'U0LADMIN' }));
	expect(Object.keys(lake).sort()).toEqual([
		'access_token',
		'app_id',
		'authed_user',
		'bot_user_id',
		'enterprise',
		'is_enterprise_install',
		'ok',
		'scope',
		'team',
		'token_type',
	]);
	expect(lake).toMatchObject({
		ok: true,
		app_id: 'A0DRIVE',
		authed_user: { id: 'U0LADMIN' },
		scope: 'chat:write,commands',
		token_type: 'bot',
		access_token: expect.stringMatching(/^xoxb-/),
		team: { id: 'T0LAKE', name: 'Lake Water' },
		enterprise: null,
		is_enterprise_install: false,
	});
	const north = await exchange(fields({ team: 'T0GRIDA', user: 'U0GADMIN' }));
	expect(north).toMatchObject({
		team: { id: 'T0GRIDA', name: 'Grid North' },
		enterprise: { id: 'E0GRID', name: 'Grid Utilities' },
		is_enterprise_install: false,
	});
	const org = await exchange(fields({ enterprise: 'E0GRID', orgWide: true, user: 'U0GADMIN' }));
	expect(org).toMatchObject({
		team: null,
		enterprise: { id: 'E0GRID', name: 'Grid Utilities' },
		is_enterprise_install: true,
	});
	expect(new Set([lake.access_token, north.access_token, org.access_token]).size).toBe(3);
	expect(await client(String(lake.access_token)).auth.test()).toMatchObject({
		team_id: 'T0LAKE',
		user_id: lake.bot_user_id,
		bot_id: expect.stringMatching(/^B/),
		is_enterprise_install: false,
	});
	expect(await client(String(north.access_token)).auth.test()).toMatchObject({
		team_id: 'T0GRIDA',
		enterprise_id: 'E0GRID',
		is_enterprise_install: false,
	});
	expect(await client(String(org.access_token)).auth.test()).toMatchObject({
		team_id: 'E0GRID',
		enterprise_id: 'E0GRID',
		user_id: org.bot_user_id,
		url: 'https://e0grid.enterprise.slack.com/',
		is_enterprise_install: true,
	});
	// One bot token per workspace: installing again keeps it.
	expect((await exchange(fields({ team: 'T0LAKE', user: 'U0LADMIN2' }))).access_token).toBe(
		lake.access_token,
	);
});

test('the token exchange checks the app as Slack does: HTTP Basic or form fields, the redirect URL the code was issued for, each code once', async () => {
	const who = { team: 'T0LAKE', user: 'U0LADMIN' };
	const code = () => slack.oauth!.issueCode(who, ['chat:write']);
	const basic = (id: string, secret: string) =>
		`Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
	const once = code();
	expect(await exchange({ code: once }, basic(clientId, clientSecret))).toMatchObject({ ok: true });
	expect(await exchange({ code: once }, basic(clientId, clientSecret))).toEqual({
		ok: false,
		error: 'invalid_code',
	});
	expect(await exchange({ code: code() }, basic(clientId, 'wrong'))).toMatchObject({
		error: 'bad_client_secret',
	});
	expect(
		await exchange({ client_id: '9999.9999', client_secret: clientSecret, code: code() }),
	).toMatchObject({ error: 'invalid_client_id' });
	expect(await exchange({ code: code() })).toMatchObject({ error: 'invalid_client_id' });
	const credentials = { client_id: clientId, client_secret: clientSecret };
	expect(
		await exchange({ ...credentials, code: code(), grant_type: 'refresh_token' }),
	).toMatchObject({ error: 'invalid_grant_type' });
	// A code issued for an explicit redirect_uri is exchanged with that one only.
	const page = new URL(slack.authorizeUrl);
	page.search = new URLSearchParams({
		client_id: clientId,
		scope: 'chat:write',
		state: 's1',
		redirect_uri: `${redirect}/lake`,
	}).toString();
	const approved = slack.oauth!.approve(page, who);
	if (!('location' in approved)) throw new Error(`refused: ${approved.refused}`);
	const back = new URL(approved.location);
	expect(back.origin + back.pathname).toBe(`${redirect}/lake`);
	expect(back.searchParams.get('state')).toBe('s1');
	const explicit = back.searchParams.get('code')!;
	expect(await exchange({ ...credentials, code: explicit })).toMatchObject({
		error: 'bad_redirect_uri',
	});
	expect(await exchange({ ...credentials, code: explicit, redirect_uri: redirect })).toMatchObject({
		error: 'bad_redirect_uri',
	});
	expect(
		await exchange({ ...credentials, code: explicit, redirect_uri: `${redirect}/lake` }),
	).toMatchObject({ ok: true });
	expect(JSON.stringify(slack.calls)).not.toContain(clientSecret);
});

test("the authorize page refuses another app and a redirect URL outside the app's settings, and sends a refusal back", async () => {
	const page = (query: Record<string, string>) =>
		fetch(`${slack.authorizeUrl}?${new URLSearchParams(query)}`, { redirect: 'manual' });
	slack.signedInAs = { team: 'T0LAKE', user: 'U0LADMIN' };
	const wrongApp = await page({ client_id: '9999.9999', scope: 'chat:write' });
	expect([wrongApp.status, await wrongApp.text()]).toEqual([400, 'invalid_client_id']);
	const elsewhere = await page({
		client_id: clientId,
		scope: 'chat:write',
		redirect_uri: 'https://attacker.example/slack/oauth_redirect',
	});
	expect([elsewhere.status, await elsewhere.text()]).toEqual([400, 'bad_redirect_uri']);
	slack.signedInAs = { team: 'T0LAKE', user: 'U0LADMIN', deny: true };
	const denied = await page({ client_id: clientId, scope: 'chat:write', state: 's2' });
	expect(denied.status).toBe(302);
	expect(denied.headers.get('location')).toBe(`${redirect}?error=access_denied&state=s2`);
	slack.signedInAs = undefined;
	expect((await page({ client_id: clientId, scope: 'chat:write' })).status).toBe(400);
});

test('an org-wide install reaches the channels of every workspace of its org and no other, and names the workspace to list channels', async () => {
	const org = client(
		(await install({ enterprise: 'E0GRID', orgWide: true, user: 'U0GADMIN' })).access_token,
	);
	for (const channel of ['C0GRIDA001', 'C0GRIDB001'])
		expect(await errorOf(org.chat.postMessage({ channel, text: 'org' }))).toBe('ok');
	for (const channel of ['C0HARBOR01', 'C0SHARED01', 'C0PROVIDER1'])
		expect(await errorOf(org.chat.postMessage({ channel, text: 'org' }))).toBe('channel_not_found');
	expect(await errorOf(org.conversations.list())).toBe('missing_argument');
	expect((await org.conversations.list({ team_id: 'T0GRIDB' })).channels).toEqual([
		expect.objectContaining({ id: 'C0GRIDB001', context_team_id: 'T0GRIDB' }),
	]);
	expect(await errorOf(org.conversations.list({ team_id: 'T0HARBOR' }))).toBe(
		'team_access_not_granted',
	);
	expect((await org.auth.teams.list()).teams?.map((t) => t.id)).toEqual(['T0GRIDA', 'T0GRIDB']);
});

test('an uninstall ends a token at once (token_revoked), an unknown token is invalid_auth, a reinstall brings a new token', async () => {
	const first = (await install({ team: 'T0HARBOR', user: 'U0HADMIN' })).access_token!;
	const harbor = client(first);
	expect(
		await errorOf(harbor.apps.uninstall({ client_id: clientId, client_secret: 'wrong' })),
	).toBe('bad_client_secret');
	expect(await errorOf(harbor.auth.test())).toBe('ok');
	await harbor.apps.uninstall({ client_id: clientId, client_secret: clientSecret });
	expect(await errorOf(harbor.auth.test())).toBe('token_revoked');
	expect(await errorOf(harbor.chat.postMessage({ channel: 'C0HARBOR01', text: 'x' }))).toBe(
		'token_revoked',
	);
	expect(await errorOf(client(fakeSlackToken('b')).auth.test())).toBe('invalid_auth');
	const second = (await install({ team: 'T0HARBOR', user: 'U0HADMIN' })).access_token!;
	expect(second).not.toBe(first);
	expect(await errorOf(client(second).chat.postMessage({ channel: 'C0HARBOR01', text: 'y' }))).toBe(
		'ok',
	);
	expect(await client(second).auth.revoke({ test: true })).toMatchObject({ revoked: false });
	expect(await client(second).auth.revoke()).toMatchObject({ revoked: true });
	expect(await errorOf(client(second).auth.test())).toBe('token_revoked');
});

test('the test hook uninstalls as a workspace admin would and hands back the events Slack sends, which name the bot user and never the token', async () => {
	const org = await install({ enterprise: 'E0GRID', orgWide: true, user: 'U0GADMIN' });
	const events = slack.uninstall('E0GRID');
	expect(await errorOf(client(org.access_token).auth.test())).toBe('token_revoked');
	const orgWide = {
		enterprise_id: 'E0GRID',
		team_id: null,
		user_id: org.bot_user_id,
		is_bot: true,
		is_enterprise_install: true,
	};
	expect(events.appUninstalled).toMatchObject({
		type: 'event_callback',
		team_id: 'E0GRID',
		api_app_id: 'A0DRIVE',
		event: { type: 'app_uninstalled' },
		authorizations: [orgWide],
	});
	expect(events.tokensRevoked).toMatchObject({
		event: { type: 'tokens_revoked', tokens: { bot: [org.bot_user_id] } },
		authorizations: [orgWide],
	});
	expect(JSON.stringify(events)).not.toContain(org.access_token);
	expect(() => slack.uninstall('E0GRID')).toThrow('not installed in E0GRID');
});
