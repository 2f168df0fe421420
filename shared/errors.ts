// Every failure the core reports is one of these classes. Messages and serialized forms are
// redacted (shared/redact), so an error can be logged or shown in n8n/Slack as it is.
import { ENDPOINTS, type EndpointId, errorMeaning } from './spec';
import { redact, redactValue } from './redact';

export interface EndpointRef {
  id: EndpointId;
  name: string;
}

export function endpointRef(id: EndpointId): EndpointRef {
  return { id, name: ENDPOINTS[id].name };
}

function describeEndpoint(endpoint: EndpointRef | undefined): string {
  return endpoint ? `${endpoint.id} ${endpoint.name}` : 'HTTP request';
}

/** Base class: a redacted message, and a JSON form without secrets. */
export class DriveMonitoringError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(redact(message), options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
  }

  toJSON(): Record<string, unknown> {
    const own: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key !== 'cause') own[key] = value;
    }
    return redactValue(own) as Record<string, unknown>;
  }
}

/** The platform answered `success: false` (or HTTP 401): the spec's code and its meaning. */
export class DriveMonitoringApiError extends DriveMonitoringError {
  readonly code: number;
  /** The meaning of `code` in the spec's error table (or our reading of it for codes outside). */
  readonly meaning: string;
  readonly httpStatus: number;
  readonly endpoint: EndpointRef;
  /** The API's own `message`, as sent (redacted). */
  readonly apiMessage: string | null;

  constructor(args: { code: number; httpStatus: number; endpoint: EndpointRef; apiMessage: string | null; hint?: string }) {
    const meaning = errorMeaning(args.code) ?? (args.httpStatus === 401 ? 'access token missing, expired or refused' : 'unknown error code');
    const api = args.apiMessage ? ` (API message: ${args.apiMessage})` : '';
    const hint = args.hint ? ` ${args.hint}` : '';
    super(`${describeEndpoint(args.endpoint)} failed with code ${args.code}, ${meaning}, HTTP ${args.httpStatus}${api}.${hint}`);
    this.code = args.code;
    this.meaning = meaning;
    this.httpStatus = args.httpStatus;
    this.endpoint = args.endpoint;
    this.apiMessage = args.apiMessage === null ? null : redact(args.apiMessage);
  }
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
    const where = args.endpoint ? ` (${describeEndpoint(args.endpoint)})` : '';
    super(`Invalid ${args.field}${where}: ${showValue(args.value)}; ${args.rule}.`);
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

  constructor(args: { httpStatus: number; body: string; problem: string; endpoint?: EndpointRef; contentType?: string }) {
    const excerpt = excerptOf(args.body);
    super(`${describeEndpoint(args.endpoint)}: unexpected answer (HTTP ${args.httpStatus}): ${args.problem}${excerpt ? `: ${excerpt}` : ''}`);
    this.httpStatus = args.httpStatus;
    this.excerpt = redact(excerpt);
    this.endpoint = args.endpoint;
    this.contentType = args.contentType;
  }
}

/** The envelope was fine but the payload does not fit the resource's schema. */
export class ResponseShapeError extends UnexpectedResponseError {
  /** Dotted path of the first offending field inside the payload, e.g. `payload[3].eventDateTime`. */
  readonly path: string;
  readonly issues: string[];

  constructor(args: { httpStatus: number; endpoint: EndpointRef; path: string; issues: string[]; reason: string }) {
    super({ httpStatus: args.httpStatus, endpoint: args.endpoint, body: '', problem: `payload field ${args.path} does not fit the spec: ${args.reason}` });
    this.path = args.path;
    this.issues = args.issues;
  }
}

/** The request did not complete: connection refused or reset, DNS, timeout, abort. */
export class TransportError extends DriveMonitoringError {
  /** A short machine-readable reason: ECONNREFUSED, ECONNRESET, TIMEOUT, ABORTED, ... */
  readonly reason: string;
  readonly detail: string;
  readonly endpoint?: EndpointRef;
  /** True when the request provably never reached the server (safe to repeat even for a create). */
  readonly notSent: boolean;

  constructor(args: { reason: string; detail: string; endpoint?: EndpointRef; notSent?: boolean; cause?: unknown }) {
    super(`${describeEndpoint(args.endpoint)}: request failed (${args.reason}): ${args.detail}`, { cause: args.cause });
    this.reason = args.reason;
    this.detail = redact(args.detail);
    this.endpoint = args.endpoint;
    this.notSent = args.notSent ?? false;
  }
}

export type AuthRefusal = 'tenant' | 'clientId' | 'clientSecret' | 'client' | 'scope' | 'grant' | 'unknown';

/** The token endpoint refused: says which part of the credentials it refused. */
export class AuthError extends DriveMonitoringError {
  readonly refused: AuthRefusal;
  readonly httpStatus: number;
  /** OAuth `error` (invalid_client, invalid_scope, ...) and its description, redacted. */
  readonly oauthError: string | null;
  readonly oauthDescription: string | null;

  constructor(args: { refused: AuthRefusal; httpStatus: number; oauthError: string | null; oauthDescription: string | null; explanation: string }) {
    const detail = args.oauthError ? ` (${args.oauthError}${args.oauthDescription ? `: ${args.oauthDescription}` : ''})` : '';
    super(`Authentication failed: ${args.explanation}${detail}.`);
    this.refused = args.refused;
    this.httpStatus = args.httpStatus;
    this.oauthError = args.oauthError;
    this.oauthDescription = args.oauthDescription === null ? null : redact(args.oauthDescription);
  }
}

const EXCERPT_LENGTH = 200;

/** A one-line, bounded, redacted excerpt of a body for error messages. */
export function excerptOf(body: string): string {
  const flat = body.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/\s+/g, ' ').trim();
  const cut = flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}...` : flat;
  return redact(cut);
}

function showValue(value: unknown): string {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
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
      ? 'the temporary link has expired or was altered (links from E15 and E23 are valid 10 minutes; request a new one)'
      : 'the file could not be fetched';
    super(`Download failed (HTTP ${args.httpStatus}): ${why}${excerpt ? `: ${excerpt}` : ''}`);
    this.httpStatus = args.httpStatus;
    this.excerpt = excerpt;
    this.linkRefused = linkRefused;
  }
}
