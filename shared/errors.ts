// Every failure the core reports is one of these classes. Messages and serialized forms are
// redacted (shared/redact), so an error can be logged or shown in n8n/Slack as it is.
import { CHECK_BEFORE_REPEATING, CODE_INFO, codeInfo, type ErrorKind } from './errorCatalog';
import { ENDPOINT_FEATURE, explainLevelDenial, levelsAllowing } from './levels';
import { ENDPOINTS, type EndpointId, errorMeaning, type Level } from './spec';
import { redact, redactValue } from './redact';

export type { ErrorKind } from './errorCatalog';

export interface EndpointRef {
	id: EndpointId;
	name: string;
}

const refs = new Map<EndpointId, EndpointRef>();

/** An endpoint's id and name (one object per endpoint: the core takes it on every call). */
export function endpointRef(id: EndpointId): EndpointRef {
	let ref = refs.get(id);
	if (!ref) {
		ref = { id, name: ENDPOINTS[id].name };
		refs.set(id, ref);
	}
	return ref;
}

/** Base class: a redacted message, a `kind`, a `hint` saying what to do, and a JSON form without secrets. */
export class DriveMonitoringError extends Error {
	/** Which kind of failure (the class group): not found, forbidden, subscription, conflict, ... */
	readonly kind: ErrorKind;
	/** What to do next, in words for the person reading (no endpoint numbers). */
	readonly hint: string;

	constructor(message: string, options?: { cause?: unknown; kind?: ErrorKind; hint?: string }) {
		super(redact(message), options?.cause === undefined ? undefined : { cause: options.cause });
		this.name = new.target.name;
		this.kind = options?.kind ?? 'unexpectedAnswer';
		this.hint = redact(options?.hint ?? '');
	}

	toJSON(): Record<string, unknown> {
		const own: Record<string, unknown> = { name: this.name, message: this.message };
		for (const [key, value] of Object.entries(this)) {
			if (key !== 'cause') own[key] = value;
		}
		return redactValue(own) as Record<string, unknown>;
	}
}

function sentence(text: string): string {
	const trimmed = text.trim();
	return trimmed === '' || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** "Summary. Hint" as one message. */
function withHint(summary: string, hint: string | undefined): string {
	return [sentence(summary), hint ? sentence(hint) : ''].filter(Boolean).join(' ');
}

interface ApiErrorArgs {
	code: number;
	httpStatus: number;
	endpoint: EndpointRef;
	apiMessage: string | null;
	/** Replaces the code's hint (e.g. a 102403 that knows the asset's level). */
	hint?: string;
}

/**
 * The platform answered `success: false` (or HTTP 401): the spec's code, what it means for the
 * reader, and what to do. Subclasses group the codes; `apiErrorOf` picks the class of a code.
 */
export class DriveMonitoringApiError extends DriveMonitoringError {
	readonly code: number;
	/** The meaning of `code` in the spec's error table (or our reading of it for codes outside). */
	readonly meaning: string;
	/** What went wrong, in plain words (the first sentence of the message). */
	readonly summary: string;
	readonly httpStatus: number;
	/** Which call failed (kept as a field: endpoint numbers stay out of the message). */
	readonly endpoint: EndpointRef;
	/** The API's own `message`, as sent (redacted). */
	readonly apiMessage: string | null;

	constructor(args: ApiErrorArgs) {
		const meaning =
			errorMeaning(args.code) ??
			(args.httpStatus === 401 ? 'access token missing, expired or refused' : 'unknown error code');
		const info = codeInfo(args.code, args.endpoint.id) ?? {
			kind: 'unexpectedAnswer' as const,
			summary: `The platform refused the request with code ${args.code}, which the specification does not list`,
			hint: "The platform's own words are in the details; if they do not explain it, ask the platform operator about this code.",
		};
		const hint = args.hint ?? info.hint;
		super(withHint(info.summary, hint), { kind: info.kind, hint });
		this.code = args.code;
		this.meaning = meaning;
		this.summary = info.summary;
		this.httpStatus = args.httpStatus;
		this.endpoint = args.endpoint;
		this.apiMessage = args.apiMessage === null ? null : redact(args.apiMessage);
	}
}

/** Something the call names does not exist: organization, asset, group, plant, code, user, report. */
export class NotFoundError extends DriveMonitoringApiError {}
/** The credentials' organization may not act on the target (it belongs to someone else). */
export class ForbiddenError extends DriveMonitoringApiError {}
/** The asset's subscription or a subscription code stands in the way (expired, level, type). */
export class SubscriptionError extends DriveMonitoringApiError {}
/** The thing to create or bind already exists or was already used. */
export class ConflictError extends DriveMonitoringApiError {}
/** The platform refused a value the core could not check beforehand. */
export class InvalidInputError extends DriveMonitoringApiError {}
/** The platform refused the access token even after a fresh one (HTTP 401). */
export class AuthenticationError extends DriveMonitoringApiError {}

/** 102403: the level held (when it could be read) and the levels that allow the function. */
export class LevelDeniedError extends SubscriptionError {
	/** The asset's level, read from its subscriptions (one call, cached), when it could be known. */
	readonly levelHeld?: Level;
	/** The levels that allow the function (or the longest history) the call needed. */
	readonly levelsNeeded: Level[];

	constructor(args: ApiErrorArgs & { levelHeld?: Level }) {
		const feature = ENDPOINT_FEATURE[args.endpoint.id];
		// explainLevelDenial names the level held itself when it knows it.
		const explanation = feature
			? explainLevelDenial(feature, args.levelHeld)
			: args.levelHeld
				? `This asset is ${args.levelHeld}.`
				: '';
		const history = feature === 'eventHistory' || feature === 'trendSignalHistory';
		const todo = history
			? `${CODE_INFO[102403].hint.slice(0, -1)}, or start later.`
			: CODE_INFO[102403].hint;
		super({ ...args, hint: args.hint ?? [explanation, todo].filter(Boolean).join(' ') });
		this.levelHeld = args.levelHeld;
		this.levelsNeeded = feature ? levelsAllowing(feature) : [];
	}
}

const CLASS_OF_KIND: Partial<
	Record<ErrorKind, new (args: ApiErrorArgs) => DriveMonitoringApiError>
> = {
	notFound: NotFoundError,
	forbidden: ForbiddenError,
	subscription: SubscriptionError,
	conflict: ConflictError,
	invalidInput: InvalidInputError,
	authentication: AuthenticationError,
};

/** The error of a refused call, as the class its code belongs to. */
export function apiErrorOf(args: ApiErrorArgs & { levelHeld?: Level }): DriveMonitoringApiError {
	if (args.code === 102403) return new LevelDeniedError(args);
	const kind = codeInfo(args.code, args.endpoint.id)?.kind;
	const ErrorClass = (kind && CLASS_OF_KIND[kind]) ?? DriveMonitoringApiError;
	return new ErrorClass(args);
}

/**
 * Why an asset cannot answer at its subscription standing: `expired` (102205) or `levelDenied`
 * (102403, the level lacks the function or that much history); undefined for any other error.
 * A read over a whole fleet leaves such an asset out instead of failing on it.
 */
export function assetStandingRefusal(error: unknown): 'expired' | 'levelDenied' | undefined {
	if (!(error instanceof DriveMonitoringApiError)) return undefined;
	return error.code === 102205 ? 'expired' : error.code === 102403 ? 'levelDenied' : undefined;
}

/** Input refused before any request was sent: which field, which value, which rule. */
export class ValidationError extends DriveMonitoringError {
	readonly field: string;
	readonly value: unknown;
	readonly rule: string;
	readonly endpoint?: EndpointRef;

	constructor(args: { field: string; value: unknown; rule: string; endpoint?: EndpointRef }) {
		super(`Invalid ${args.field}: ${showValue(args.value)}; ${args.rule}.`, {
			kind: 'invalidInput',
			hint: `Nothing was sent to the platform: correct ${args.field} and run again.`,
		});
		this.field = args.field;
		this.value = args.value instanceof Date ? args.value.toISOString() : args.value;
		this.rule = args.rule;
		this.endpoint = args.endpoint;
	}
}

/** The answer is not what the API sends: an HTML page, an empty body, truncated JSON, a bad shape. */
export class UnexpectedResponseError extends DriveMonitoringError {
	readonly httpStatus: number;
	readonly excerpt: string;
	readonly endpoint?: EndpointRef;
	readonly contentType?: string;
	/** What is wrong with the answer, in words (the message without the body excerpt). */
	readonly problem: string;

	constructor(args: {
		httpStatus: number;
		body: string;
		problem: string;
		endpoint?: EndpointRef;
		contentType?: string;
		kind?: ErrorKind;
		hint?: string;
	}) {
		const excerpt = excerptOf(args.body);
		const unavailable = args.httpStatus >= 500 || args.httpStatus === 408;
		super(
			`The platform sent an unexpected answer (HTTP ${args.httpStatus}): ${args.problem}${excerpt ? `: ${excerpt}` : ''}`,
			{
				kind: args.kind ?? (unavailable ? 'unavailable' : 'unexpectedAnswer'),
				hint:
					args.hint ??
					(unavailable
						? 'The platform or a gateway in front of it is failing; the call was retried. Try again in a few minutes.'
						: 'Check the Base URL of the credentials (the platform address, without /devcenter/extapi/v1); if it is right, report the answer in the details to the platform operator.'),
			},
		);
		this.httpStatus = args.httpStatus;
		this.excerpt = redact(excerpt);
		this.endpoint = args.endpoint;
		this.contentType = args.contentType;
		this.problem = redact(args.problem);
	}
}

/** The platform answered 429 until the retries were used up. */
export class RateLimitedError extends UnexpectedResponseError {
	/** The wait the platform asked for on its last answer, when it said. */
	readonly retryAfterMs?: number;

	constructor(args: {
		body: string;
		endpoint?: EndpointRef;
		contentType?: string;
		retryAfterMs?: number;
	}) {
		super({
			httpStatus: 429,
			body: args.body,
			endpoint: args.endpoint,
			contentType: args.contentType,
			problem: 'rate limited (HTTP 429) and the retries are used up',
			kind: 'rateLimited',
			hint: `Slow down: lower the concurrency (or the number of items at once)${
				args.retryAfterMs !== undefined
					? `, and wait at least ${Math.ceil(args.retryAfterMs / 1000)} s`
					: ''
			} before trying again.`,
		});
		this.retryAfterMs = args.retryAfterMs;
	}
}

/** The envelope was fine but the payload does not fit the resource's schema. */
export class ResponseShapeError extends UnexpectedResponseError {
	/** Dotted path of the first offending field inside the payload, e.g. `payload[3].eventDateTime`. */
	readonly path: string;
	readonly issues: string[];

	constructor(args: {
		httpStatus: number;
		endpoint: EndpointRef;
		path: string;
		issues: string[];
		reason: string;
	}) {
		super({
			httpStatus: args.httpStatus,
			endpoint: args.endpoint,
			body: '',
			problem: `payload field ${args.path} does not fit the spec: ${args.reason}`,
			hint: 'The platform answered in a form the specification does not describe; report the field in the details to the platform operator.',
		});
		this.path = args.path;
		this.issues = args.issues;
	}
}

const REASON_WORDS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ECONNRESET: 'the connection was reset',
	ENOTFOUND: 'the host name is not known',
	EAI_AGAIN: 'the host name could not be looked up',
	TIMEOUT: 'no answer came in time',
	DEADLINE: 'the call ran past its total deadline',
	ABORTED: 'the call was cancelled',
};

/** The request did not complete: connection refused or reset, DNS, timeout, abort. */
export class TransportError extends DriveMonitoringError {
	/** A short machine-readable reason: ECONNREFUSED, ECONNRESET, TIMEOUT, DEADLINE, ABORTED, ... */
	readonly reason: string;
	readonly detail: string;
	readonly endpoint?: EndpointRef;
	/** True when the request provably never reached the server (safe to repeat even for a create). */
	readonly notSent: boolean;
	/** True when the platform may have carried out a change before the answer was lost (a create is never repeated). */
	readonly mayHaveSucceeded: boolean;
	/** What happened in words, without the bare reason code (n8n replaces messages holding one). */
	readonly summary: string;

	constructor(args: {
		reason: string;
		detail: string;
		endpoint?: EndpointRef;
		notSent?: boolean;
		cause?: unknown;
		mayHaveSucceeded?: boolean;
		/** Words of a subclass that knows more (DeadlineError): replace the generic ones. */
		words?: { message: string; summary: string; hint: string };
	}) {
		const check =
			args.mayHaveSucceeded && args.endpoint ? CHECK_BEFORE_REPEATING[args.endpoint.id] : undefined;
		const what = REASON_WORDS[args.reason] ?? `the request failed (${args.reason})`;
		const hint =
			args.words?.hint ??
			(args.mayHaveSucceeded
				? `The platform may have carried it out before the answer was lost, so it was not repeated: ${check ?? 'check the result before repeating it'}.`
				: args.reason === 'ABORTED'
					? 'The call was cancelled before it finished; run it again when needed.'
					: args.reason === 'DEADLINE' || args.reason === 'TIMEOUT'
						? 'The platform answered too slowly, even after retries: try again in a few minutes, or ask for a shorter time range.'
						: 'Check the Base URL and the network between here and the platform, then try again.');
		super(
			args.words?.message ??
				`The platform could not be reached: ${what} (${args.reason}): ${args.detail}`,
			{ cause: args.cause, kind: 'unavailable', hint },
		);
		this.reason = args.reason;
		this.detail = redact(args.detail);
		this.endpoint = args.endpoint;
		this.notSent = args.notSent ?? false;
		this.mayHaveSucceeded = args.mayHaveSucceeded ?? false;
		this.summary = args.words
			? redact(args.words.summary)
			: this.mayHaveSucceeded
				? `The answer from the Drive Monitoring platform was lost: ${what}`
				: args.reason === 'DEADLINE' || args.reason === 'TIMEOUT'
					? `The Drive Monitoring platform did not answer in time: ${what}`
					: `The Drive Monitoring platform could not be reached: ${what}`;
	}
}

/** A duration as a person reads it in an error: "1.5 s", "90 s", "3 min 20 s". */
export function formatDuration(ms: number): string {
	if (ms < 10_000) return `${Number((ms / 1000).toFixed(1))} s`;
	const seconds = Math.round(ms / 1000);
	if (seconds < 120) return `${seconds} s`;
	return seconds % 60 === 0
		? `${seconds / 60} min`
		: `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** How far a read of a time range in parts (one request each) had come when its deadline passed. */
export interface RangeProgress {
	/** The whole range asked for, ISO 8601 UTC. */
	start: string;
	end: string;
	/** Parts read completely, of how many. */
	done: number;
	total: number;
	/** Days the parts read cover together. */
	daysDone: number;
	/** The earliest part still unread; absent when the call had not reached the parts yet. */
	pending?: { start: string; end: string };
}

/**
 * A call ran past its total deadline (the client's `deadlineMs`, retries, token fetch and every
 * request of a ranged read included). Says which operation, after how long, how far it came and
 * how to give it more time in the setting the person can change (`deadlineSetting`).
 */
export class DeadlineError extends TransportError {
	/** The operation in words ("Get asset detail", "Reading the events of asset 7"). */
	readonly operation: string;
	readonly deadlineMs: number;
	readonly elapsedMs: number;
	/** For a ranged read: the range and the parts read before the deadline. */
	readonly range?: RangeProgress;

	constructor(args: {
		operation: string;
		deadlineMs: number;
		elapsedMs: number;
		/** How the reader gives the call more time ("raise Timeout Workflow in the workflow settings (now 90 s)"); undefined when they cannot. */
		setting?: string;
		range?: RangeProgress;
		endpoint?: EndpointRef;
		notSent?: boolean;
		cause?: unknown;
	}) {
		const within = formatDuration(args.deadlineMs);
		const more = args.setting ? `, or allow more time: ${args.setting}` : '';
		const { range } = args;
		let words: { message: string; summary: string; hint: string };
		if (range) {
			const summary = `${args.operation} from ${range.start} to ${range.end} did not finish within ${within}`;
			const progress = range.pending
				? `${range.done} of ${range.total} parts were read; the platform had not yet answered for ${range.pending.start} to ${range.pending.end}`
				: "the asset's subscription level was still being read, before any part of the range";
			const read = range.done > 0 ? ` (${formatDays(range.daysDone)} were read in ${within})` : '';
			words = {
				summary,
				message: `${summary}: ${progress}.`,
				hint: `Ask for a shorter time range${read}${more}.`,
			};
		} else {
			const summary = `${args.operation} did not finish within ${within}: the Drive Monitoring platform did not answer in time`;
			words = {
				summary,
				message: `${summary}, retries included.`,
				hint: `Try again in a few minutes${args.setting ? `; if the platform is often this slow, allow more time: ${args.setting}` : ''}.`,
			};
		}
		// The detail is how far the call came, for hosts that show it apart from the summary.
		const detail = range
			? words.message.slice(words.summary.length + 2, -1)
			: `no final answer within ${within}, retries included`;
		super({
			reason: 'DEADLINE',
			detail,
			endpoint: args.endpoint,
			notSent: args.notSent,
			cause: args.cause,
			words,
		});
		this.operation = args.operation;
		this.deadlineMs = args.deadlineMs;
		this.elapsedMs = args.elapsedMs;
		this.range = range;
	}
}

function formatDays(days: number): string {
	const rounded = Number(days.toFixed(1));
	return `${rounded} day${rounded === 1 ? '' : 's'}`;
}

export type AuthRefusal =
	| 'tenant'
	| 'clientId'
	| 'clientSecret'
	| 'client'
	| 'scope'
	| 'grant'
	| 'unknown';

/** The token endpoint refused: says which part of the credentials it refused. */
export class AuthError extends DriveMonitoringError {
	readonly refused: AuthRefusal;
	readonly httpStatus: number;
	/** OAuth `error` (invalid_client, invalid_scope, ...) and its description, redacted. */
	readonly oauthError: string | null;
	readonly oauthDescription: string | null;

	constructor(args: {
		refused: AuthRefusal;
		httpStatus: number;
		oauthError: string | null;
		oauthDescription: string | null;
		explanation: string;
		hint?: string;
	}) {
		// The token server's own text (it echoes the API key and carries trace ids) stays out of the
		// message: it is kept, scrubbed, in oauthDescription for the details.
		super(`Authentication failed: ${args.explanation}.`, {
			kind: 'authentication',
			hint:
				args.hint ??
				'Check the Drive Monitoring API credentials: the credential test says which field is refused.',
		});
		this.refused = args.refused;
		this.httpStatus = args.httpStatus;
		this.oauthError = args.oauthError;
		this.oauthDescription = args.oauthDescription === null ? null : redact(args.oauthDescription);
	}
}

const EXCERPT_LENGTH = 200;

/** A one-line, bounded, redacted excerpt of a body for error messages. */
export function excerptOf(body: string): string {
	const flat = body
		.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	const cut = flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}...` : flat;
	return redact(cut);
}

/** A value as an error shows it: JSON, cut at 120 characters, a text with its length in characters. */
export function showValue(value: unknown): string {
	if (value instanceof Date)
		return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
	if (value === undefined) return 'missing';
	let text: string;
	try {
		text = JSON.stringify(value) ?? String(value);
	} catch {
		text = String(value);
	}
	if (typeof value === 'string') text += ` (${[...value].length} characters)`;
	return text.length > 120 ? `${text.slice(0, 120)}...` : text;
}

/** A temporary link (E15, E23) could not be downloaded: expired, altered, or not a file. */
export class DownloadError extends DriveMonitoringError {
	readonly httpStatus: number;
	readonly excerpt: string;
	/** True when the platform refused the link itself (expired or altered signature). */
	readonly linkRefused: boolean;

	constructor(args: { httpStatus: number; body: string }) {
		const linkRefused = args.httpStatus === 403 || args.httpStatus === 410;
		const excerpt = excerptOf(args.body);
		const why = linkRefused
			? 'the temporary link has expired or was altered'
			: 'the file could not be fetched';
		super(`Download failed (HTTP ${args.httpStatus}): ${why}${excerpt ? `: ${excerpt}` : ''}`, {
			kind: linkRefused ? 'notFound' : 'unavailable',
			hint: linkRefused
				? 'Links to event logger files and reports are valid 10 minutes: ask for the file again to get a new link.'
				: 'Try again in a few minutes; if it keeps failing, ask for the file again to get a new link.',
		});
		this.httpStatus = args.httpStatus;
		this.excerpt = excerpt;
		this.linkRefused = linkRefused;
	}
}
