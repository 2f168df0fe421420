// The core moves bytes through a `Transport`; inside n8n the bytes must go through n8n's own
// HTTP helpers so that proxies, SSRF protection, allowed domains and the credential's
// preAuthentication/authenticate hooks apply. This adapter is the only place that knows both.
import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { DriveMonitoringError, TransportError } from '../../../shared/errors';
import type {
	Transport,
	TransportRequest,
	TransportResponse,
} from '../../../shared/transport/types';
import { raceAbort } from '../../../shared/timers/wait';

/** One of n8n's request helpers, bound: `httpRequest` or `httpRequestWithAuthentication`. */
export type N8nSend = (options: IHttpRequestOptions) => Promise<unknown>;

interface HttpFailure {
	code?: string;
	message?: string;
	cause?: HttpFailure;
	response?: { status?: number; data?: unknown; headers?: Record<string, unknown> };
}

/** Connection errors after which the server provably never saw the request. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export function n8nTransport(send: N8nSend): Transport {
	return {
		async request(request: TransportRequest): Promise<TransportResponse> {
			const options: IHttpRequestOptions = {
				method: request.method,
				url: request.url,
				headers: request.headers,
				body: request.body,
				// Raw bytes both ways: the core parses envelopes, HTML error pages and files itself.
				encoding: 'arraybuffer',
				json: false,
				returnFullResponse: true,
				timeout: request.timeoutMs,
				abortSignal: request.signal,
			};
			try {
				// n8n's authenticated helper replaces abortSignal with the execution's own signal, so the
				// call's signal (its total deadline) is raced here; the request left behind still ends
				// at its per-attempt timeout.
				return toResponse((await raceAbort(send(options), request.signal)) as IN8nHttpFullResponse);
			} catch (error) {
				// n8n throws on HTTP >= 400 (so that a 401 makes it refresh the token and retry once);
				// the core wants the answer itself, so unwrap it.
				// A core error thrown inside n8n's helper (the token step of preAuthentication) keeps its
				// own meaning: n8n wrapped it, the core and the node want it back as it was.
				const own = findOwnError(error);
				if (own) throw own;
				const failure = findFailure(error);
				if (failure?.response?.status !== undefined) {
					return {
						status: failure.response.status,
						headers: lowerCaseHeaders(failure.response.headers ?? {}),
						body: toBuffer(failure.response.data),
					};
				}
				throw exchangeFailed(failure, error);
			}
		},
	};
}

/**
 * The core's Transport contract reports a failed exchange as a TransportError (it decides on
 * retries from it); the node turns it into a NodeApiError in actions/errors.ts.
 */
function exchangeFailed(failure: HttpFailure | undefined, error: unknown): TransportError {
	const code = failure?.code ?? 'NETWORK';
	return new TransportError({
		reason: code,
		detail: failure?.message ?? String(error),
		notSent: NOT_SENT.has(code),
		cause: error,
	});
}

function findOwnError(error: unknown): DriveMonitoringError | undefined {
	let current = error as { cause?: unknown } | undefined;
	for (let depth = 0; current && depth < 4; depth++) {
		if (current instanceof DriveMonitoringError) return current;
		current = current.cause as { cause?: unknown } | undefined;
	}
	return undefined;
}

function findFailure(error: unknown): HttpFailure | undefined {
	let current = error as HttpFailure | undefined;
	for (let depth = 0; current && depth < 4; depth++) {
		if (current.response || current.code) return current;
		current = current.cause;
	}
	return error as HttpFailure | undefined;
}

function toResponse(response: IN8nHttpFullResponse): TransportResponse {
	return {
		status: response.statusCode,
		headers: lowerCaseHeaders(response.headers ?? {}),
		body: toBuffer(response.body),
	};
}

function lowerCaseHeaders(headers: Record<string, unknown>): TransportResponse['headers'] {
	const out: TransportResponse['headers'] = {};
	for (const [name, value] of Object.entries(headers)) {
		if (typeof value === 'string' || Array.isArray(value))
			out[name.toLowerCase()] = value as string | string[];
		else if (value !== undefined && value !== null) out[name.toLowerCase()] = String(value);
	}
	return out;
}

function toBuffer(data: unknown): Buffer {
	if (Buffer.isBuffer(data)) return data;
	if (data instanceof ArrayBuffer) return Buffer.from(data);
	if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
	if (data === undefined || data === null) return Buffer.alloc(0);
	return Buffer.from(typeof data === 'string' ? data : JSON.stringify(data));
}
