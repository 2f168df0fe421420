// Network failures as the core's TransportError, whichever transport raised them (undici's error
// codes are matched by name, so this module imports no HTTP client and the n8n pack can load it).
import { TransportError } from '../errors';

const NOT_SENT = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'UND_ERR_CONNECT_TIMEOUT',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

/** Map undici/Node errors to a TransportError with a short reason (abort keeps its own reason). */
export function toTransportError(error: unknown, signal?: AbortSignal): TransportError {
	if (error instanceof TransportError) return error;
	if (signal?.aborted) {
		const reason = signal.reason as { name?: string } | undefined;
		const timeout = reason?.name === 'TimeoutError';
		return new TransportError({
			reason: timeout ? 'TIMEOUT' : 'ABORTED',
			detail: timeout ? 'the request deadline passed' : 'the request was cancelled',
			cause: error,
		});
	}
	const err = error as { code?: string; message?: string; cause?: { code?: string } };
	const code = err.code ?? err.cause?.code ?? 'NETWORK';
	const timeouts: Record<string, string> = {
		UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
		UND_ERR_HEADERS_TIMEOUT: 'no response headers before the deadline',
		UND_ERR_BODY_TIMEOUT: 'the response body stalled past the deadline',
	};
	const detail = timeouts[code] ?? err.message ?? String(error);
	const reason = timeouts[code]
		? 'TIMEOUT'
		: code === 'UND_ERR_SOCKET' || (error as Error | undefined)?.name === 'SocketError'
			? 'ECONNRESET'
			: code;
	return new TransportError({ reason, detail, notSent: NOT_SENT.has(code), cause: error });
}
