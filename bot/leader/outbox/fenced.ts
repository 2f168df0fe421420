import type { Notifier } from '../../kernel/notice';
import type { Publisher } from '../../kernel/publisher';
import type { OutboxDelivery } from './dispatcher';

/**
 * The outbox's delivery, fenced: only the replica that leads calls Slack, and it checks its lease right before every
 * call, so a leader frozen after its check (between recording its intent and posting) makes no call once woken after
 * another replica took over. `check` throws FencedOut when this replica no longer leads; the upload of a CBM warning's
 * KPI chart, made after its post, is checked too.
 */
export function fencedDelivery(delivery: OutboxDelivery, check: () => void): OutboxDelivery {
	return {
		notifier: fencedNotifier(delivery.notifier, check),
		publisher: delivery.publisher && fencedUploads(delivery.publisher, check),
	};
}

/** Files uploaded for the outbox (KPI charts of CBM warnings), each upload made only once `check` passes. */
function fencedUploads(publisher: Publisher, check: () => void): Publisher {
	return {
		post: (channel, message, threadTs) => publisher.post(channel, message, threadTs),
		update: (channelId, ts, message) => publisher.update(channelId, ts, message),
		upload: async (channelId, file, comment, threadTs) => {
			check();
			return publisher.upload(channelId, file, comment, threadTs);
		},
	};
}

/** The notifier, each of its calls made only once `check` passes. */
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
