import { Agent } from 'undici';
import { toTransportError } from './errors';
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

  return {
    async request(req: TransportRequest): Promise<TransportResponse> {
      const signal = req.signal;
      // The deadline rides on undici's own timers: time to headers, then idle body time. The
      // pool's own settings serve when they already say the same (no per-request timers).
      const timeouts =
        req.timeoutMs && (req.timeoutMs !== headersTimeout || req.timeoutMs !== bodyTimeout) ? { headersTimeout: req.timeoutMs, bodyTimeout: req.timeoutMs } : {};
      const { origin, path } = splitUrl(req.url);
      // One await per step and no promise chain of our own: this runs once per API call.
      let response: TransportResponse | undefined;
      let tooLarge = 0;
      try {
        const res = await agent.request({ origin, path, method: req.method, headers: req.headers, body: req.body, signal, ...timeouts });
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > maxBytes) {
          res.body.destroy();
          tooLarge = declared;
        } else {
          const body = Buffer.from(await res.body.arrayBuffer());
          if (body.length > maxBytes) tooLarge = body.length;
          else response = { status: res.statusCode, headers: res.headers as TransportResponse['headers'], body };
        }
      } catch (error) {
        throw toTransportError(error, signal);
      }
      if (response === undefined) throw new TransportError({ reason: 'TOO_LARGE', detail: `response body of ${tooLarge} bytes is over the ${maxBytes}-byte limit` });
      return response;
    },
    async close() {
      await agent.close();
    },
  };
}

/** Origin and path of an absolute URL (no full URL parse on the hot path; odd URLs take the slow one). */
function splitUrl(url: string): { origin: string; path: string } {
  const match = /^(https?:\/\/[^/?#]+)([^#]*)/i.exec(url);
  if (match) return { origin: match[1], path: match[2] === '' ? '/' : match[2] };
  const parsed = new URL(url);
  return { origin: parsed.origin, path: parsed.pathname + parsed.search };
}

export { toTransportError } from './errors';
