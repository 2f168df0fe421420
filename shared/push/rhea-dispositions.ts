// A runtime fix for a rhea 3.0.5 defect that acknowledges failed messages.
//
// rhea writes the dispositions settled in one tick with `write_dispositions` (lib/session.js),
// merging consecutive delivery ids into one range. It compares outcomes only once a range holds
// two deliveries, so the second delivery always joins the first whatever its outcome, and the
// range carries the first one's: `accept(#0)` then `release(#1)` in one tick sends
// `disposition(first 0, last 1, accepted)` and the broker deletes #1 (README, "Push notes").
//
// `write_dispositions` is private; the fix wraps `Incoming.prototype.process`, its only caller
// for a receiver, so that it never sees two outcomes at once: runs of `accepted` (which rhea
// merges correctly) go together, any other outcome alone. n8n installs community packages with
// --ignore-scripts, so a postinstall patch of node_modules would never run.
import type { Receiver } from 'rhea';

const ACCEPTED = 0x24;
const PATCHED = Symbol.for('drive-monitoring.rhea.outcomes-apart');

interface DeliveryInternals {
	state?: { descriptor?: { value?: unknown } };
}
interface IncomingInternals {
	updated: DeliveryInternals[];
	process(session: unknown): void;
}
type IncomingPrototype = IncomingInternals & { [PATCHED]?: true };

/** Patches rhea's incoming settlement (once per process) through a live receiver link. */
export function keepOutcomesApart(receiver: Receiver): void {
	const incoming = (receiver as unknown as { session?: { incoming?: IncomingInternals } }).session
		?.incoming;
	const prototype = incoming ? (Object.getPrototypeOf(incoming) as IncomingPrototype) : undefined;
	if (
		!incoming ||
		!prototype ||
		typeof prototype.process !== 'function' ||
		!Array.isArray(incoming.updated)
	) {
		// A rhea whose internals moved: fail loudly in tests rather than acknowledge failures silently.
		throw new Error(
			'rhea internals changed (session.incoming.process/updated): the disposition fix in shared/push/rhea-dispositions.ts must be revisited',
		);
	}
	if (prototype[PATCHED]) return;
	const original = prototype.process;
	prototype.process = function processOneOutcomeAtATime(
		this: IncomingInternals,
		session: unknown,
	): void {
		const updated = this.updated;
		if (updated.every(isAccepted)) return original.call(this, session);
		let batch: DeliveryInternals[] = [];
		const flush = (): void => {
			if (batch.length === 0) return;
			this.updated = batch;
			batch = [];
			original.call(this, session);
		};
		for (const delivery of updated) {
			if (isAccepted(delivery)) {
				batch.push(delivery);
			} else {
				flush();
				batch = [delivery];
				flush();
			}
		}
		flush();
		this.updated = [];
	};
	prototype[PATCHED] = true;
}

function isAccepted(delivery: DeliveryInternals): boolean {
	return delivery.state?.descriptor?.value === ACCEPTED;
}
