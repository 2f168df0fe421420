import type { DriveMonitoringClient } from '../../shared';
import type { PushSettings } from '../alerts/sources/push';

/**
 * The data-subscription user the bot receives with (E26 when the organization has none, then
 * E28 for events, CBM, asset states and reports). An existing user's password is masked (A8) and resetting it (E30)
 * would cut off whoever else uses it, so an existing user must be configured explicitly.
 */
export async function ensurePushUser(
  client: DriveMonitoringClient,
  url: string,
  topicName: string,
  cbm: boolean,
  // Connectivity (AssetState) and reports (AssetReport) use the other two types (assumption B32).
  extra: ReadonlyArray<'AssetState' | 'AssetReport'> = ['AssetState', 'AssetReport'],
): Promise<PushSettings> {
  const existing = await client.dataSubscription.getUsers();
  if (existing.length > 0) {
    throw new Error(
      `the organization already has a data-subscription user (${existing[0].userName ?? existing[0].id}); set DRIVE_MONITORING_PUSH_URL, _USER, _PASSWORD and _TOPIC to use it`,
    );
  }
  const user = await client.dataSubscription.createUser();
  const subscribed = await client.dataSubscription.setDataTypes({
    subCustomerId: user.id,
    topicName,
    subDataTypes: [...(cbm ? ['AssetEvent', 'AssetCBM'] : ['AssetEvent']), ...extra] as Array<'AssetEvent' | 'AssetState' | 'AssetReport' | 'AssetCBM'>,
  });
  if (!user.userName || !user.password) throw new Error('E26 answered without a user name or password');
  return { url, userName: user.userName, password: user.password, topic: subscribed.topic ?? topicName };
}
