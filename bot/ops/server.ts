/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The bot's operations endpoints, on their own port in every mode (Socket Mode, HTTP mode,
// terminal): GET /healthz (the process is alive), GET /readyz (platform token, Slack auth and the
// alert source all working: 200, else 503, with each check as JSON), GET /metrics (Prometheus).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectProcessMetrics, registry } from './metrics';
import type { Readiness } from './readiness';

export interface OpsSettings {
	port: number;
	host: string;
}

/**
 * DRIVE_BOT_OPS_PORT (0 = a free port, printed in the log) and DRIVE_BOT_OPS_HOST (default
 * 0.0.0.0, so a supervisor or Prometheus on another host reaches it). Unset port: no server.
 */
export function opsSettingsFromEnv(env: NodeJS.ProcessEnv): OpsSettings | undefined {
	const raw = env.DRIVE_BOT_OPS_PORT?.trim();
	if (raw === undefined || raw === '') return undefined;
	const port = Number(raw);
	if (!Number.isInteger(port) || port < 0 || port > 65535) {
		throw new Error(
			`DRIVE_BOT_OPS_PORT "${raw}" is not a port: give a whole number from 0 to 65535 (0 picks a free one)`,
		);
	}
	return { port, host: env.DRIVE_BOT_OPS_HOST?.trim() || '0.0.0.0' };
}

export interface OpsServer {
	url: string;
	close(): Promise<void>;
}

export async function startOpsServer(
	settings: OpsSettings,
	readiness: Readiness,
): Promise<OpsServer> {
	collectProcessMetrics();
	const server = http.createServer((request, response) => {
		void answer(request, response, readiness).catch((error: unknown) => {
			if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
			response.end(`${error instanceof Error ? error.message : String(error)}\n`);
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(settings.port, settings.host, () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	const host = settings.host === '0.0.0.0' ? '127.0.0.1' : settings.host;
	return {
		url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

async function answer(
	request: http.IncomingMessage,
	response: http.ServerResponse,
	readiness: Readiness,
): Promise<void> {
	const path = (request.url ?? '/').split('?')[0];
	if (request.method !== 'GET' && request.method !== 'HEAD') {
		response.writeHead(405, { allow: 'GET, HEAD' }).end();
		return;
	}
	if (path === '/healthz') {
		response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}\n');
	} else if (path === '/readyz') {
		const report = await readiness.evaluate();
		response
			.writeHead(report.ready ? 200 : 503, { 'content-type': 'application/json' })
			.end(`${JSON.stringify(report)}\n`);
	} else if (path === '/metrics') {
		const text = await registry.metrics();
		response.writeHead(200, { 'content-type': registry.contentType }).end(text);
	} else {
		response
			.writeHead(404, { 'content-type': 'text/plain' })
			.end('not found: try /healthz, /readyz or /metrics\n');
	}
}
