import type { Handler } from './context';

/** Every message of this channel showing the alert is drawn again (acknowledged, taken over, muted). */
export const sendRefresh: Handler<'refresh'> = async (ctx, item) => {
	for (const ref of (await ctx.state.alerts.messagesOf(item.key)).filter(
		(r) => r.channel === ctx.channel,
	))
		await ctx.once.update(ctx.call, `update:${ref.ts}`, ref, await ctx.views.of(ref));
};
