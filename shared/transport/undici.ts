import { Agent, type Dispatcher } from 'undici';
import { toTransportError } from './errors';
import { TransportError } from '../errors';
import { onAbort } from '../timers/wait';
import type { Transport, TransportRequest, TransportResponse } from './types';

export interface UndiciTransportOptions {
	/** TCP/TLS connect timeout. Default 10 s. */
	connectTimeoutMs?: number;
	/** Time to the response headers. Default 30 s. */
	headersTimeoutMs?: number;
	/** Maximum idle time between body chunks. Default 30 s. */
	bodyTimeoutMs?: number;
	/** Connections kept per origin. Default 16. */
	connections?: number;
	/** Idle keep-alive time. Default 30 s. */
	keepAliveTimeoutMs?: number;
	/** Largest response body accepted. Default 64 MiB (reports, logger files). */
	maxResponseBytes?: number;
}

/** Keep-alive pooled transport over undici, with connect/headers/body timeouts and AbortSignal. */
export function createUndiciTransport(options: UndiciTransportOptions = {}): Transport {
	const headersTimeout = options.headersTimeoutMs ?? 30_000;
	const bodyTimeout = options.bodyTimeoutMs ?? 30_000;
	const agent = new Agent({
		connect: { timeout: options.connectTimeoutMs ?? 10_000 },
		headersTimeout,
		bodyTimeout,
		connections: options.connections ?? 16,
		keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
	});
	const maxBytes = options.maxResponseBytes ?? 64 * 1024 * 1024;
	const urls = new UrlSplitter();

	return {
		request(req: TransportRequest): Promise<TransportResponse> {
			// The deadline rides on undici's own timers: time to headers, then idle body time. The
			// pool's own settings serve when they already say the same (no per-request timers).
			const timeouts =
				req.timeoutMs && (req.timeoutMs !== headersTimeout || req.timeoutMs !== bodyTimeout)
					? { headersTimeout: req.timeoutMs, bodyTimeout: req.timeoutMs }
					: {};
			const { origin, path } = urls.split(req.url);
			return new Promise<TransportResponse>((resolve, reject) => {
				const handler = new CollectingHandler(maxBytes, req.signal, resolve, reject);
				try {
					agent.dispatch(
						{ origin, path, method: req.method, headers: req.headers, body: req.body, ...timeouts },
						handler,
					);
				} catch (error) {
					handler.onError(error as Error);
				}
			});
		},
		async close() {
			await agent.close();
		},
	};
}

const NONE: Buffer[] = [];
const settledAlready = (): void => undefined;

/** The reason a body over the size limit is aborted with. */
class TooLarge extends Error {
	constructor(bytes: number, limit: number) {
		super(`response body of ${bytes} bytes is over the ${limit}-byte limit`);
	}
}

/**
 * Collects one answer straight from undici's dispatcher: the body's chunks into one Buffer, no
 * stream in between. undici's `request()` wraps every answer in a Readable, an async resource and
 * an abort listener; for an API answer of a few kilobytes that machinery costs more than the
 * bytes. The size limit is checked as the bytes arrive, so an oversized body is cut off rather
 * than read whole first.
 */
class CollectingHandler implements Dispatcher.DispatchHandler {
	private chunks: Buffer[] = [];
	private bytes = 0;
	private status = 0;
	private rawHeaders: Buffer[] = NONE;
	private abortRequest: ((reason: Error) => void) | undefined;
	private abortReason: Error | undefined;
	private settled = false;
	private readonly stopFollowing: (() => void) | undefined;

	constructor(
		private readonly maxBytes: number,
		private readonly signal: AbortSignal | undefined,
		private resolve: (response: TransportResponse) => void,
		private reject: (error: unknown) => void,
	) {
		if (signal?.aborted) this.abortReason = abortReasonOf(signal);
		else if (signal) this.stopFollowing = onAbort(signal, () => this.abort(abortReasonOf(signal)));
	}

	onConnect(abort: (reason?: Error) => void): void {
		if (this.abortReason) abort(this.abortReason);
		else this.abortRequest = abort;
	}

	onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
		if (statusCode < 200) return true;
		this.status = statusCode;
		this.rawHeaders = rawHeaders;
		const declared = Number(rawHeader(rawHeaders, 'content-length') ?? 0);
		if (declared > this.maxBytes) this.abort(new TooLarge(declared, this.maxBytes));
		return true;
	}

	onData(chunk: Buffer): boolean {
		this.bytes += chunk.length;
		if (this.bytes > this.maxBytes) this.abort(new TooLarge(this.bytes, this.maxBytes));
		else this.chunks.push(chunk);
		return true;
	}

	onComplete(): void {
		if (this.settled) return;
		const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.bytes);
		const resolve = this.resolve;
		const answer = lazyAnswer(this.status, this.rawHeaders, body);
		this.settle();
		resolve(answer);
	}

	onError(error: Error): void {
		if (this.settled) return;
		const reject = this.reject;
		const failure =
			error instanceof TooLarge
				? new TransportError({ reason: 'TOO_LARGE', detail: error.message })
				: toTransportError(error, this.signal);
		this.settle();
		reject(failure);
	}

	private abort(reason: Error): void {
		this.abortReason ??= reason;
		this.abortRequest?.(reason);
	}

	/**
	 * The answer is given: stop following the signal and let go of the bytes. undici keeps a
	 * finished request (and so this handler) in its connection's queue until it compacts it, and
	 * everything the handler still held would be copied by every garbage collection until then.
	 */
	private settle(): void {
		this.settled = true;
		this.stopFollowing?.();
		this.chunks = NONE;
		this.rawHeaders = NONE;
		this.resolve = this.reject = settledAlready;
	}
}

function abortReasonOf(signal: AbortSignal): Error {
	return signal.reason instanceof Error ? signal.reason : new Error('the request was cancelled');
}

/**
 * An answer whose headers are decoded when first read: the core reads none of an answer that is
 * the API envelope. The getter is the object's own, so a wrapper that copies the answer
 * (`{ ...response }`) keeps them; an own accessor costs V8 more to create than a prototype one
 * (about 0.5 us), still less than decoding every header.
 */
function lazyAnswer(status: number, raw: Buffer[], body: Buffer): TransportResponse {
	let decoded: TransportResponse['headers'] | undefined;
	return {
		status,
		body,
		get headers() {
			decoded ??= headersOf(raw);
			return decoded;
		},
	};
}

/** The first value of one header (lower-case `name`) without decoding the others. */
function rawHeader(raw: Buffer[], name: string): string | undefined {
	for (let i = 0; i < raw.length; i += 2) {
		if (raw[i].length === name.length && raw[i].toString('latin1').toLowerCase() === name)
			return raw[i + 1].toString('latin1');
	}
	return undefined;
}

/** Response headers by lower-case name; a repeated header becomes a list. */
function headersOf(raw: Buffer[]): TransportResponse['headers'] {
	const headers: TransportResponse['headers'] = {};
	for (let i = 0; i < raw.length; i += 2) {
		const name = raw[i].toString('latin1').toLowerCase();
		const value = raw[i + 1].toString('latin1');
		const earlier = headers[name];
		if (earlier === undefined || !Object.hasOwn(headers, name)) headers[name] = value;
		else if (Array.isArray(earlier)) earlier.push(value);
		else headers[name] = [earlier, value];
	}
	return headers;
}

/**
 * Origin and path of an absolute URL. A client talks to one origin, so the last one is kept and a
 * URL under it is split without a regular expression; odd URLs take the full parse.
 */
class UrlSplitter {
	private origin = '';

	split(url: string): { origin: string; path: string } {
		const known = this.origin;
		if (
			known !== '' &&
			url.startsWith(known) &&
			url.charCodeAt(known.length) === 0x2f &&
			!url.includes('#')
		) {
			return { origin: known, path: url.slice(known.length) };
		}
		const match = /^(https?:\/\/[^/?#]+)([^#]*)/i.exec(url);
		if (match) {
			this.origin = match[1];
			// undici wants a path that starts with a slash: a bare origin, or one followed by its query, gets one.
			const rest = match[2];
			return { origin: match[1], path: rest.startsWith('/') ? rest : `/${rest}` };
		}
		const parsed = new URL(url);
		return { origin: parsed.origin, path: parsed.pathname + parsed.search };
	}
}

export { toTransportError } from './errors';
