/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// An installation as the bot's store keeps it: the ids it is found by in clear, the rest (the
// bot token above all) encrypted and bound to its key, so that a row copied onto another
// installation's does not decrypt there.
import type { Installation } from '@slack/bolt';
import { installationKey } from './installation-key';
import type { TokenCipher } from './token-cipher';

export interface StoredInstallation {
	/** The org id of an org-wide install, else the workspace's team id (installationKey). */
	key: string;
	teamId: string | null;
	enterpriseId: string | null;
	isEnterpriseInstall: boolean;
	/** Bolt's whole Installation as JSON, encrypted. */
	encrypted: string;
}

export function storedInstallation(
	installation: Installation,
	cipher: TokenCipher,
): StoredInstallation {
	const key = installationKey(installation);
	return {
		key,
		teamId: installation.team?.id ?? null,
		enterpriseId: installation.enterprise?.id ?? null,
		isEnterpriseInstall: installation.isEnterpriseInstall === true,
		encrypted: cipher.encrypt(JSON.stringify(installation), key),
	};
}

export function installationFromStore(
	stored: StoredInstallation,
	cipher: TokenCipher,
): Installation {
	return JSON.parse(cipher.decrypt(stored.encrypted, stored.key)) as Installation;
}
