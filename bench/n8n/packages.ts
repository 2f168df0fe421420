// The one place that says what the real-n8n benchmark installs and which node and credential
// types it uses. When the push trigger moves to its companion package, add that package here
// and change TYPES.trigger / CREDENTIALS.push to its names.
import path from 'node:path';

import { installPack, packRepository, REPO_ROOT, type InstalledPack } from '../../scripts/n8n/install-pack';

/** Repositories packed with `npm pack` and installed as n8n's community-package installer does. */
export const PACKAGES_UNDER_TEST: Array<{ name: string; root: string }> = [{ name: 'n8n-nodes-drive-monitoring', root: REPO_ROOT }];

export const TYPES = {
  action: 'n8n-nodes-drive-monitoring.driveMonitoring',
  trigger: 'n8n-nodes-drive-monitoring.driveMonitoringTrigger',
} as const;

export const CREDENTIALS = { api: 'driveMonitoringApi', push: 'driveMonitoringPushApi' } as const;

/** Packs and installs every package under test into the user folder. */
export async function installPackagesUnderTest(userFolder: string): Promise<InstalledPack[]> {
  const installed: InstalledPack[] = [];
  for (const pkg of PACKAGES_UNDER_TEST) {
    if (pkg.root !== REPO_ROOT) throw new Error(`${pkg.name}: install-pack packs this repository only; teach it ${pkg.root}`);
    const tarball = await packRepository(path.join(userFolder, 'pack'));
    installed.push(await installPack(tarball, userFolder));
  }
  return installed;
}
