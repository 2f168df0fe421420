import { API_PREFIX } from '../../shared/spec';
import {
	startSimulator,
	type AssetSummary,
	type Simulator,
	type SimulatorOptions,
} from '../../simulator';

/**
 * A JSON value the tests take apart and assert field by field: the payload shapes are what the
 * tests check, so they are not typed ahead of the assertions.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A client for tests: real HTTP against an in-process simulator, with no code of shared/. */
export interface Answer {
	status: number;
	headers: Headers;
	body: { payload: Json; message: string | null; success: boolean; code: number };
}

export interface Harness {
	sim: Simulator;
	/** A fresh token of the organization, straight from the token endpoint. */
	token(orgId: number): Promise<string>;
	/** Calls the API as the organization (token cached per organization). */
	api(orgId: number, method: string, path: string, body?: unknown): Promise<Answer>;
	/** The first asset matching the filter, or a failing assertion naming it. */
	asset(filter: (a: AssetSummary) => boolean, what: string): AssetSummary;
	orgOfType(type: 'VENDOR' | 'CP' | 'EU', index?: number): number;
	close(): Promise<void>;
}

export function tokenForm(
	sim: Simulator,
	orgId: number,
	overrides: Record<string, string | undefined> = {},
): URLSearchParams {
	const credential = sim.info.credentials.find((c) => c.orgId === orgId);
	if (!credential) throw new Error(`no credential for organization ${orgId}`);
	const fields: Record<string, string | undefined> = {
		grant_type: 'client_credentials',
		client_id: credential.apiKey,
		client_secret: credential.apiSecret,
		Type: 'oauth2',
		scope: `${sim.info.apiScopeId}/.default`,
		...overrides,
	};
	return new URLSearchParams(
		Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined),
	);
}

export async function requestToken(
	sim: Simulator,
	form: URLSearchParams,
	tenantId = sim.info.tenantId,
): Promise<{ status: number; body: Json }> {
	const res = await fetch(`${sim.info.authUrl}/${tenantId}/oauth2/v2.0/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: form,
	});
	return { status: res.status, body: await res.json() };
}

export async function callApi(
	sim: Simulator,
	token: string | undefined,
	method: string,
	path: string,
	body?: unknown,
): Promise<Answer> {
	const headers: Record<string, string> = { accept: 'application/json' };
	if (token !== undefined) headers.authorization = `Bearer ${token}`;
	if (body !== undefined) headers['content-type'] = 'application/json';
	const res = await fetch(`${sim.info.baseUrl}${API_PREFIX}${path}`, {
		method,
		headers,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
}

export async function startHarness(options: SimulatorOptions = {}): Promise<Harness> {
	const sim = await startSimulator({ push: false, ...options });
	const tokens = new Map<number, string>();
	const token = async (orgId: number): Promise<string> => {
		const answer = await requestToken(sim, tokenForm(sim, orgId));
		if (answer.status !== 200) throw new Error(`token refused: ${JSON.stringify(answer.body)}`);
		return answer.body.access_token as string;
	};
	return {
		sim,
		token,
		async api(orgId, method, path, body) {
			if (!tokens.has(orgId)) tokens.set(orgId, await token(orgId));
			const answer = await callApi(sim, tokens.get(orgId), method, path, body);
			if (answer.status !== 401) return answer;
			// Tests jump the clock past token lifetimes; fetch a new token once, as a client would.
			tokens.set(orgId, await token(orgId));
			return callApi(sim, tokens.get(orgId), method, path, body);
		},
		asset(filter, what) {
			const found = sim.fleet.assets().find(filter);
			if (!found) throw new Error(`the seeded fleet has no ${what}`);
			return found;
		},
		orgOfType(type, index = 0) {
			const org = sim.fleet.orgs().filter((o) => o.orgType === type)[index];
			if (!org) throw new Error(`the seeded fleet has no ${type} number ${index}`);
			return org.id;
		},
		close: () => sim.close(),
	};
}

/** Asserts a refusal: HTTP status per assumption A3 and the envelope's code. */
export function expectRefusal(answer: Answer, code: number): void {
	expect({ code: answer.body.code, success: answer.body.success }).toEqual({
		code,
		success: false,
	});
	const tail = code % 1000;
	expect(answer.status).toBe(tail === 401 || tail === 403 ? 403 : 400);
	expect(answer.body.payload).toBeNull();
}

export function expectSuccess(answer: Answer): Json {
	expect({
		status: answer.status,
		code: answer.body.code,
		message: answer.body.success ? 'ok' : answer.body.message,
	}).toEqual({ status: 200, code: 100200, message: 'ok' });
	return answer.body.payload;
}

export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
export const DAY = 86_400_000;
export const HOUR = 3_600_000;
