import type { Handler } from './context';

/** A thread reply re-announcing an open fault nobody took, mentioning the on-call; nothing once it was taken, closed or muted. */
export const sendReminder: Handler<'reminder'> = async (ctx, item) => {
	const ref = await ctx.state.alerts.getMessage(item.key, ctx.channel);
	const alert = await ctx.views.current(item.key);
	if (ref && alert && ((await ctx.stillDue?.(alert)) ?? alert.status === 'Open')) {
		await ctx.once.post(
			ctx.call,
			'reply',
			ctx.channel,
			{ kind: 'reminder', alert, level: item.level, mentions: item.mentions },
			{ threadTs: ref.ts },
		);
		ctx.stats.reminders++;
	}
};
