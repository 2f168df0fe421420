/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- the platform simulator, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
	API_PREFIX,
	ENDPOINTS,
	ERROR_CODES,
	UNAUTHORIZED_CODE,
	type EndpointId,
} from '../shared/spec';
import { assetDataHandlers } from './api/assetData';
import { assetHandlers } from './api/assets';
import type { Handler } from './api/context';
import { dataSubscriptionHandlers } from './api/dataSubscription';
import { organizationHandlers } from './api/organization';
import type { TokenService } from './auth';
import type { FaultAction, Faults } from './faults';
import { serveFile } from './files/serve';
import { FILES_PREFIX } from './files/links';
import type { Platform } from './platform';
import type { RequestLog, RequestRecord } from './requestLog';
import { isoUtc } from './time';
import {
	ApiError,
	envelopeReply,
	failure,
	jsonReply,
	success,
	textReply,
	type Reply,
} from './http/envelope';
import { Fields } from './http/fields';
import { Router } from './http/router';

const TOKEN_PATH = /^\/login\/([^/]+)\/oauth2\/v2\.0\/token\/?$/;
const MAX_BODY_BYTES = 1024 * 1024;

const HANDLERS: Record<EndpointId, Handler> = {
	...organizationHandlers,
	...assetHandlers,
	...assetDataHandlers,
	...dataSubscriptionHandlers,
};

export interface ServerDeps {
	platform: Platform;
	tokens: TokenService;
	faults: Faults;
	requests: RequestLog;
}

/** The platform's HTTP front: faults, the request log, the token endpoint, files and E1..E30. */
export function createSimulatorServer(deps: ServerDeps): Server {
	const router = new Router();
	const server = createServer((req, res) => {
		handle(deps, router, req, res).catch((error: unknown) => {
			// A bug in the simulator must show as a 500, never hang the client.
			if (!res.headersSent)
				write(
					res,
					textReply(
						500,
						`simulator error: ${error instanceof Error ? error.message : String(error)}`,
					),
				);
			else res.destroy();
		});
	});
	server.keepAliveTimeout = 5000;
	return server;
}

async function handle(
	deps: ServerDeps,
	router: Router,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	const url = new URL(req.url ?? '/', 'http://simulator.local');
	const record: RequestRecord = {
		method: req.method ?? 'GET',
		path: url.pathname,
		query: Object.fromEntries(url.searchParams),
		time: isoUtc(deps.platform.clock.wallNow()),
		status: 0,
	};
	const entry = deps.requests.push(record);
	res.on('finish', () => (record.status = res.statusCode));
	res.on('close', () => entry.settled());

	const decision = deps.faults.decide(url.pathname);
	if (decision.latencyMs > 0) {
		// A client that gives up meanwhile is not answered, and leaves no timer behind.
		await new Promise<void>((resolve) => {
			const timer = setTimeout(resolve, decision.latencyMs);
			res.once('close', () => {
				clearTimeout(timer);
				resolve();
			});
		});
		if (res.destroyed) return;
	}
	const early = decision.action && faultReply(decision.action);
	if (decision.action?.kind === 'reset') {
		req.socket.resetAndDestroy();
		return;
	}
	const body = await readBody(req);
	let reply: Reply;
	if (early) reply = early;
	else if (TOKEN_PATH.test(url.pathname)) {
		record.endpoint = 'token';
		reply = tokenReply(deps, req, url, body);
	} else if (url.pathname.startsWith(`${FILES_PREFIX}/`)) {
		record.endpoint = 'file';
		reply =
			req.method === 'GET'
				? serveFile(deps.platform, url)
				: textReply(405, 'Temporary links are downloaded with GET.');
	} else if (
		url.pathname.toLowerCase().startsWith(`${API_PREFIX.toLowerCase()}/`) ||
		url.pathname.toLowerCase() === API_PREFIX.toLowerCase()
	) {
		reply = apiReply(deps, router, req, url, body, record);
	} else {
		reply = textReply(404, `Not found: ${url.pathname}. The API lives under ${API_PREFIX}.`);
	}
	if (decision.action?.kind === 'malformed') reply = corrupt(reply, decision.action.malformedKind);
	write(res, reply);
}

function faultReply(action: FaultAction): Reply | null {
	if (action.kind === 'error') {
		const reason =
			{
				500: 'Internal Server Error',
				502: 'Bad Gateway',
				503: 'Service Unavailable',
				504: 'Gateway Timeout',
			}[action.status] ?? 'Error';
		return {
			status: action.status,
			headers: { 'Content-Type': 'text/html; charset=utf-8' },
			body: `<!DOCTYPE html><html><head><title>${action.status} ${reason}</title></head><body><h1>${action.status} ${reason}</h1><p>The server is temporarily unable to service your request.</p></body></html>`,
		};
	}
	if (action.kind === 'rateLimit') {
		return jsonReply(
			429,
			{
				statusCode: 429,
				message: `Rate limit is exceeded. Try again in ${action.retryAfterSec} seconds.`,
			},
			{ 'Retry-After': String(action.retryAfterSec) },
		);
	}
	return null;
}

function corrupt(reply: Reply, kind: 'html' | 'truncated' | 'extra-fields'): Reply {
	const text = reply.body.toString();
	if (kind === 'html') {
		return {
			status: reply.status,
			headers: { 'Content-Type': 'text/html; charset=utf-8' },
			body: '<html><body><h1>Request blocked</h1><p>Your request was blocked by the web application firewall.</p></body></html>',
		};
	}
	if (kind === 'truncated')
		return { ...reply, body: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
	try {
		const parsed = JSON.parse(text) as Record<string, unknown>;
		const addUnknown = (value: unknown): unknown =>
			value && typeof value === 'object' && !Array.isArray(value)
				? { ...value, unknownFieldAddedLater: 'ignored by clients' }
				: value;
		const payload = Array.isArray(parsed.payload)
			? parsed.payload.map(addUnknown)
			: addUnknown(parsed.payload);
		return {
			...reply,
			body: JSON.stringify({ ...parsed, payload, traceId: 'simulator-extra-field' }),
		};
	} catch {
		return reply;
	}
}

function write(res: ServerResponse, reply: Reply): void {
	const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
	res.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(body.length) });
	res.end(body);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > MAX_BODY_BYTES) break;
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

function tokenReply(deps: ServerDeps, req: IncomingMessage, url: URL, body: Buffer): Reply {
	const tenant = decodeURIComponent(TOKEN_PATH.exec(url.pathname)?.[1] ?? '');
	if (req.method !== 'POST')
		return jsonReply(405, {
			error: 'invalid_request',
			error_description: 'AADSTS900561: The endpoint only accepts POST requests.',
			error_codes: [900561],
		});
	const type = String(req.headers['content-type'] ?? '');
	const form = type.includes('application/x-www-form-urlencoded')
		? new URLSearchParams(body.toString('utf8'))
		: new URLSearchParams();
	const answer = deps.tokens.handle(tenant, form);
	return jsonReply(answer.status, answer.body, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
}

function apiReply(
	deps: ServerDeps,
	router: Router,
	req: IncomingMessage,
	url: URL,
	body: Buffer,
	record: RequestRecord,
): Reply {
	const check = deps.tokens.verify(req.headers.authorization);
	if (!check.ok) {
		// A4: 401 with the envelope and a WWW-Authenticate header.
		return envelopeReply(failure(UNAUTHORIZED_CODE, `no permission: ${check.reason}`), 401, {
			'WWW-Authenticate': `Bearer error="invalid_token", error_description="${check.reason}"`,
		});
	}
	record.orgId = check.orgId;
	const caller = deps.platform.store.org(check.orgId);
	if (!caller)
		return envelopeReply(
			failure(UNAUTHORIZED_CODE, 'no permission: organization of the token no longer exists'),
			401,
		);
	const relative = url.pathname.slice(API_PREFIX.length) || '/';
	const match = router.match(req.method ?? 'GET', relative);
	if (match.kind === 'none')
		return envelopeReply(
			failure(100400, `no endpoint ${req.method} ${API_PREFIX}${relative}`),
			404,
		);
	if (match.kind === 'method') {
		return envelopeReply(
			failure(
				100400,
				`${req.method} is not allowed on ${url.pathname}; use ${match.allowed.join(' or ')}`,
			),
			405,
			{ Allow: match.allowed.join(', ') },
		);
	}
	const { id, params } = match.route;
	record.endpoint = id;
	try {
		if (!caller.apiAccessEnabled)
			throw new ApiError(
				100403,
				`API access of organization ${caller.id} is disabled by the platform operator`,
			);
		const parsed = parseJson(body, ENDPOINTS[id].method);
		if (parsed === INVALID_JSON)
			return envelopeReply(
				failure(100400, `${ERROR_CODES[100400]}: the request body is not valid JSON`),
			);
		const payload = HANDLERS[id]({
			platform: deps.platform,
			caller,
			params,
			query: new Fields(Object.fromEntries(url.searchParams), 'query'),
			body: new Fields(parsed),
		});
		return envelopeReply(success(payload));
	} catch (error) {
		if (error instanceof ApiError) return envelopeReply(failure(error.code, error.message));
		// A bug in the simulator: answer 500 rather than leave the client hanging.
		return textReply(
			500,
			`simulator error: ${error instanceof Error ? error.message : String(error)}`,
		);
	}
}

const INVALID_JSON = Symbol('invalid JSON');

function parseJson(body: Buffer, method: string): unknown {
	if (body.length === 0 || method === 'GET' || method === 'DELETE') return {};
	try {
		return JSON.parse(body.toString('utf8'));
	} catch {
		return INVALID_JSON;
	}
}
