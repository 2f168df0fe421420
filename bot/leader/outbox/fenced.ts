import type { BotLogger } from '../../log';
import type { Publisher } from '../../kernel/publisher';
import { withKpiCharts } from './kpi-chart';
import type { Notifier } from '../../kernel/notice';

// Fencing of the outbox's Slack calls (issue 26): only the replica that leads posts, and it checks its lease right
// before every call, so a leader frozen after its check (between recording its intent and posting) makes no call once
// woken after another replica took over.

/**
 * What the outbox delivers through: every Slack call first passes `check` (it throws FencedOut when this replica no
 * longer leads), the upload of a CBM warning's KPI chart included, which is made after its post within the same
 * outbox call.
 */
export function fencedDelivery(
	notifier: Notifier,
	files: Publisher | undefined,
	check: () => void,
	logger: BotLogger,
): Notifier {
	const fenced = fencedNotifier(notifier, check);
	return files ? withKpiCharts(fenced, fencedUploads(files, check), logger) : fenced;
}

/** Files uploaded for the outbox (KPI charts of CBM warnings), each upload made only once `check` passes. */
function fencedUploads(files: Publisher, check: () => void): Publisher {
	return {
		post: (channel, message, threadTs) => files.post(channel, message, threadTs),
		update: (channelId, ts, message) => files.update(channelId, ts, message),
		upload: async (channelId, file, comment, threadTs) => {
			check();
			return files.upload(channelId, file, comment, threadTs);
		},
	};
}

/** The notifier, each of its calls made only once `check` passes (it throws FencedOut when this replica no longer leads). */
function fencedNotifier(notifier: Notifier, check: () => void): Notifier {
	return {
		post: async (channel, notice, threadTs, tag) => {
			check();
			return notifier.post(channel, notice, threadTs, tag);
		},
		update: async (channelId, ts, notice, tag) => {
			check();
			return notifier.update(channelId, ts, notice, tag);
		},
		...(notifier.find
			? {
					find: async (
						channel: string,
						channelId: string | undefined,
						tag: string,
						threadTs: string | undefined,
						since: number,
					) => {
						check();
						return notifier.find?.(channel, channelId, tag, threadTs, since);
					},
				}
			: {}),
		...(notifier.updated
			? {
					updated: async (channelId: string, ts: string, tag: string) => {
						check();
						return (await notifier.updated?.(channelId, ts, tag)) ?? false;
					},
				}
			: {}),
	};
}
