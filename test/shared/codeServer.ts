/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// A stand-in platform over real HTTP that refuses every API call with one chosen code, in the
// spec's envelope and with the HTTP status of assumption A3 (HTTP 401 for 100401). It issues
// tokens like the token service and answers the subscription list (E9) with a Basic level, so a
// 102403 can name the level held. Used to walk every code through the core, the node and the bot.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, TokenCache, type DriveMonitoringClient } from '../../shared';
import { CODE_INFO } from '../../shared/errorCatalog';
import { ERROR_CODES, httpStatusOfCode, SUCCESS_CODE, UNAUTHORIZED_CODE } from '../../shared/spec';

/** Every failure code: the spec's table without success, plus our 401 code (assumption A4). */
export const FAILURE_CODES: number[] = [
	...Object.keys(ERROR_CODES)
		.map(Number)
		.filter((c) => c !== SUCCESS_CODE),
	UNAUTHORIZED_CODE,
];

/** The class of each code, written out here independently of the catalog. */
export const EXPECTED_CLASS: Record<number, { name: string; kind: string }> = {
	100400: { name: 'InvalidInputError', kind: 'invalidInput' },
	100403: { name: 'ForbiddenError', kind: 'forbidden' },
	101201: { name: 'NotFoundError', kind: 'notFound' },
	101202: { name: 'NotFoundError', kind: 'notFound' },
	101401: { name: 'ForbiddenError', kind: 'forbidden' },
	102201: { name: 'NotFoundError', kind: 'notFound' },
	102202: { name: 'InvalidInputError', kind: 'invalidInput' },
	102203: { name: 'ConflictError', kind: 'conflict' },
	102204: { name: 'NotFoundError', kind: 'notFound' },
	102205: { name: 'SubscriptionError', kind: 'subscription' },
	102401: { name: 'ForbiddenError', kind: 'forbidden' },
	102403: { name: 'LevelDeniedError', kind: 'subscription' },
	103201: { name: 'NotFoundError', kind: 'notFound' },
	103401: { name: 'ForbiddenError', kind: 'forbidden' },
	104201: { name: 'NotFoundError', kind: 'notFound' },
	104401: { name: 'ForbiddenError', kind: 'forbidden' },
	105201: { name: 'NotFoundError', kind: 'notFound' },
	105202: { name: 'SubscriptionError', kind: 'subscription' },
	105203: { name: 'SubscriptionError', kind: 'subscription' },
	105204: { name: 'ConflictError', kind: 'conflict' },
	105205: { name: 'SubscriptionError', kind: 'subscription' },
	106201: { name: 'NotFoundError', kind: 'notFound' },
	107201: { name: 'NotFoundError', kind: 'notFound' },
	100401: { name: 'AuthenticationError', kind: 'authentication' },
};

/** Endpoint numbers (E1 to E30) or the spec's endpoint names must not reach a person's text. */
export const ENDPOINT_NUMBER = /\bE\d{1,2}\b/;

/** The hint a code's error must carry: the catalog's, with the level explanation for 102403. */
export function expectedHint(code: number): string | RegExp {
	return code === 102403
		? /^At Basic the health conditions are Overall, Availability, Environment or Reliability; all five need Standard or Premium\. Bind a subscription code of a higher level/
		: CODE_INFO[code].hint;
}

export const CODE_SERVER_CREDENTIALS = {
	tenantId: 'tenant-walk',
	apiKey: 'walk-api-key',
	apiSecret: 'walk-api-secret-value',
	apiScopeId: 'api://walk',
};

export interface CodeServer {
	/** A core client of this server, closed with it. */
	client: DriveMonitoringClient;
	baseUrl: string;
	/** The code the next API calls are refused with. */
	code: number;
	/** API paths asked since the last clear. */
	paths: string[];
	close(): Promise<void>;
}

/** The token it issues: a JWT shape, built so that it reads as made up (it signs nothing). */
const ISSUED = [
	'eyJhbGciOiJub25lIn0',
	Buffer.from('{"sub":"walk"}').toString('base64url'),
	'unsigned',
].join('.');

function reply(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

export async function startCodeServer(): Promise<CodeServer> {
	const state = {
		baseUrl: '',
		code: 102201,
		paths: [],
		close: async () => undefined,
	} as unknown as CodeServer;
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		req.resume();
		req.on('end', () => {
			const path = req.url ?? '';
			if (path.includes('/oauth2/v2.0/token')) {
				reply(res, 200, {
					token_type: 'Bearer',
					expires_in: 3600,
					ext_expires_in: 3600,
					access_token: ISSUED,
				});
				return;
			}
			state.paths.push(`${req.method} ${path}`);
			if (req.method === 'GET' && /\/assetmanagement\/subscription\/\d+$/.test(path)) {
				reply(res, 200, {
					payload: [
						{
							id: 1,
							code: 'SUB-1',
							type: 'Official',
							level: 'Basic',
							status: 'Activated',
							activedDate: '2026-01-01T00:00:00Z',
							expiredDate: '2027-01-01T00:00:00Z',
							period: 12,
						},
					],
					message: null,
					success: true,
					code: SUCCESS_CODE,
				});
				return;
			}
			const meaning = (ERROR_CODES as Record<number, string>)[state.code] ?? 'no permission';
			reply(res, state.code === UNAUTHORIZED_CODE ? 401 : httpStatusOfCode(state.code), {
				payload: null,
				message: meaning,
				success: false,
				code: state.code,
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	state.client = createClient({
		...CODE_SERVER_CREDENTIALS,
		baseUrl: state.baseUrl,
		authUrl: state.baseUrl,
		tokenCache: new TokenCache(),
		retry: { baseDelayMs: 1, maxDelayMs: 5 },
	});
	state.close = async () => {
		await state.client.close();
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	};
	return state;
}
