import type { AdapterDelivery, AdapterSession, AdapterSettings } from './adapter';
import { redactUrl, type PushError } from './errors';

/**
 * One connection of an adapter: the session it resolves once the subscription stands, or the
 * error that ended it before; then `ended` says how the connection ended.
 */
export abstract class AdapterConnection {
	protected readonly safeUrl: string;
	protected readonly ended: Promise<PushError | undefined>;
	protected resolveEnded!: (error: PushError | undefined) => void;
	/** Closed by us: the end is no error. */
	protected closing = false;
	/** The first error: the one the session ends with. */
	protected lastError: PushError | undefined;

	constructor(
		protected readonly settings: AdapterSettings,
		protected readonly onDelivery: (delivery: AdapterDelivery) => void,
		protected readonly resolve: (session: AdapterSession) => void,
		protected readonly reject: (error: PushError) => void,
	) {
		this.safeUrl = redactUrl(settings.url.toString());
		this.ended = new Promise((resolveEnded) => (this.resolveEnded = resolveEnded));
	}

	/** Listens to the connection's events; called once, right after the constructor. */
	abstract watch(): void;
}
