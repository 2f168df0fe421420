import {
	callApi,
	expectRefusal,
	expectSuccess,
	requestToken,
	startHarness,
	tokenForm,
	type Harness,
} from './harness';

let h: Harness;
let eu: number;

beforeAll(async () => {
	h = await startHarness();
	eu = h.orgOfType('EU');
});
afterAll(() => h.close());
afterEach(() => h.sim.faults.clear());

describe('token endpoint (Entra-style client credentials)', () => {
	test('issues a signed Bearer JWT with expires_in about one hour and ext_expires_in', async () => {
		const { status, body } = await requestToken(h.sim, tokenForm(h.sim, eu));
		expect(status).toBe(200);
		expect(body.token_type).toBe('Bearer');
		expect(body.expires_in).toBeGreaterThanOrEqual(3500);
		expect(body.expires_in).toBeLessThanOrEqual(3600);
		expect(typeof body.ext_expires_in).toBe('number');
		const [header, payload, signature] = String(body.access_token).split('.');
		expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({
			alg: 'HS256',
			typ: 'JWT',
		});
		expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toMatchObject({
			aud: h.sim.info.apiScopeId,
			tid: h.sim.info.tenantId,
		});
		expect(signature.length).toBeGreaterThan(20);
	});

	test.each([
		[
			'wrong secret',
			{ client_secret: 'not-the-secret' },
			undefined,
			401,
			'invalid_client',
			7000215,
		],
		['missing secret', { client_secret: undefined }, undefined, 401, 'invalid_client', 7000218],
		[
			'unknown client id',
			{ client_id: '00000000-0000-4000-a000-000000000000' },
			undefined,
			400,
			'unauthorized_client',
			700016,
		],
		['wrong tenant', {}, 'contoso-tenant', 400, 'invalid_request', 90002],
		['scope without /.default', { scope: 'SCOPE' }, undefined, 400, 'invalid_scope', 1002012],
		[
			'scope of another resource',
			{ scope: 'api://other-app/.default' },
			undefined,
			400,
			'invalid_resource',
			500011,
		],
		[
			'another grant type',
			{ grant_type: 'password' },
			undefined,
			400,
			'unsupported_grant_type',
			70003,
		],
		['missing grant_type', { grant_type: undefined }, undefined, 400, 'invalid_request', 900144],
	] as const)(
		'%s is refused as Entra does',
		async (_rule, overrides, tenant, status, error, aadsts) => {
			const fields = Object.fromEntries(
				Object.entries(overrides).map(([k, v]) => [k, v === 'SCOPE' ? h.sim.info.apiScopeId : v]),
			);
			const answer = await requestToken(h.sim, tokenForm(h.sim, eu, fields), tenant);
			expect(answer.status).toBe(status);
			expect(answer.body).toMatchObject({
				error,
				error_codes: [aadsts],
				trace_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			});
			expect(answer.body.error_description).toMatch(new RegExp(`^AADSTS${aadsts}: `));
			expect(answer.body.access_token).toBeUndefined();
		},
	);

	test('a JSON body instead of the form is refused (the form is required)', async () => {
		const res = await fetch(`${h.sim.info.authUrl}/${h.sim.info.tenantId}/oauth2/v2.0/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(Object.fromEntries(tokenForm(h.sim, eu))),
		});
		expect(res.status).toBe(400);
		expect(((await res.json()) as { error_codes: number[] }).error_codes).toEqual([900144]);
	});
});

describe('bearer check on every API path (assumption A4)', () => {
	const expect401 = (answer: Awaited<ReturnType<typeof callApi>>, reason: RegExp): void => {
		expect(answer.status).toBe(401);
		expect(answer.body).toMatchObject({ payload: null, success: false, code: 100401 });
		expect(answer.body.message).toMatch(reason);
		expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
	};

	test.each([
		['GET', '/organization'],
		['GET', '/organization/nodes'],
		['POST', '/subscription/bind'],
		['GET', '/assetdata/100001/event'],
		['DELETE', '/subassetdata/subcustomer/00000000-0000-4000-8000-000000000000'],
		['GET', '/no/such/endpoint'],
	])('missing token: %s %s answers 401', async (method, path) => {
		expect401(await callApi(h.sim, undefined, method, path), /missing bearer token/);
	});

	test('forged token (signature changed) answers 401', async () => {
		const token = await h.token(eu);
		const forged = `${token.slice(0, token.lastIndexOf('.'))}.${Buffer.from('forged').toString('base64url')}`;
		expect401(await callApi(h.sim, forged, 'GET', '/organization'), /signature/);
	});

	test('token with edited claims (another organization) answers 401', async () => {
		const [header, payload, signature] = (await h.token(eu)).split('.');
		const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
		const edited = Buffer.from(JSON.stringify({ ...claims, org_id: 1 })).toString('base64url');
		expect401(
			await callApi(h.sim, `${header}.${edited}.${signature}`, 'GET', '/organization'),
			/signature/,
		);
	});

	test('expired token answers 401 once its lifetime has passed on the clock', async () => {
		const token = await h.token(eu);
		expectSuccess(await callApi(h.sim, token, 'GET', '/organization'));
		h.sim.clock.advance(3600 * 1000);
		expect401(await callApi(h.sim, token, 'GET', '/organization'), /expired/);
	});

	test('short token lifetime fault issues tokens that expire after that many seconds', async () => {
		h.sim.faults.set({ tokenLifetimeSec: 2 });
		const { body } = await requestToken(h.sim, tokenForm(h.sim, eu));
		expect(body.expires_in).toBe(2);
		expectSuccess(await callApi(h.sim, body.access_token, 'GET', '/organization'));
		h.sim.clock.advance(2000);
		expect401(await callApi(h.sim, body.access_token, 'GET', '/organization'), /expired/);
	});

	test('API access disabled by the operator answers 100403 with a valid token', async () => {
		const token = await h.token(eu);
		h.sim.control.setApiAccess(eu, false);
		try {
			expectRefusal(await callApi(h.sim, token, 'GET', '/organization'), 100403);
		} finally {
			h.sim.control.setApiAccess(eu, true);
		}
		expectSuccess(await callApi(h.sim, token, 'GET', '/organization'));
	});
});
