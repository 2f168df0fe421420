import { DAY } from '../../time';
import type { Seeding } from './seeding';

/** A few reports per reporting-level asset: recent ones (E22 lists them), older ones, and one failure. */
export function seedReports({ data, origin }: Seeding): void {
	const reportable = [...data.assets.values()].filter(
		(a) =>
			a.assetType !== 'PowerTrain' &&
			a.subscriptions.some((s) => s.level !== 'Entry' && s.endAt > origin) &&
			origin - a.createdOn > 30 * DAY,
	);
	for (const asset of reportable.slice(0, 12)) {
		const org = data.orgs.get(asset.orgId);
		for (const [daysAgo, status] of [
			[2, 'Created'],
			[5, 'Failed'],
			[20, 'Created'],
		] as const) {
			const createdOn = origin - daysAgo * DAY;
			const id = data.ids.report++;
			data.reports.set(id, {
				id,
				orgId: asset.orgId,
				assetIds: [asset.id],
				title: `${asset.name} monthly report`,
				subTitle: 'Operating summary',
				reportType: 'UserDriveReport',
				// The failed one covers a period before the asset existed: the documented failure rule.
				start: status === 'Failed' ? asset.createdOn - 40 * DAY : createdOn - 31 * DAY,
				end: status === 'Failed' ? asset.createdOn - 10 * DAY : createdOn - DAY,
				status,
				createdOn,
				createdUser: org?.adminUserName ?? 'API user',
				readyAt: createdOn + 60_000,
				failReason:
					status === 'Failed' ? 'no data was collected for the assets in the period' : null,
			});
		}
	}
}
