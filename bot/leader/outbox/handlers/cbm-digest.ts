import type { Handler } from './context';

/** The CBM units of this channel's routes that are Yellow or Red: daily, or at the end of a first CBM round. */
export const sendCbmDigest: Handler<'cbm_digest'> = async (ctx, item) => {
	await ctx.once.post(ctx.call, 'post', ctx.channel, {
		kind: 'cbm_digest',
		units: item.units,
		day: item.day,
	});
};
