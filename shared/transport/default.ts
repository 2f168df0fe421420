import type { Transport } from './types';

/** What a host offers to build its HTTP transport (the undici one in Node programs). */
export interface DefaultTransportOptions {
	connections?: number;
	headersTimeoutMs?: number;
	bodyTimeoutMs?: number;
}

export type TransportFactory = (options?: DefaultTransportOptions) => Transport;

let factory: TransportFactory | undefined;
let shared: Transport | undefined;

/**
 * Registers the transport callers get when they bring none. Node programs register undici
 * (shared/runtime/node); inside n8n every call brings n8n's own helpers, so the pack's import
 * graph never contains an HTTP client.
 */
export function setDefaultTransport(create: TransportFactory): void {
	factory = create;
	shared = undefined;
}

/** A new transport from the registered factory (a client that owns its pool). */
export function createDefaultTransport(options?: DefaultTransportOptions): Transport {
	if (!factory) {
		throw new Error(
			"No HTTP transport: pass `transport` (n8n nodes pass n8n's helpers) or import shared/runtime/node in a Node program",
		);
	}
	return factory(options);
}

/** One process-wide keep-alive transport for callers that bring none (idle sockets are unref'd). */
export function defaultTransport(): Transport {
	shared ??= createDefaultTransport();
	return shared;
}
