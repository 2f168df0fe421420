// Sends one endpoint call: URL and headers, token, bounded concurrency, retries, envelope, schema.
import type { z } from 'zod/v4';
import type { ApiCredentials, AccessToken } from '../auth/token';
import type { TokenCache } from '../auth/cache';
import {
	apiErrorOf,
	AuthenticationError,
	DeadlineError,
	endpointRef,
	LevelDeniedError,
	RateLimitedError,
	ResponseShapeError,
	TransportError,
	UnexpectedResponseError,
	type EndpointRef,
} from '../errors';
import { CHECK_BEFORE_REPEATING, CODE_INFO } from '../errorCatalog';
import type { Envelope } from '../schemas/envelope';
import { parsePayload } from '../schemas/model';
import { API_PREFIX, ENDPOINTS, UNAUTHORIZED_CODE, type EndpointId, type Level } from '../spec';
import {
	headerValue,
	type Transport,
	type TransportRequest,
	type TransportResponse,
} from '../transport/types';
import { toTransportError } from '../transport/errors';
import type { Limiter } from './limiter';
import type { SafeLogger } from './logger';
import { backoffDelay, isRetryableStatus, retryAfterMs, type RetryPolicy } from './retry';
import { callSignal, raceAbort, sleep } from '../timers/wait';

export interface TokenAuth {
	credentials: ApiCredentials;
	cache: TokenCache;
	fetch: (signal?: AbortSignal) => Promise<AccessToken>;
}

export interface CoreConfig {
	baseUrl: string;
	transport: Transport;
	/** Token handling; undefined when the transport authenticates by itself (n8n). */
	auth?: TokenAuth;
	limiter: Limiter;
	retry: RetryPolicy;
	/** Per-attempt deadline. */
	timeoutMs: number;
	/** Deadline of one whole call, retries and waits included (undefined: none). */
	deadlineMs?: number;
	/** How a person gives a call more time, as a deadline error's hint says it (undefined: they cannot). */
	deadlineSetting?: string;
	/** The level an asset holds (E9, cached), to say it when a call is refused with 102403. */
	levelOf?: (assetId: number, signal?: AbortSignal) => Promise<Level | undefined>;
	logger: SafeLogger;
	signal?: AbortSignal;
	random?: () => number;
}

export interface CallOptions<T> {
	endpoint: EndpointId;
	params?: Record<string, string | number>;
	query?: Record<string, string>;
	body?: unknown;
	schema: z.ZodType<T>;
	signal?: AbortSignal;
}

/** POSTs that are safe to repeat: E17 is a query, E28 replaces the subscribed types. */
const IDEMPOTENT_POSTS: ReadonlySet<EndpointId> = new Set<EndpointId>(['E17', 'E28']);

/** Deletes whose "does not exist" answer, after a lost answer, means the deletion happened. */
const ALREADY_DONE: Partial<Record<EndpointId, number>> = { E13: 102201, E29: 106201 };

export function isIdempotent(endpoint: EndpointId): boolean {
	return ENDPOINTS[endpoint].method !== 'POST' || IDEMPOTENT_POSTS.has(endpoint);
}

type PathPart = string | { param: string };
const templates = new Map<EndpointId, PathPart[]>();

/** An endpoint's path template split once into literal parts and parameter names. */
function templateOf(endpoint: EndpointId): PathPart[] {
	let parts = templates.get(endpoint);
	if (!parts) {
		parts = ENDPOINTS[endpoint].path
			.split(/(\{\w+\})/)
			.filter((p) => p !== '')
			.map((p) => (p.startsWith('{') ? { param: p.slice(1, -1) } : p));
		templates.set(endpoint, parts);
	}
	return parts;
}

export function endpointUrl(
	baseUrl: string,
	endpoint: EndpointId,
	params: Record<string, string | number> = {},
	query?: Record<string, string>,
): string {
	let url = baseUrl.endsWith('/') ? baseUrl.replace(/\/+$/, '') : baseUrl;
	url += API_PREFIX;
	for (const part of templateOf(endpoint)) {
		if (typeof part === 'string') {
			url += part;
			continue;
		}
		const value = params[part.param];
		if (value === undefined) throw new Error(`${endpoint}: missing path parameter ${part.param}`);
		url += encodeURIComponent(String(value));
	}
	return query ? `${url}?${new URLSearchParams(query).toString()}` : url;
}

export class ApiCore {
	constructor(readonly config: CoreConfig) {}

	async call<T>(options: CallOptions<T>): Promise<T> {
		// One async frame from here to the transport and back: each frame is a promise and a
		// microtask per call, and this runs on every API call.
		const ref = endpointRef(options.endpoint);
		const state = { uncertainEarlier: false };
		try {
			const response = await this.exchange({
				ref,
				method: ENDPOINTS[options.endpoint].method,
				url: endpointUrl(this.config.baseUrl, options.endpoint, options.params, options.query),
				body: options.body === undefined ? undefined : JSON.stringify(options.body),
				idempotent: isIdempotent(options.endpoint),
				authenticate: true,
				signal: options.signal,
				state,
			});
			return this.answerOf(options, ref, response, state.uncertainEarlier);
		} catch (error) {
			throw await this.withLevelHeld(error, options);
		}
	}

	/** A 102403 names the level the asset holds when it can be read (one E9 call, cached by the client). */
	private async withLevelHeld(error: unknown, options: CallOptions<unknown>): Promise<unknown> {
		const levelOf = this.config.levelOf;
		if (!(error instanceof LevelDeniedError) || error.levelHeld !== undefined || !levelOf)
			return error;
		// The lookup is E9 itself: explaining its own 102403 with itself would wait on itself for ever.
		if (options.endpoint === LEVEL_LOOKUP) return error;
		const assetId = assetIdOf(options);
		if (assetId === undefined) return error;
		const level = await withinLimit((signal) => levelOf(assetId, signal), this.config.timeoutMs, [
			options.signal,
			this.config.signal,
		]);
		if (level === undefined) return error;
		return new LevelDeniedError({
			code: error.code,
			httpStatus: error.httpStatus,
			endpoint: error.endpoint,
			apiMessage: error.apiMessage,
			levelHeld: level,
		});
	}

	/** The final answer as the call's result, or its error. */
	private answerOf<T>(
		options: CallOptions<T>,
		ref: EndpointRef,
		response: TransportResponse,
		uncertainEarlier: boolean,
	): T {
		const doneCode = ALREADY_DONE[options.endpoint];
		if (uncertainEarlier && doneCode !== undefined && response.status < 500) {
			// A delete repeated after an attempt whose answer was lost: "does not exist" now means
			// the lost attempt did it.
			const envelope = readEnvelope(ref, response);
			if (!envelope.success && envelope.code === doneCode) {
				this.config.logger.info(
					`${ref.id}: answered ${doneCode} after a lost answer; the earlier attempt did the deletion`,
				);
				return parseAnswer(
					ref,
					{
						status: 200,
						headers: response.headers,
						body: Buffer.from('{"payload":{},"message":null,"success":true,"code":100200}'),
					},
					options.schema,
				);
			}
		}
		return parseAnswer(ref, response, options.schema);
	}

	/**
	 * One logical request: bounded by the limiter, retried on network errors, 5xx and 429 when
	 * safe to repeat (honouring Retry-After), re-authenticated once on a 401. Every wait is
	 * cancellable. Returns the last answer; interpreting it is the caller's job.
	 */
	async exchange(request: {
		ref?: EndpointRef;
		method: TransportRequest['method'];
		url: string;
		body?: string;
		idempotent: boolean;
		authenticate: boolean;
		signal?: AbortSignal;
		/** Set when an earlier attempt may have been processed (its answer was lost or a 5xx). */
		state?: { uncertainEarlier: boolean };
	}): Promise<TransportResponse> {
		const { config } = this;
		const auth = request.authenticate ? config.auth : undefined;
		const call = callSignal([config.signal, request.signal], config.deadlineMs);
		const signal = call.signal;
		try {
			const { ref, method, url, body, idempotent } = request;
			let reauthenticated = false;

			for (let attempt = 1; ; attempt++) {
				const headers: Record<string, string> = { accept: ref ? 'application/json' : '*/*' };
				if (body !== undefined) headers['content-type'] = 'application/json';
				let token: string | undefined;
				if (auth) {
					token =
						auth.cache.peek(auth.credentials) ??
						(await auth.cache.get(auth.credentials, () => auth.fetch(), signal));
					headers.authorization = `Bearer ${token}`;
				}
				const started = config.logger.enabled.debug ? Date.now() : 0;
				let response: TransportResponse;
				try {
					// The slot is taken inline rather than through limiter.run: one promise less per call.
					if (!config.limiter.tryAcquire(signal)) await config.limiter.acquire(signal);
					try {
						response = await config.transport.request({
							method,
							url,
							headers,
							body,
							signal,
							timeoutMs: config.timeoutMs,
						});
					} finally {
						config.limiter.release();
					}
				} catch (error) {
					const failure = error instanceof TransportError ? error : toTransportError(error, signal);
					// A change the platform may have made before the answer was lost is never repeated blindly.
					const mayHaveSucceeded = !idempotent && !failure.notSent && failure.reason !== 'ABORTED';
					const transportError = new TransportError({
						reason: failure.reason,
						detail: failure.detail,
						endpoint: ref,
						notSent: failure.notSent,
						cause: error,
						mayHaveSucceeded,
					});
					if (
						signal?.aborted ||
						attempt >= config.retry.maxAttempts ||
						!(idempotent || failure.notSent)
					)
						throw transportError;
					if (request.state && !failure.notSent) request.state.uncertainEarlier = true;
					const delay = backoffDelay(config.retry, attempt, config.random);
					config.logger.warn(
						`${labelOf(ref, method)} attempt ${attempt} failed (${failure.reason}); retrying in ${delay} ms`,
					);
					await sleep(delay, signal);
					continue;
				}
				if (config.logger.enabled.debug) {
					config.logger.debug(
						`${labelOf(ref, method)} ${ref ? url : redactUrl(url)} -> HTTP ${response.status} in ${Date.now() - started} ms (attempt ${attempt})`,
					);
				}

				if (response.status === 401 && auth && token !== undefined && !reauthenticated) {
					// assumption A4: any 401 means the token was refused. Re-authenticate once, then retry once.
					reauthenticated = true;
					auth.cache.invalidate(auth.credentials, token);
					config.logger.info(
						`${labelOf(ref, method)}: access token refused (HTTP 401); fetching a new token and retrying once`,
					);
					attempt--;
					continue;
				}
				// A 429 means the request was refused, not processed: safe to repeat even for a create.
				const mayRepeat = idempotent || response.status === 429;
				if (isRetryableStatus(response.status) && mayRepeat && attempt < config.retry.maxAttempts) {
					if (request.state && response.status !== 429) request.state.uncertainEarlier = true;
					const after = retryAfterMs(response);
					const delay =
						after !== undefined
							? Math.min(after, config.retry.maxRetryAfterMs)
							: backoffDelay(config.retry, attempt, config.random);
					config.logger.warn(
						`${labelOf(ref, method)} answered HTTP ${response.status} (attempt ${attempt}); retrying in ${delay} ms`,
					);
					await sleep(delay, signal);
					continue;
				}
				return response;
			}
		} catch (error) {
			throw this.deadlineNamed(error, call.deadlinePassed(), request);
		} finally {
			call.clear();
		}
	}

	/** A failure caused by the call's own deadline (not the caller's cancellation) says so. */
	private deadlineNamed(
		error: unknown,
		deadlinePassed: boolean,
		request: { ref?: EndpointRef; signal?: AbortSignal },
	): unknown {
		const { config } = this;
		if (!deadlinePassed || config.signal?.aborted || request.signal?.aborted) return error;
		if (!(error instanceof TransportError) || error.mayHaveSucceeded) return error;
		return new DeadlineError({
			operation: request.ref?.name ?? 'Downloading the file',
			deadlineMs: config.deadlineMs!,
			elapsedMs: config.deadlineMs!,
			setting: config.deadlineSetting,
			endpoint: request.ref,
			notSent: error.notSent,
			cause: error,
		});
	}
}

/** How a log line names a request: its endpoint and method, or a download. */
function labelOf(ref: EndpointRef | undefined, method: string): string {
	return ref ? `${ref.id} ${method}` : `${method} download`;
}

/** URLs in log lines lose their query values (signed links carry their signature there). */
export function redactUrl(url: string): string {
	return url.replace(/([?&][^=&]+=)[^&]+/g, '$1…');
}

/** Read the body as the API envelope, or say precisely what else it is. */
export function readEnvelope(ref: EndpointRef, response: TransportResponse): Envelope {
	const text = response.body.toString('utf8');
	const first = firstVisibleChar(text);
	if (first === '')
		throw unexpectedAnswer(ref, response, text, 'empty body where the JSON envelope was expected');
	if (first === '<') throw unexpectedAnswer(ref, response, text, HTML_PAGE);
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	// The envelope itself is enough: its content type is read only to say what else an answer is
	// (the headers of an answer are decoded when first read, and this runs on every call).
	const envelope = json === undefined ? undefined : envelopeOf(json);
	if (envelope) return envelope;
	const contentType = headerValue(response.headers, 'content-type');
	if (contentType !== undefined && /html/i.test(contentType))
		throw unexpectedAnswer(ref, response, text, HTML_PAGE);
	if (json === undefined) {
		const looksJson =
			first === '{' || first === '[' || (contentType !== undefined && /json/i.test(contentType));
		if (looksJson)
			throw unexpectedAnswer(
				ref,
				response,
				text,
				`truncated or invalid JSON (${response.body.length} bytes)`,
			);
		const hint =
			response.status === 404
				? '; check that baseUrl is the platform address (the core appends /devcenter/extapi/v1)'
				: '';
		throw unexpectedAnswer(
			ref,
			response,
			text,
			`a ${contentType?.split(';')[0] ?? 'non-JSON'} answer instead of the JSON envelope${hint}`,
		);
	}
	throw unexpectedAnswer(
		ref,
		response,
		text,
		'JSON without the API envelope {payload, message, success, code}',
	);
}

const HTML_PAGE = 'an HTML page instead of JSON (a gateway or proxy error page?)';

/** An answer that is not the envelope, said precisely (built only on that path: readEnvelope runs on every call). */
function unexpectedAnswer(
	ref: EndpointRef,
	response: TransportResponse,
	text: string,
	problem: string,
): UnexpectedResponseError {
	// A create answered by a failing server may still have been carried out: it is not repeated.
	const check =
		response.status >= 500 && !isIdempotent(ref.id) ? CHECK_BEFORE_REPEATING[ref.id] : undefined;
	const hint = check
		? `The platform may have carried it out before failing, so it was not repeated: ${check}.`
		: undefined;
	return new UnexpectedResponseError({
		httpStatus: response.status,
		body: text,
		problem,
		endpoint: ref,
		contentType: headerValue(response.headers, 'content-type'),
		hint,
	});
}

function firstVisibleChar(text: string): string {
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09 && c !== 0xfeff) return text[i];
	}
	return '';
}

/** The envelope's four fields in any casing (hot path: read directly rather than through a schema). */
function envelopeOf(json: unknown): Envelope | undefined {
	if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
	const record = json as Record<string, unknown>;
	const success = fieldOf(record, 'success');
	const rawCode = fieldOf(record, 'code');
	const code = typeof rawCode === 'string' && /^\d+$/.test(rawCode) ? Number(rawCode) : rawCode;
	const message = fieldOf(record, 'message');
	if (typeof success !== 'boolean' || typeof code !== 'number' || !Number.isInteger(code))
		return undefined;
	if (message !== undefined && message !== null && typeof message !== 'string') return undefined;
	return { payload: fieldOf(record, 'payload'), message: message ?? null, success, code };
}

/** A field by its lower-case name, in any casing. */
function fieldOf(record: Record<string, unknown>, name: string): unknown {
	if (name in record) return record[name];
	const key = Object.keys(record).find((k) => k.toLowerCase() === name);
	return key === undefined ? undefined : record[key];
}

/** Turn a final answer into the payload, or into the right error. */
export function parseAnswer<T>(
	ref: EndpointRef,
	response: TransportResponse,
	schema: z.ZodType<T>,
): T {
	if (response.status === 401) {
		let apiMessage: string | null = null;
		let code = UNAUTHORIZED_CODE;
		try {
			const envelope = readEnvelope(ref, response);
			apiMessage = envelope.message;
			code = envelope.code;
		} catch {
			// A 401 is an authentication failure whatever its body (assumption A4).
		}
		throw new AuthenticationError({
			code,
			httpStatus: 401,
			endpoint: ref,
			apiMessage,
			hint: CODE_INFO[UNAUTHORIZED_CODE].hint,
		});
	}
	if (response.status === 429) {
		throw new RateLimitedError({
			body: response.body.toString('utf8'),
			endpoint: ref,
			contentType: headerValue(response.headers, 'content-type'),
			retryAfterMs: retryAfterMs(response),
		});
	}
	const envelope = readEnvelope(ref, response);
	if (!envelope.success || response.status >= 400) {
		throw apiErrorOf({
			code: envelope.code,
			httpStatus: response.status,
			endpoint: ref,
			apiMessage: envelope.message,
		});
	}
	const parsed = parsePayload(schema, envelope.payload);
	if (!parsed.success) {
		const issues = parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
		const first = parsed.error.issues[0];
		throw new ResponseShapeError({
			httpStatus: response.status,
			endpoint: ref,
			path: formatPath(first?.path ?? []),
			issues,
			reason: first?.message ?? 'invalid',
		});
	}
	return parsed.data;
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
	return path.reduce<string>(
		(acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : `${acc}.${String(key)}`),
		'payload',
	);
}

/** The endpoint that reads an asset's level (its subscriptions). */
const LEVEL_LOOKUP: EndpointId = 'E9';

/**
 * An explanation is best effort: it settles within `limitMs` or when a signal aborts, and any
 * failure gives undefined so that the caller keeps the original error as it was.
 */
async function withinLimit<T>(
	work: (signal?: AbortSignal) => Promise<T>,
	limitMs: number,
	signals: Array<AbortSignal | undefined>,
): Promise<T | undefined> {
	const bound = callSignal(signals, limitMs);
	try {
		return await raceAbort(work(bound.signal), bound.signal);
	} catch {
		return undefined;
	} finally {
		bound.clear();
	}
}

/** The asset a call is about (path or body), for naming its level in a 102403. */
function assetIdOf(options: CallOptions<unknown>): number | undefined {
	const body = (options.body ?? {}) as Record<string, unknown>;
	const ids =
		Array.isArray(body.assetIds) && body.assetIds.length === 1 ? body.assetIds[0] : undefined;
	const candidate = options.params?.assetid ?? options.params?.id ?? body.assetId ?? ids;
	const id = Number(candidate);
	return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
