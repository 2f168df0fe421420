import type { Transport } from './types';
import { createUndiciTransport } from './undici';

let shared: Transport | undefined;

/** One process-wide keep-alive undici transport for callers that bring none (idle sockets are unref'd). */
export function defaultTransport(): Transport {
  shared ??= createUndiciTransport();
  return shared;
}
