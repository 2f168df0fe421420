import type { PushError } from './errors';
import type { DeliveryHints } from './normalize';

/** One delivery as a transport hands it over, with its settlement. */
export interface AdapterDelivery {
	body: unknown;
	hints: DeliveryHints;
	/** Handled: the broker may forget it. */
	accept(): void;
	/** Not handled: the broker keeps it and delivers it again. */
	release(): void;
	/** Unusable (not a pushed message): the broker must not deliver it again. */
	reject(reason: string): void;
}

/** A live connection with its subscription. */
export interface AdapterSession {
	/** Settles when the connection is gone; `error.terminal` says whether reconnecting is pointless. */
	readonly ended: Promise<PushError | undefined>;
	close(): Promise<void>;
}

export interface PushAdapter {
	/** Connects and subscribes; rejects with a PushError (terminal for a refused login). */
	connect(onDelivery: (delivery: AdapterDelivery) => void): Promise<AdapterSession>;
}

export interface AdapterSettings {
	url: URL;
	userName: string;
	password: string;
	/** The user's Topic (E28). */
	topic: string;
	/** The filled address template; undefined: the protocol's default for the broker (P2). */
	address?: string;
	clientId: string;
	persistentSession: boolean;
	prefetch: number;
	connectTimeoutMs: number;
	allowUnauthorizedCerts: boolean;
}
