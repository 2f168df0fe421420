import type { Handler } from './context';

/** Alerts are late (B48): said once when the lag crosses the threshold. */
export const sendSourceLag: Handler<'source_lag'> = async (ctx, item) => {
	await ctx.once.post(ctx.call, 'post', ctx.channel, { kind: 'source_lag', text: item.text });
};
