/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The undici transport reads answers straight from undici's dispatcher (undici's request()
// stream costs more than the core's own work). What that stream would give for free is checked
// here against a real HTTP server: size limits (declared and streamed), cancellation before and
// during the body, repeated headers, timeouts, connection failures, and URLs under more than one
// origin on one transport.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { getEventListeners } from 'node:events';
import type { AddressInfo } from 'node:net';
import { TransportError } from '../../shared';
import { createUndiciTransport } from '../../shared/runtime/node';
import { callSignal } from '../../shared/timers/wait';
import type { Transport } from '../../shared/transport/types';
import { waitFor } from '../bot/helpers';

type Route = (req: IncomingMessage, res: ServerResponse) => void;

interface TestServer {
	url: string;
	closedSockets: () => number;
	close: () => Promise<void>;
}

async function serve(route: Route): Promise<TestServer> {
	let closed = 0;
	const server: Server = createServer((req, res) => {
		req.resume();
		req.on('end', () => route(req, res));
	});
	server.on('connection', (socket) => socket.on('close', () => closed++));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		closedSockets: () => closed,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

async function failureOf(promise: Promise<unknown>): Promise<TransportError> {
	const error: unknown = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(TransportError);
	return error as TransportError;
}

const servers: TestServer[] = [];
const transports: Transport[] = [];

async function start(route: Route): Promise<TestServer> {
	const server = await serve(route);
	servers.push(server);
	return server;
}

/** A server that starts every answer and never finishes it: only a cancellation or a deadline ends the wait. */
async function stalling(): Promise<{ server: TestServer; answered: () => number }> {
	let answered = 0;
	const server = await start((_req, res) => {
		answered++;
		res.writeHead(200);
		res.write('partial');
	});
	return { server, answered: () => answered };
}

function transport(options: Parameters<typeof createUndiciTransport>[0] = {}): Transport {
	const made = createUndiciTransport(options);
	transports.push(made);
	return made;
}

afterEach(async () => {
	await Promise.all(transports.splice(0).map((t) => t.close?.()));
	await Promise.all(servers.splice(0).map((s) => s.close()));
});

test('an answer arrives whole: status, body bytes across many chunks, headers by lower-case name, a repeated header as a list', async () => {
	const big = Buffer.alloc(300_000, 'x');
	const server = await start((_req, res) => {
		res.setHeader('Content-Type', 'application/octet-stream');
		res.setHeader('Set-Cookie', ['a=1', 'b=2']);
		res.writeHead(207);
		// Written in pieces without a length: the body comes chunked and in several reads.
		for (let at = 0; at < big.length; at += 10_000) res.write(big.subarray(at, at + 10_000));
		res.end();
	});
	const answer = await transport().request({
		method: 'GET',
		url: `${server.url}/file?x=1`,
		headers: {},
	});
	expect(answer.status).toBe(207);
	expect(answer.body.equals(big)).toBe(true);
	expect(answer.headers['content-type']).toBe('application/octet-stream');
	expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
	// A wrapper that copies the answer keeps its headers.
	expect({ ...answer }.headers['content-type']).toBe('application/octet-stream');
});

test('a body over the size limit is refused as TOO_LARGE, whether its length is declared or it just keeps coming, and its connection is dropped', async () => {
	const limit = 1000;
	const declared = await start((_req, res) => {
		res.writeHead(200, { 'content-length': String(limit + 1) });
		res.end(Buffer.alloc(limit + 1));
	});
	const streamed = await start((_req, res) => {
		res.writeHead(200);
		res.write(Buffer.alloc(600));
		res.write(Buffer.alloc(600));
		// Never ended: only the limit stops the read.
	});
	const client = transport({ maxResponseBytes: limit });
	const first = await failureOf(
		client.request({ method: 'GET', url: `${declared.url}/a`, headers: {} }),
	);
	expect(first.reason).toBe('TOO_LARGE');
	expect(first.message).toContain(`${limit + 1} bytes`);
	const second = await failureOf(
		client.request({ method: 'GET', url: `${streamed.url}/b`, headers: {} }),
	);
	expect(second.reason).toBe('TOO_LARGE');
	expect(second.message).toContain(`over the ${limit}-byte limit`);
	await waitFor("the oversized answer's connection to close", () => streamed.closedSockets() >= 1);
});

test('cancelling before the request is sent, or while its body is arriving, ends it with ABORTED and the signal gains no listener that outlives the call', async () => {
	const { server, answered } = await stalling();
	const client = transport();
	const early = new AbortController();
	early.abort();
	const before = await failureOf(
		client.request({ method: 'GET', url: `${server.url}/x`, headers: {}, signal: early.signal }),
	);
	expect(before.reason).toBe('ABORTED');

	const during = new AbortController();
	const pending = client.request({
		method: 'GET',
		url: `${server.url}/y`,
		headers: {},
		signal: during.signal,
	});
	await waitFor('the server to start answering', () => answered() === 1);
	during.abort();
	expect((await failureOf(pending)).reason).toBe('ABORTED');

	// A finished call leaves nothing on a signal that lives on (a client-wide one, say).
	const lasting = new AbortController();
	const quick = await start((_req, res) => res.end('{}'));
	for (let i = 0; i < 5; i++)
		await client.request({
			method: 'GET',
			url: `${quick.url}/z`,
			headers: {},
			signal: lasting.signal,
		});
	expect(getEventListeners(lasting.signal, 'abort')).toHaveLength(0);
});

test("a call's own deadline ends a request in flight through a hook, with no 'abort' listener on its signal; another signal gets one listener for the request's life", async () => {
	const { server, answered } = await stalling();
	const client = transport();
	const call = callSignal([], 400);
	const pending = client.request({
		method: 'GET',
		url: `${server.url}/deadline`,
		headers: {},
		signal: call.signal,
	});
	await waitFor('the server to start answering', () => answered() === 1);
	expect(getEventListeners(call.signal as AbortSignal, 'abort')).toHaveLength(0);
	const failure = await failureOf(pending);
	expect(failure.reason).toBe('TIMEOUT');
	expect(call.deadlinePassed()).toBe(true);
	call.clear();

	const foreign = new AbortController();
	const other = client.request({
		method: 'GET',
		url: `${server.url}/foreign`,
		headers: {},
		signal: foreign.signal,
	});
	await waitFor('the second answer to start', () => answered() === 2);
	expect(getEventListeners(foreign.signal, 'abort')).toHaveLength(1);
	foreign.abort();
	expect((await failureOf(other)).reason).toBe('ABORTED');
	expect(getEventListeners(foreign.signal, 'abort')).toHaveLength(0);
});

test('a server that never answers ends the request with TIMEOUT after the per-request timeout', async () => {
	const server = await start(() => undefined);
	const failure = await failureOf(
		transport().request({ method: 'GET', url: `${server.url}/slow`, headers: {}, timeoutMs: 300 }),
	);
	expect(failure.reason).toBe('TIMEOUT');
	expect(failure.message).toContain('no response headers before the deadline');
});

test('a refused connection is reported as not sent, so even a create may be tried again', async () => {
	const server = await start(() => undefined);
	const url = server.url;
	await server.close();
	servers.splice(servers.indexOf(server), 1);
	const failure = await failureOf(
		transport().request({ method: 'POST', url: `${url}/create`, headers: {}, body: '{}' }),
	);
	expect(failure.reason).toBe('ECONNREFUSED');
	expect(failure.notSent).toBe(true);
});

test('one transport serves several origins in turn, with paths, queries and a bare origin kept as they were sent', async () => {
	const seen: string[] = [];
	const a = await start((req, res) => {
		seen.push(`a ${req.method} ${req.url}`);
		res.end('a');
	});
	const b = await start((req, res) => {
		seen.push(`b ${req.method} ${req.url}`);
		res.end('b');
	});
	const client = transport();
	const bodies: string[] = [];
	for (const url of [
		`${a.url}/one?q=1`,
		`${b.url}/two`,
		`${a.url}?only=query`,
		a.url,
		`${b.url}/three#fragment`,
		`${a.url}/four`,
	]) {
		bodies.push((await client.request({ method: 'GET', url, headers: {} })).body.toString());
	}
	expect(bodies).toEqual(['a', 'b', 'a', 'a', 'b', 'a']);
	expect(seen).toEqual([
		'a GET /one?q=1',
		'b GET /two',
		'a GET /?only=query',
		'a GET /',
		'b GET /three',
		'a GET /four',
	]);
});
