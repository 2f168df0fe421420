// Who is who in the test Slack: workspaces, Enterprise Grid orgs, the channels each workspace
// holds or shares, and the bot tokens the app was given. Slack's rules as an app meets them: a
// token reaches the channels of its own workspace and those shared with it (Slack Connect); an
// org-wide install's token reaches those of every workspace of its org; any other channel is
// `channel_not_found`, as if it did not exist.
import { createHash } from 'node:crypto';
import { fakeSlackToken } from './helpers';

/** A channel a workspace holds. */
export interface ChannelSpec {
	id: string;
	name?: string;
	/** The other workspaces it is shared with (a Slack Connect channel, or one shared across a Grid org). */
	sharedWith?: string[];
}

export interface WorkspaceSpec {
	/** The team id, T… */
	id: string;
	name: string;
	/** `<domain>.slack.com`; default the id in lower case. */
	domain?: string;
	/** The Grid org (E…) the workspace belongs to. */
	enterpriseId?: string;
	channels?: Array<string | ChannelSpec>;
	/** A bot token the app holds there already (installed before the test starts). */
	botToken?: string;
}

export interface EnterpriseSpec {
	/** The org id, E… */
	id: string;
	name: string;
	/** `<domain>.enterprise.slack.com`; default the id in lower case. */
	domain?: string;
}

/** One installation's bot token and what Slack knows of it. */
export interface Grant {
	token: string;
	appId: string;
	/** null for an org-wide install: its token is the org's, not one workspace's. */
	teamId: string | null;
	enterpriseId: string | null;
	isEnterpriseInstall: boolean;
	botUserId: string;
	botId: string;
	scopes: string[];
	/** The user who installed (oauth.v2.access `authed_user`). */
	installerId: string;
	revoked: boolean;
}

/** Where a call comes from: enough to tell which channels it reaches. */
export type Caller = Pick<Grant, 'teamId' | 'enterpriseId' | 'isEnterpriseInstall'>;

/** The single-token form's workspace (`token` alone): the ids every existing test and the bot's fixtures use. */
export const OPEN_WORKSPACE = {
	id: 'T0001',
	name: 'Plant',
	domain: 'example',
	botUserId: 'U0BOT',
	botId: 'B0BOT',
};
export const APP_ID = 'A0DRIVE';

interface Workspace {
	id: string;
	name: string;
	domain: string;
	enterpriseId: string | null;
}

interface Channel {
	id: string;
	name?: string;
	owner: string;
	sharedWith: Set<string>;
}

/** A stable id for something the directory makes up (a bot user, a bot). */
function derivedId(prefix: string, seed: string): string {
	return `${prefix}0${createHash('sha1').update(seed).digest('hex').slice(0, 9).toUpperCase()}`;
}

export class SlackDirectory {
	private readonly workspaces = new Map<string, Workspace>();
	private readonly enterprises = new Map<string, Required<EnterpriseSpec>>();
	private readonly channels = new Map<string, Channel>();
	private readonly grants = new Map<string, Grant>();
	/**
	 * The single-token form's workspace: it holds every channel no workspace declares, so that a
	 * test posting to any id or #name works as it always has.
	 */
	readonly openTeam: string | undefined;

	constructor(options: {
		token?: string;
		workspaces?: WorkspaceSpec[];
		enterprises?: EnterpriseSpec[];
	}) {
		for (const enterprise of options.enterprises ?? []) this.addEnterprise(enterprise);
		for (const workspace of options.workspaces ?? []) this.addWorkspace(workspace);
		if (options.token !== undefined) {
			this.openTeam = OPEN_WORKSPACE.id;
			if (!this.workspaces.has(OPEN_WORKSPACE.id)) this.addWorkspace(OPEN_WORKSPACE);
			this.grants.set(options.token, {
				...this.grantShape(OPEN_WORKSPACE.id, null, false),
				token: options.token,
				botUserId: OPEN_WORKSPACE.botUserId,
				botId: OPEN_WORKSPACE.botId,
			});
		}
	}

	addEnterprise(spec: EnterpriseSpec): void {
		this.enterprises.set(spec.id, { domain: spec.id.toLowerCase(), ...spec });
	}

	addWorkspace(spec: WorkspaceSpec): void {
		if (spec.enterpriseId && !this.enterprises.has(spec.enterpriseId))
			throw new Error(`workspace ${spec.id}: no enterprise ${spec.enterpriseId} was declared`);
		this.workspaces.set(spec.id, {
			id: spec.id,
			name: spec.name,
			domain: spec.domain ?? spec.id.toLowerCase(),
			enterpriseId: spec.enterpriseId ?? null,
		});
		for (const channel of spec.channels ?? []) this.addChannel(spec.id, channel);
		if (spec.botToken)
			this.grants.set(spec.botToken, {
				...this.grantShape(spec.id, spec.enterpriseId ?? null, false),
				token: spec.botToken,
			});
	}

	addChannel(owner: string, spec: string | ChannelSpec): void {
		const channel = typeof spec === 'string' ? { id: spec } : spec;
		if (!this.workspaces.has(owner))
			throw new Error(`channel ${channel.id}: no workspace ${owner}`);
		this.channels.set(channel.id, {
			id: channel.id,
			name: channel.name,
			owner,
			sharedWith: new Set(channel.sharedWith ?? []),
		});
	}

	/** Shares a channel with one more workspace (a Slack Connect invitation accepted). */
	shareChannel(channelId: string, teamId: string): void {
		const channel = this.channels.get(channelId);
		if (!channel) throw new Error(`no declared channel ${channelId}`);
		channel.sharedWith.add(teamId);
	}

	workspace(teamId: string): Workspace | undefined {
		return this.workspaces.get(teamId);
	}

	enterprise(enterpriseId: string): Required<EnterpriseSpec> | undefined {
		return this.enterprises.get(enterpriseId);
	}

	/** The workspace holding a channel: a declared one's owner, any other id the open workspace's (if any). */
	channelOwner(channelId: string): string | undefined {
		return this.channels.get(channelId)?.owner ?? this.openTeam;
	}

	/** The workspaces a channel is in: its owner first, then those it is shared with. */
	channelTeams(channelId: string): string[] {
		const owner = this.channelOwner(channelId);
		if (!owner) return [];
		return [owner, ...(this.channels.get(channelId)?.sharedWith ?? [])];
	}

	/** Does the channel cross an org's border (Slack's `is_ext_shared`), not only workspaces of one Grid org? */
	isExternallyShared(channelId: string): boolean {
		const teams = this.channelTeams(channelId);
		const orgs = new Set(teams.map((t) => this.workspaces.get(t)?.enterpriseId ?? t));
		return orgs.size > 1;
	}

	/** Does a token's installation see this workspace? */
	covers(caller: Caller, teamId: string): boolean {
		if (!caller.isEnterpriseInstall) return caller.teamId === teamId;
		return (
			caller.enterpriseId !== null &&
			this.workspaces.get(teamId)?.enterpriseId === caller.enterpriseId
		);
	}

	reaches(caller: Caller, channelId: string): boolean {
		return this.channelTeams(channelId).some((team) => this.covers(caller, team));
	}

	/**
	 * The id a `channel` argument names for this caller, when it reaches it: an id as given, a
	 * #name among the channels it reaches (the open workspace's undeclared names as stable ids).
	 */
	resolveChannel(
		caller: Caller,
		channel: string,
		openNameToId: (name: string) => string,
	): string | undefined {
		if (!channel.startsWith('#')) return this.reaches(caller, channel) ? channel : undefined;
		const declared = [...this.channels.values()].find(
			(c) => `#${c.name}` === channel && this.reaches(caller, c.id),
		);
		if (declared) return declared.id;
		return caller.teamId !== null && caller.teamId === this.openTeam
			? openNameToId(channel)
			: undefined;
	}

	/** The declared channels a workspace sees: its own and those shared with it. */
	channelsOf(teamId: string): Array<{ id: string; name?: string; owner: string; shared: boolean }> {
		return [...this.channels.values()]
			.filter((c) => c.owner === teamId || c.sharedWith.has(teamId))
			.map((c) => ({ id: c.id, name: c.name, owner: c.owner, shared: c.sharedWith.size > 0 }));
	}

	/** The workspaces an installation sees (auth.teams.list). */
	teamsOf(caller: Caller): string[] {
		return [...this.workspaces.keys()].filter((team) => this.covers(caller, team));
	}

	grant(token: string): Grant | undefined {
		return this.grants.get(token);
	}

	/** The live installation of the app for a workspace (T…) or, org-wide, an org (E…). */
	activeGrant(key: string): Grant | undefined {
		return [...this.grants.values()].find((g) => !g.revoked && grantKey(g) === key);
	}

	/**
	 * Installs the app. A workspace (or org) that has it installed keeps its bot token, the scopes
	 * joined, as Slack does on a reinstall; after an uninstall it gets a new one.
	 */
	install(target: {
		teamId: string | null;
		enterpriseId: string | null;
		orgWide: boolean;
		installerId: string;
		scopes: string[];
		appId: string;
	}): Grant {
		const key = target.orgWide ? target.enterpriseId : target.teamId;
		if (!key) throw new Error('an install names a workspace, or an org for an org-wide install');
		const current = this.activeGrant(key);
		if (current) {
			current.scopes = [...new Set([...current.scopes, ...target.scopes])];
			return current;
		}
		const grant: Grant = {
			...this.grantShape(
				target.orgWide ? null : target.teamId,
				target.enterpriseId,
				target.orgWide,
			),
			token: fakeSlackToken('b'),
			appId: target.appId,
			scopes: target.scopes,
			installerId: target.installerId,
		};
		this.grants.set(grant.token, grant);
		return grant;
	}

	/** Uninstalls the app from a workspace (T…) or an org-wide install (E…): its tokens are revoked at once. */
	uninstall(key: string): Grant[] {
		const revoked = [...this.grants.values()].filter((g) => !g.revoked && grantKey(g) === key);
		for (const grant of revoked) grant.revoked = true;
		return revoked;
	}

	/** auth.test's answer for a bot token. */
	authTest(grant: Grant): Record<string, unknown> {
		const enterprise = grant.enterpriseId ? this.enterprises.get(grant.enterpriseId) : undefined;
		if (grant.isEnterpriseInstall && enterprise)
			return {
				ok: true,
				url: `https://${enterprise.domain}.enterprise.slack.com/`,
				team: enterprise.name,
				user: 'drive-bot',
				team_id: enterprise.id,
				user_id: grant.botUserId,
				bot_id: grant.botId,
				enterprise_id: enterprise.id,
				is_enterprise_install: true,
			};
		const workspace = this.workspaces.get(grant.teamId ?? '');
		return {
			ok: true,
			url: `https://${workspace?.domain}.slack.com/`,
			team: workspace?.name,
			user: 'drive-bot',
			team_id: grant.teamId,
			user_id: grant.botUserId,
			bot_id: grant.botId,
			...(grant.enterpriseId ? { enterprise_id: grant.enterpriseId } : {}),
			is_enterprise_install: false,
		};
	}

	private grantShape(
		teamId: string | null,
		enterpriseId: string | null,
		orgWide: boolean,
	): Omit<Grant, 'token'> {
		const seed = (orgWide ? enterpriseId : teamId) ?? '';
		return {
			appId: APP_ID,
			teamId,
			enterpriseId,
			isEnterpriseInstall: orgWide,
			botUserId: derivedId('U', `bot-user/${seed}`),
			botId: derivedId('B', `bot/${seed}`),
			scopes: ['chat:write', 'commands'],
			installerId: 'U0INSTALLER',
			revoked: false,
		};
	}
}

/** What an installation is known by: its org for an org-wide install, else its workspace. */
export function grantKey(grant: Caller): string {
	return (grant.isEnterpriseInstall ? grant.enterpriseId : grant.teamId) ?? '';
}

/**
 * A provider's Slack and its customers': the provider's workspace with a Slack Connect channel
 * shared with Harbor Water's, a second customer alone (Lake), and a Grid org of two workspaces.
 * Two of them name a channel #alerts. `tokens` gives some workspaces the app installed already.
 */
export function sampleSlack(tokens: Record<string, string> = {}): {
	enterprises: EnterpriseSpec[];
	workspaces: WorkspaceSpec[];
} {
	const workspaces: WorkspaceSpec[] = [
		{
			id: 'T0PROVIDER',
			name: 'Provider',
			channels: [
				{ id: 'C0PROVIDER1', name: 'maintenance' },
				{ id: 'C0SHARED01', name: 'harbor-support', sharedWith: ['T0HARBOR'] },
			],
		},
		{ id: 'T0HARBOR', name: 'Harbor Water', channels: [{ id: 'C0HARBOR01', name: 'alerts' }] },
		{ id: 'T0LAKE', name: 'Lake Water', channels: [{ id: 'C0LAKE0001', name: 'drives' }] },
		{
			id: 'T0GRIDA',
			name: 'Grid North',
			enterpriseId: 'E0GRID',
			channels: [{ id: 'C0GRIDA001', name: 'alerts' }],
		},
		{
			id: 'T0GRIDB',
			name: 'Grid South',
			enterpriseId: 'E0GRID',
			channels: [{ id: 'C0GRIDB001', name: 'plant-south' }],
		},
	];
	return {
		enterprises: [{ id: 'E0GRID', name: 'Grid Utilities' }],
		workspaces: workspaces.map((w) => (tokens[w.id] ? { ...w, botToken: tokens[w.id] } : w)),
	};
}
