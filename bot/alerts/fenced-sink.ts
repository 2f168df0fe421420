import type { BotLogger } from '../log';
import type { MessageSink } from '../reports/sink';
import { withKpiCharts } from '../charts/cbm-sink';
import type { NoticeSink } from './sink';

// Fencing of the outbox's Slack calls (issue 26): only the replica that leads posts, and it checks its lease right
// before every call, so a leader frozen after its check (between recording its intent and posting) makes no call once
// woken after another replica took over.

/**
 * The sink the outbox sends through: every Slack call first passes `check` (it throws FencedOut when this replica no
 * longer leads), the upload of a CBM warning's KPI chart included, which is made after its post within the same
 * outbox call.
 */
export function outboxSink(
	sink: NoticeSink,
	files: MessageSink | undefined,
	check: () => void,
	logger: BotLogger,
): NoticeSink {
	const fenced = fencedSink(sink, check);
	return files ? withKpiCharts(fenced, fencedUploads(files, check), logger) : fenced;
}

/** Files uploaded for the outbox (KPI charts of CBM warnings), each upload made only once `check` passes. */
function fencedUploads(files: MessageSink, check: () => void): MessageSink {
	return {
		post: (channel, message, threadTs) => files.post(channel, message, threadTs),
		update: (channelId, ts, message) => files.update(channelId, ts, message),
		upload: async (channelId, file, comment, threadTs) => {
			check();
			return files.upload(channelId, file, comment, threadTs);
		},
	};
}

/** The sink, each of its calls made only once `check` passes (it throws FencedOut when this replica no longer leads). */
function fencedSink(sink: NoticeSink, check: () => void): NoticeSink {
	return {
		post: async (channel, notice, threadTs, tag) => {
			check();
			return sink.post(channel, notice, threadTs, tag);
		},
		update: async (channelId, ts, notice, tag) => {
			check();
			return sink.update(channelId, ts, notice, tag);
		},
		...(sink.find
			? {
					find: async (
						channel: string,
						channelId: string | undefined,
						tag: string,
						threadTs: string | undefined,
						since: number,
					) => {
						check();
						return sink.find?.(channel, channelId, tag, threadTs, since);
					},
				}
			: {}),
		...(sink.updated
			? {
					updated: async (channelId: string, ts: string, tag: string) => {
						check();
						return (await sink.updated?.(channelId, ts, tag)) ?? false;
					},
				}
			: {}),
	};
}
