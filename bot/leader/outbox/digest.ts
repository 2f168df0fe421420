import type { PendingCall } from '../../features/alerts/outbox';
import { alertState } from '../../features/alerts/state';
import type { AlertRecord } from '../../kernel/alert';
import type { Notice } from '../../kernel/notice';
import type { CallContext } from './handlers';

/**
 * Alerts and closes of one channel together in one message (a storm, or a backlog): new alerts are its lines; a close
 * of an alert posted before updates that alert's message and is listed as resolved; a close of an alert of this very
 * digest shows on its line. Every call of the batch is completed with it.
 */
export async function sendDigest(
	ctx: Omit<CallContext, 'call'>,
	batch: PendingCall[],
): Promise<void> {
	const { channel, once, views, state } = ctx;
	const alertKeys: string[] = [];
	const resolvedKeys: string[] = [];
	const batched = new Set(
		batch
			.filter((c) => c.item.kind === 'alert')
			.map((c) => (c.item as { alert: AlertRecord }).alert.key),
	);
	for (const call of batch) {
		if (call.item.kind === 'alert') {
			if (!alertKeys.includes(call.item.alert.key)) alertKeys.push(call.item.alert.key);
		} else if (call.item.kind === 'resolve') {
			const key = call.item.alert.key;
			if (batched.has(key)) continue;
			const ref = await state.alerts.getMessage(key, channel);
			if (ref === undefined) {
				alertKeys.push(key);
				continue;
			}
			await once.update(call, 'update', ref, await views.of(ref));
			resolvedKeys.push(key);
		}
	}
	const notice: Notice = {
		kind: 'digest',
		alerts: await views.currentAll(alertKeys),
		resolved: await views.currentAll(resolvedKeys),
	};
	const { ts, channelId } = await once.post(batch[0], 'digest', channel, notice, {
		ids: batch.map((c) => c.id),
	});
	await state.scope.transaction(async (tx) => {
		const store = alertState(tx);
		for (const key of alertKeys)
			await store.alerts.putMessage(key, { channel, channelId, ts, via: 'digest' });
		await store.alerts.putDigest(channelId, ts, alertKeys, resolvedKeys);
		await store.outbox.complete(batch.map((c) => c.id));
	});
	ctx.stats.digests++;
	ctx.pacing.noteCovered(channel, alertKeys.length);
	ctx.pacing.noteDigest(channel);
}
