import type { Handler } from './context';

/** One message per outage (assumption B30): posted once, then updated; returns are thread replies. */
export const sendConnectivity: Handler<'connectivity'> = async (ctx, item) => {
	const { channel, call, once } = ctx;
	const { outage, returned } = item;
	let ref = await ctx.state.alerts.getMessage(outage.key, channel);
	if (ref === undefined) {
		const { ts, channelId } = await once.post(call, 'post', channel, {
			kind: 'connectivity',
			outage,
		});
		ref = { channel, channelId, ts, via: 'message' };
		await ctx.state.alerts.putMessage(outage.key, ref);
	} else {
		await once.update(call, 'update', ref, { kind: 'connectivity', outage });
	}
	if (returned.length > 0)
		await once.post(
			call,
			'reply',
			channel,
			{ kind: 'connectivity_back', outage, returned },
			{ threadTs: ref.ts },
		);
};
