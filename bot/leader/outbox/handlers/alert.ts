import { alertState } from '../../../features/alerts/state';
import type { MessageRef } from '../../../features/alerts/store';
import type { AlertRecord } from '../../../kernel/alert';
import type { CallContext, Completion, Handler } from './context';

/**
 * A new alert: posted in a message of its own, or merged into the open message of its PowerTrain sibling
 * (inhibition); nothing when it has a message in this channel already.
 */
export const sendAlert: Handler<'alert'> = (ctx, item) => postAlert(ctx, item.alert);

export async function postAlert(ctx: CallContext, alert: AlertRecord): Promise<Completion> {
	const { channel, call, state, once, views } = ctx;
	// The reads a new alert's post needs, at once rather than one after the other (on PostgreSQL each is a round
	// trip before the post): whether it has a message, a sibling's message it joins, and the alert as it is now.
	const settled = <T>(promise: Promise<T>): Promise<T> => {
		promise.catch(() => undefined); // awaited below, or not needed: never an unhandled rejection
		return promise;
	};
	const existing = settled(state.alerts.getMessage(alert.key, channel));
	const sibling = settled(Promise.resolve(ctx.inhibit?.(alert, channel)));
	const now = settled(views.current(alert.key, alert));
	if ((await existing) === undefined) {
		const partner = await sibling;
		const merged = partner && (await views.message(partner, await views.currentAll([alert.key])));
		let ref: MessageRef;
		if (partner && merged) {
			await once.update(call, 'merge', partner, merged);
			ref = partner;
		} else {
			const posted = await once.post(call, 'post', channel, {
				kind: 'alert',
				alert: (await now) as AlertRecord,
			});
			ref = { channel, channelId: posted.channelId, ts: posted.ts, via: 'message' };
		}
		await state.scope.transaction(async (tx) => {
			const store = alertState(tx);
			await store.alerts.putMessage(alert.key, ref);
			await store.outbox.complete([call.id]);
		});
		ctx.pacing.noteCovered(channel, 1);
		return 'completed';
	}
	await state.outbox.complete([call.id]);
	return 'completed';
}
