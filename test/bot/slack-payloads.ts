// What Slack sends an app installed in many workspaces, built from the test Slack's directory:
// the events that end an installation (app_uninstalled, tokens_revoked) and the requests a
// channel shared between workspaces carries.
//
// Which ids stand where in a shared channel, as Slack sends them and Bolt reads them
// (bolt-js App.ts buildSource; bolt-js#935 and java-slack-sdk#629 show real payloads):
// - an event's envelope `team_id` (and `context_team_id`) is the workspace that holds the
//   channel; `event.team` / `user_team` the poster's workspace; `authorizations` names ONE
//   installation that may see the event (Slack truncates the list to one), the one whose token
//   Bolt authorizes with; `is_ext_shared_channel` is true across orgs;
// - a slash command's `team_id` is the invoking user's workspace: Slack hands the command to
//   the app installed there;
// - an interaction's `team` is the installation whose message was clicked (null for an org-wide
//   install), `user.team_id` the clicking user's workspace.
// An app must not take the tenant from any one of these alone.
import { randomBytes } from 'node:crypto';
import { buttonClickBody, signature, slashCommandBody } from './helpers';
import { grantKey, type Grant, type SlackDirectory } from './slack-workspaces';

export interface Authorization {
	enterprise_id: string | null;
	/** null for an org-wide install (Bolt then reads the envelope's team_id). */
	team_id: string | null;
	user_id: string;
	is_bot: true;
	is_enterprise_install: boolean;
}

export interface EventEnvelope {
	token: string;
	team_id: string;
	enterprise_id?: string;
	context_team_id: string;
	context_enterprise_id: string | null;
	api_app_id: string;
	event: Record<string, unknown>;
	type: 'event_callback';
	event_id: string;
	event_time: number;
	authorizations: Authorization[];
	is_ext_shared_channel: boolean;
	event_context: string;
}

function authorization(grant: Grant): Authorization {
	return {
		enterprise_id: grant.enterpriseId,
		team_id: grant.isEnterpriseInstall ? null : grant.teamId,
		user_id: grant.botUserId,
		is_bot: true,
		is_enterprise_install: grant.isEnterpriseInstall,
	};
}

function eventTs(): string {
	return `${(Date.now() / 1000).toFixed(6)}`;
}

function envelope(
	where: { teamId: string; enterpriseId: string | null },
	seenBy: Grant,
	event: Record<string, unknown>,
	externallyShared = false,
): EventEnvelope {
	const now = Math.floor(Date.now() / 1000);
	return {
		token: 'legacy-verification-token',
		team_id: where.teamId,
		...(where.enterpriseId ? { enterprise_id: where.enterpriseId } : {}),
		context_team_id: where.teamId,
		context_enterprise_id: where.enterpriseId,
		api_app_id: seenBy.appId,
		event,
		type: 'event_callback',
		event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
		event_time: now,
		authorizations: [authorization(seenBy)],
		is_ext_shared_channel: externallyShared,
		event_context: `4-${Buffer.from(`${event.type}-${where.teamId}-${seenBy.appId}`).toString('base64url')}`,
	};
}

/** The installation that serves a workspace: its own, else its org's org-wide install. */
export function servingGrant(directory: SlackDirectory, teamId: string): Grant | undefined {
	const enterpriseId = directory.workspace(teamId)?.enterpriseId;
	return (
		directory.activeGrant(teamId) ??
		(enterpriseId ? directory.activeGrant(enterpriseId) : undefined)
	);
}

/**
 * The two events Slack sends when an installation ends (uninstalled, or its tokens revoked), in
 * no guaranteed order: `tokens_revoked` names the bot's user id, never the token.
 */
export function uninstallEvents(grant: Grant): {
	appUninstalled: EventEnvelope;
	tokensRevoked: EventEnvelope;
} {
	// An org-wide install has no workspace: Slack puts the org's id where a team id stands.
	const where = { teamId: grantKey(grant), enterpriseId: grant.enterpriseId };
	return {
		appUninstalled: envelope(where, grant, { type: 'app_uninstalled', event_ts: eventTs() }),
		tokensRevoked: envelope(where, grant, {
			type: 'tokens_revoked',
			tokens: { bot: [grant.botUserId] },
			event_ts: eventTs(),
		}),
	};
}

/** A message a person of `userTeam` posts in a channel, as the app's event subscription gets it. */
export function messageEvent(
	directory: SlackDirectory,
	message: { channel: string; user: string; userTeam: string; text: string; seenBy?: string },
): EventEnvelope {
	const host = directory.channelOwner(message.channel);
	if (!host) throw new Error(`the test Slack has no channel ${message.channel}`);
	const seenBy = message.seenBy
		? directory.activeGrant(message.seenBy)
		: directory
				.channelTeams(message.channel)
				.map((team) => servingGrant(directory, team))
				.find((grant) => grant !== undefined);
	if (!seenBy || !directory.reaches(seenBy, message.channel))
		throw new Error(`no installation sees ${message.channel}: Slack would send no event`);
	const ts = eventTs();
	return envelope(
		{ teamId: host, enterpriseId: directory.workspace(host)?.enterpriseId ?? null },
		seenBy,
		{
			type: 'message',
			channel: message.channel,
			channel_type: 'channel',
			user: message.user,
			text: message.text,
			ts,
			event_ts: ts,
			team: message.userTeam,
			user_team: message.userTeam,
			source_team: message.userTeam,
		},
		directory.isExternallyShared(message.channel),
	);
}

/** The installation a person of `userTeam` reaches the app through in `channel`; Slack sends nothing without one. */
function installationFor(directory: SlackDirectory, userTeam: string, channel: string): Grant {
	const grant = servingGrant(directory, userTeam);
	if (!grant || !directory.reaches(grant, channel))
		throw new Error(
			`the app is not installed for ${userTeam} in ${channel}: Slack would send nothing`,
		);
	return grant;
}

/** A slash command typed by a person of `userTeam` (the team of the request is theirs). */
export function commandBody(
	directory: SlackDirectory,
	fields: {
		channel: string;
		user: string;
		userTeam: string;
		command: string;
		text: string;
		responseUrl: string;
	},
): string {
	const grant = installationFor(directory, fields.userTeam, fields.channel);
	const form = new URLSearchParams(slashCommandBody(fields));
	const workspace = directory.workspace(fields.userTeam);
	form.set('team_id', fields.userTeam);
	form.set('team_domain', workspace?.domain ?? '');
	const enterprise = workspace?.enterpriseId
		? directory.enterprise(workspace.enterpriseId)
		: undefined;
	if (enterprise) {
		form.set('enterprise_id', enterprise.id);
		form.set('enterprise_name', enterprise.name);
	}
	form.set('is_enterprise_install', String(grant.isEnterpriseInstall));
	form.set('api_app_id', grant.appId);
	return form.toString();
}

/**
 * A button pressed by a person of `userTeam` on a message that the installation `postedBy` (a
 * team id, or an org id for an org-wide install) posted.
 */
export function actionBody(
	directory: SlackDirectory,
	fields: {
		channel: string;
		user: string;
		userTeam: string;
		postedBy: string;
		actionId: string;
		value: string;
		responseUrl: string;
		text?: string;
	},
): string {
	const poster = directory.activeGrant(fields.postedBy);
	if (!poster || !directory.reaches(poster, fields.channel))
		throw new Error(`${fields.postedBy} has no installation posting in ${fields.channel}`);
	installationFor(directory, fields.userTeam, fields.channel);
	const form = new URLSearchParams(buttonClickBody(fields));
	const payload = JSON.parse(form.get('payload') ?? '{}') as Record<string, unknown>;
	const enterprise = poster.enterpriseId ? directory.enterprise(poster.enterpriseId) : undefined;
	const team = poster.teamId ? directory.workspace(poster.teamId) : undefined;
	Object.assign(payload, {
		user: { ...(payload.user as object), team_id: fields.userTeam },
		team: team ? { id: team.id, domain: team.domain } : null,
		enterprise: enterprise ? { id: enterprise.id, name: enterprise.name } : null,
		is_enterprise_install: poster.isEnterpriseInstall,
		api_app_id: poster.appId,
	});
	return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** A request as Slack signs it: the body and the headers that carry its timestamp and signature. */
export function signedRequest(
	signingSecret: string,
	body: string | EventEnvelope,
	timestamp = Math.floor(Date.now() / 1000),
): { body: string; headers: Record<string, string> } {
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	return {
		body: text,
		headers: {
			'content-type':
				typeof body === 'string' ? 'application/x-www-form-urlencoded' : 'application/json',
			'x-slack-request-timestamp': String(timestamp),
			'x-slack-signature': signature(signingSecret, timestamp, text),
		},
	};
}
