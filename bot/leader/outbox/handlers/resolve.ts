import type { AlertRecord } from '../../../kernel/alert';
import { postAlert } from './alert';
import type { Handler } from './context';

/** A close: the alert's message (or digest) shows it resolved, and a reply in its thread says so. */
export const sendResolve: Handler<'resolve'> = async (ctx, item) => {
	const { channel, call, once, views } = ctx;
	const ref = await ctx.state.alerts.getMessage(item.alert.key, channel);
	// Its open alert never reached Slack (given up on, or muted): post it, already resolved.
	if (ref === undefined) return postAlert(ctx, item.alert);
	await once.update(call, 'update', ref, await views.of(ref));
	await once.post(
		call,
		'reply',
		channel,
		{
			kind: 'resolved_reply',
			alert: (await views.current(item.alert.key, item.alert)) as AlertRecord,
		},
		{ threadTs: ref.ts },
	);
};
