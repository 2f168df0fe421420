import type { Installation, InstallationQuery } from '@slack/bolt';
import { randomBytes } from 'node:crypto';
import {
	installationKey,
	lookupKeys,
	queryKey,
} from '../../../../bot/features/installations/installation-key';
import {
	installationFromStore,
	storedInstallation,
} from '../../../../bot/features/installations/stored-installation';
import { TokenCipher } from '../../../../bot/features/installations/token-cipher';
import { fakeSlackToken } from '../../helpers';

function installation(
	where: { team?: string; enterprise?: string; orgWide?: boolean },
	token = fakeSlackToken('b'),
): Installation {
	return {
		team: where.team ? { id: where.team, name: 'Harbor Water' } : undefined,
		enterprise: where.enterprise ? { id: where.enterprise, name: 'Grid Org' } : undefined,
		user: { id: 'U0ADMIN', token: undefined, scopes: undefined },
		bot: { token, scopes: ['chat:write'], id: 'B0HARBOR', userId: 'U0HARBORBOT' },
		isEnterpriseInstall: where.orgWide === true,
		appId: 'A0DRIVE',
		tokenType: 'bot',
		authVersion: 'v2',
	};
}

test('an org-wide install (Slack gives it no team) is keyed by its org, a workspace install by its team even inside an org', () => {
	expect(installationKey(installation({ enterprise: 'E0GRID', orgWide: true }))).toBe('E0GRID');
	expect(installationKey(installation({ team: 'T0GRIDA', enterprise: 'E0GRID' }))).toBe('T0GRIDA');
	expect(installationKey(installation({ team: 'T0HARBOR' }))).toBe('T0HARBOR');
	expect(() => installationKey(installation({ orgWide: true }))).toThrow(
		'org-wide installation without its org id',
	);
});

test('a request is served by its own installation, a Grid workspace then by its org-wide one; an uninstall ends only its own', () => {
	const orgWide: InstallationQuery<boolean> = {
		teamId: 'T0GRIDB',
		enterpriseId: 'E0GRID',
		isEnterpriseInstall: true,
	};
	const inGrid: InstallationQuery<boolean> = {
		teamId: 'T0GRIDA',
		enterpriseId: 'E0GRID',
		isEnterpriseInstall: false,
	};
	const alone: InstallationQuery<boolean> = {
		teamId: 'T0HARBOR',
		enterpriseId: undefined,
		isEnterpriseInstall: false,
	};
	expect(lookupKeys(orgWide)).toEqual(['E0GRID']);
	expect(lookupKeys(inGrid)).toEqual(['T0GRIDA', 'E0GRID']);
	expect(lookupKeys(alone)).toEqual(['T0HARBOR']);
	expect(queryKey(orgWide)).toBe('E0GRID');
	expect(queryKey(inGrid)).toBe('T0GRIDA');
});

test('a stored installation keeps its ids in clear and its token encrypted, and decrypts under its own key only', () => {
	const cipher = new TokenCipher(randomBytes(32));
	const token = fakeSlackToken('b');
	const harbor = storedInstallation(installation({ team: 'T0HARBOR' }, token), cipher);
	expect(harbor).toMatchObject({
		key: 'T0HARBOR',
		teamId: 'T0HARBOR',
		enterpriseId: null,
		isEnterpriseInstall: false,
	});
	expect(JSON.stringify(harbor)).not.toContain(token);
	expect(installationFromStore(harbor, cipher).bot?.token).toBe(token);
	// Copied onto another installation's row, it does not decrypt.
	expect(() => installationFromStore({ ...harbor, key: 'T0OTHER' }, cipher)).toThrow(
		'integrity check',
	);
	const grid = storedInstallation(installation({ enterprise: 'E0GRID', orgWide: true }), cipher);
	expect(grid).toMatchObject({ key: 'E0GRID', teamId: null, isEnterpriseInstall: true });
});
