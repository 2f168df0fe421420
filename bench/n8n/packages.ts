// The one place that says what the real-n8n benchmark installs and which node and credential
// types it uses: the pack and its push companion, from the tarballs `npm run pack` writes.
import { installPack, productTarball, type InstalledPack } from '../../scripts/n8n/install-pack';

/** Installed in this order, as n8n's community-package installer does. */
export const PACKAGES_UNDER_TEST = [
	'n8n-nodes-drive-monitoring',
	'n8n-nodes-drive-monitoring-push',
] as const;

export const TYPES = {
	action: 'n8n-nodes-drive-monitoring.driveMonitoring',
	trigger: 'n8n-nodes-drive-monitoring-push.driveMonitoringPushTrigger',
} as const;

export const CREDENTIALS = { api: 'driveMonitoringApi', push: 'driveMonitoringPushApi' } as const;

/** Installs every package under test into the user folder. */
export async function installPackagesUnderTest(userFolder: string): Promise<InstalledPack[]> {
	const installed: InstalledPack[] = [];
	for (const name of PACKAGES_UNDER_TEST)
		installed.push(await installPack(productTarball(name), userFolder));
	return installed;
}
