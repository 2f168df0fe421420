import type { Handler } from './context';

/** A CBM unit back to Good: a reply in the thread of its warning (a message of its own when there is none). */
export const sendCbmGood: Handler<'cbm_good'> = async (ctx, item) => {
	await ctx.once.post(
		ctx.call,
		'post',
		ctx.channel,
		{ kind: 'cbm_good', cbm: item.cbm },
		{ threadTs: await ctx.state.cbm.getMessage(item.cbm.key, ctx.channel) },
	);
};
