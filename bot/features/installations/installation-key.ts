/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Which installation serves a request. Slack's org-wide installs (Enterprise Grid) come back with
// `team` null: keyed by team id they would be lost, so an installation is keyed by its org's id
// (E…) when it is org-wide, else by its workspace's team id (T…), even inside a Grid org.
import type { Installation, InstallationQuery } from '@slack/bolt';

/** The key an installation is stored under. */
export function installationKey(installation: Installation): string {
	const key = installation.isEnterpriseInstall
		? installation.enterprise?.id
		: installation.team?.id;
	if (!key)
		throw new Error(
			installation.isEnterpriseInstall
				? 'Slack returned an org-wide installation without its org id: it cannot be stored'
				: 'Slack returned a workspace installation without its team id: it cannot be stored',
		);
	return key;
}

/**
 * The key of the installation a query names itself: the one an uninstall of that workspace (or
 * org) ends. Never the org's install for a workspace that uninstalled its own.
 */
export function queryKey(query: InstallationQuery<boolean>): string | undefined {
	return (query.isEnterpriseInstall ? query.enterpriseId : query.teamId) || undefined;
}

/**
 * The keys a request's installation is looked up by, in order. A request Bolt reads as org-wide
 * is served by its org's installation only. Any other is served by its workspace's own
 * installation, else by its org's org-wide one: Slack sends some events of an org-wide install's
 * workspaces (team_access_granted, for one) as if the workspace had installed the app itself.
 */
export function lookupKeys(query: InstallationQuery<boolean>): string[] {
	const own = queryKey(query);
	const org = query.isEnterpriseInstall ? undefined : query.enterpriseId || undefined;
	return [own, org].filter((key): key is string => key !== undefined);
}
