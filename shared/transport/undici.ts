import { Agent, errors as undiciErrors } from 'undici';
import { TransportError } from '../errors';
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
  const agent = new Agent({
    connect: { timeout: options.connectTimeoutMs ?? 10_000 },
    headersTimeout: options.headersTimeoutMs ?? 30_000,
    bodyTimeout: options.bodyTimeoutMs ?? 30_000,
    connections: options.connections ?? 16,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
  });
  const maxBytes = options.maxResponseBytes ?? 64 * 1024 * 1024;

  return {
    async request(req: TransportRequest): Promise<TransportResponse> {
      const signals = [req.signal, req.timeoutMs ? AbortSignal.timeout(req.timeoutMs) : undefined].filter(
        (s): s is AbortSignal => s !== undefined,
      );
      const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
      try {
        const res = await agent.request({
          origin: new URL(req.url).origin,
          path: pathOf(req.url),
          method: req.method,
          headers: req.headers,
          body: req.body,
          signal,
        });
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > maxBytes) {
            res.body.destroy();
            throw new TransportError({ reason: 'TOO_LARGE', detail: `response body over ${maxBytes} bytes` });
          }
          chunks.push(chunk as Buffer);
        }
        return { status: res.statusCode, headers: res.headers as TransportResponse['headers'], body: Buffer.concat(chunks, size) };
      } catch (error) {
        throw toTransportError(error, signal);
      }
    },
    async close() {
      await agent.close();
    },
  };
}

function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

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
    UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
    UND_ERR_BODY_TIMEOUT: 'response body stalled',
  };
  const detail = timeouts[code] ?? err.message ?? String(error);
  const reason = error instanceof undiciErrors.SocketError ? 'ECONNRESET' : code;
  return new TransportError({ reason, detail, notSent: NOT_SENT.has(code), cause: error });
}
