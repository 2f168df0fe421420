import { callApi, expectRefusal, expectSuccess, requestToken, startHarness, tokenForm, type Harness } from './harness';

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
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toMatchObject({ aud: h.sim.info.apiScopeId, tid: h.sim.info.tenantId });
    expect(signature.length).toBeGreaterThan(20);
  });

  test('wrong secret is refused 401 invalid_client AADSTS7000215', async () => {
    const { status, body } = await requestToken(h.sim, tokenForm(h.sim, eu, { client_secret: 'not-the-secret' }));
    expect(status).toBe(401);
    expect(body).toMatchObject({ error: 'invalid_client', error_codes: [7000215] });
    expect(body.error_description).toMatch(/^AADSTS7000215: Invalid client secret/);
    expect(body.trace_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('missing secret is refused 401 invalid_client AADSTS7000218', async () => {
    const { status, body } = await requestToken(h.sim, tokenForm(h.sim, eu, { client_secret: undefined }));
    expect(status).toBe(401);
    expect(body).toMatchObject({ error: 'invalid_client', error_codes: [7000218] });
  });

  test('unknown client id is refused 400 unauthorized_client AADSTS700016', async () => {
    const { status, body } = await requestToken(h.sim, tokenForm(h.sim, eu, { client_id: '00000000-0000-4000-a000-000000000000' }));
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'unauthorized_client', error_codes: [700016] });
  });

  test('wrong tenant is refused 400 invalid_request AADSTS90002', async () => {
    const { status, body } = await requestToken(h.sim, tokenForm(h.sim, eu), 'contoso-tenant');
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'invalid_request', error_codes: [90002] });
  });

  test('scope without /.default is refused 400 invalid_scope AADSTS1002012', async () => {
    const { status, body } = await requestToken(h.sim, tokenForm(h.sim, eu, { scope: h.sim.info.apiScopeId }));
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'invalid_scope', error_codes: [1002012] });
  });

  test('scope of another resource is refused 400 invalid_resource AADSTS500011', async () => {
    const { status, body } = await requestToken(h.sim, tokenForm(h.sim, eu, { scope: 'api://other-app/.default' }));
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'invalid_resource', error_codes: [500011] });
  });

  test('another grant type is refused 400 unsupported_grant_type AADSTS70003', async () => {
    const { status, body } = await requestToken(h.sim, tokenForm(h.sim, eu, { grant_type: 'password' }));
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'unsupported_grant_type', error_codes: [70003] });
  });

  test('missing grant_type is refused 400 invalid_request AADSTS900144', async () => {
    const { status, body } = await requestToken(h.sim, tokenForm(h.sim, eu, { grant_type: undefined }));
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'invalid_request', error_codes: [900144] });
  });

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
    expect401(await callApi(h.sim, `${header}.${edited}.${signature}`, 'GET', '/organization'), /signature/);
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
