import type { OutboxItem } from '../../../kernel/outbox';
import { sendAlert } from './alert';
import { sendCatchUp } from './catch-up';
import { sendCbm } from './cbm';
import { sendCbmDigest } from './cbm-digest';
import { sendCbmGood } from './cbm-good';
import { sendConnectivity } from './connectivity';
import type { CallContext, Completion, Handler } from './context';
import { sendRefresh } from './refresh';
import { sendReminder } from './reminder';
import { sendResolve } from './resolve';
import { sendSilenceSummary } from './silence-summary';
import { sendSourceLag } from './source-lag';

export type { CallContext, Completion } from './context';

/** One handler per kind of outbox call: a new kind is its item in kernel/outbox.ts, a handler here and its blocks. */
const HANDLERS: { [K in OutboxItem['kind']]: Handler<K> } = {
	alert: sendAlert,
	resolve: sendResolve,
	refresh: sendRefresh,
	reminder: sendReminder,
	silence_summary: sendSilenceSummary,
	cbm: sendCbm,
	cbm_good: sendCbmGood,
	cbm_digest: sendCbmDigest,
	connectivity: sendConnectivity,
	catch_up: sendCatchUp,
	source_lag: sendSourceLag,
};

/** Sends one outbox call through the handler of its kind. */
export function send(ctx: CallContext, item: OutboxItem): Promise<Completion> {
	return (HANDLERS[item.kind] as Handler<OutboxItem['kind']>)(ctx, item as never);
}
