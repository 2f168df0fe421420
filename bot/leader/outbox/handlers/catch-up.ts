import { alertState } from '../../../features/alerts/state';
import type { Handler } from './context';

/** What happened while the bot was away (B47); closes of the alerts it covers then go to its thread, as for a digest. */
export const sendCatchUp: Handler<'catch_up'> = async (ctx, item) => {
	const { channel, call } = ctx;
	const { ts, channelId } = await ctx.once.post(call, 'post', channel, {
		kind: 'catch_up',
		summary: item.summary,
	});
	await ctx.state.scope.transaction(async (tx) => {
		const store = alertState(tx);
		for (const key of item.keys)
			await store.alerts.putMessage(key, { channel, channelId, ts, via: 'digest' });
		await store.outbox.complete([call.id]);
	});
	ctx.stats.digests++;
	return 'completed';
};
