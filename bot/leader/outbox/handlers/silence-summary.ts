import { alertState } from '../../../features/alerts/state';
import type { AlertRecord } from '../../../kernel/alert';
import type { Handler } from './context';

/** What happened during a silence that ended; its alerts are followed there from then on, as a digest's lines. */
export const sendSilenceSummary: Handler<'silence_summary'> = async (ctx, item) => {
	const { channel, call } = ctx;
	const keys = item.summary.alerts.map((a) => a.key);
	const alerts: AlertRecord[] = [];
	for (const a of item.summary.alerts)
		alerts.push((await ctx.views.current(a.key, a)) as AlertRecord);
	const posted = await ctx.once.post(call, 'post', channel, {
		kind: 'silence_summary',
		summary: { ...item.summary, alerts },
	});
	// A close of one of its alerts then updates it (as a digest) and replies.
	await ctx.state.scope.transaction(async (tx) => {
		const store = alertState(tx);
		for (const key of keys)
			await store.alerts.putMessage(key, {
				channel,
				channelId: posted.channelId,
				ts: posted.ts,
				via: 'digest',
			});
		await store.alerts.putDigest(posted.channelId, posted.ts, keys, []);
		await store.outbox.complete([call.id]);
	});
	return 'completed';
};
