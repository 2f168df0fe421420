// The Drive Monitoring API credential: the Test button (pass, and each way it can fail, in words
// that name the field to fix) and the token step inside a real execution.
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { credentialData, startFixture, type Fixture } from './fixture';

let f: Fixture;
let eu: { orgId: number; orgName: string; apiKey: string; apiSecret: string };
beforeAll(async () => {
	f = await startFixture();
	eu = f.sim.info.credentials.find((c) => c.orgId === f.euOrgId)!;
});
afterAll(async () => await f.close());

const test_ = async (data: ICredentialDataDecryptedObject) =>
	await f.engine.testCredential('driveMonitoringApi', data);

test('the credential test obtains a fresh token and calls E1 with it', async () => {
	f.sim.requests.clear();
	// Even with a token stored from before, the test asks for a new one (n8n's rule for tests).
	const data = {
		...credentialData(f.sim, eu.apiKey, eu.apiSecret),
		accessToken: 'stored.before.edit',
	};
	expect(await test_(data)).toEqual({ status: 'OK', message: 'Connection successful!' });
	expect(f.sim.requests.entries.map((r) => [r.endpoint, r.status])).toEqual([
		['token', 200],
		['E1', 200],
	]);
});

describe('a failing credential test says which part is wrong', () => {
	const cases: Array<
		[string, (d: ICredentialDataDecryptedObject) => ICredentialDataDecryptedObject, RegExp]
	> = [
		[
			'missing fields',
			(d) => ({ ...d, apiSecret: '', tenantId: ' ' }),
			/^Fill in Tenant ID, API Secret\.$/,
		],
		[
			'a base URL that is not an address',
			(d) => ({ ...d, baseUrl: 'api.example.com' }),
			/Base URL "api.example.com" is not an http\(s\) address/,
		],
		[
			'an unreachable auth host',
			(d) => ({ ...d, authUrl: 'http://127.0.0.1:9' }),
			/^Cannot reach the auth server at http:\/\/127\.0\.0\.1:9\/[^:]+: the connection was refused\. Check the Auth URL/,
		],
		['a refused API secret', (d) => ({ ...d, apiSecret: 'not-the-secret' }), /secret/i],
		['an unknown API key', (d) => ({ ...d, apiKey: 'unknown-key' }), /API key/i],
		[
			'a wrong tenant',
			(d) => ({ ...d, tenantId: 'other-tenant' }),
			/tenant id "other-tenant" was refused; check the Tenant ID/,
		],
		[
			'a wrong scope',
			(d) => ({ ...d, apiScopeId: 'api://someone-else' }),
			/scope "api:\/\/someone-else\/.default" was refused; check the API Scope ID/,
		],
		// n8n reports a network failure of the test request by its code.
		['an unreachable API host', (d) => ({ ...d, baseUrl: 'http://127.0.0.1:9' }), /^ECONNREFUSED$/],
		[
			'a base URL of another service',
			(d) => ({ ...d, baseUrl: `${d.baseUrl as string}/elsewhere` }),
			/Base URL does not lead to the Drive Monitoring Open API/,
		],
	];
	test.each(cases)('%s', async (_what, change, message) => {
		const result = await test_(change(credentialData(f.sim, eu.apiKey, eu.apiSecret)));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(message);
		expect(result.message).not.toContain(eu.apiSecret);
	});

	test('API access switched off for the organization', async () => {
		f.sim.control.setApiAccess(eu.orgId, false);
		try {
			const result = await test_(credentialData(f.sim, eu.apiKey, eu.apiSecret));
			expect(result).toEqual({
				status: 'Error',
				message: expect.stringMatching(
					/operation forbidden\)\. API access may not be enabled for this organization/,
				),
			});
		} finally {
			f.sim.control.setApiAccess(eu.orgId, true);
		}
	});
});

test('in a workflow, refused credentials fail the node with the reason from the token step', async () => {
	f.engine.addCredential({
		id: 'wrong-secret',
		name: 'wrong secret',
		type: 'driveMonitoringApi',
		data: credentialData(f.sim, eu.apiKey, 'not-the-secret'),
	});
	const workflow = f.engine.readWorkflow('single-operation.json');
	workflow.nodes[1].credentials = {
		driveMonitoringApi: { id: 'wrong-secret', name: 'wrong secret' },
	};
	f.sim.requests.clear();
	const result = await f.engine.run(workflow, { input: [{ json: { assetId: 100029 } }] });
	const error = result.nodeError('Drive Monitoring');
	expect(error?.name).toBe('NodeApiError');
	expect(error?.message).toMatch(/^Authentication failed: .*secret/i);
	// Only the token endpoint was asked; no API request went out without a token.
	expect(f.sim.requests.api()).toEqual([]);
	expect(f.sim.requests.entries.every((r) => r.endpoint === 'token')).toBe(true);
});

test('one token serves a whole execution: preAuthentication runs once for many requests', async () => {
	f.engine.addCredential({
		id: 'fresh',
		name: 'fresh',
		type: 'driveMonitoringApi',
		data: credentialData(f.sim, eu.apiKey, eu.apiSecret),
	});
	const workflow = f.engine.readWorkflow('single-operation.json');
	workflow.nodes[1].credentials = { driveMonitoringApi: { id: 'fresh', name: 'fresh' } };
	f.sim.requests.clear();
	const result = await f.engine.run(workflow, {
		input: [1, 2, 3, 4, 5].map(() => ({ json: { assetId: 100029 } })),
	});
	expect(result.output('Drive Monitoring')).toHaveLength(5);
	expect(f.engine.credentialsHelper.preAuthenticationCalls.get('fresh')).toBe(1);
	expect(f.sim.requests.entries.filter((r) => r.endpoint === 'token')).toHaveLength(1);
	// The token is kept (encrypted by n8n) in the credential's hidden field.
	expect(f.engine.credentialsHelper.stored('fresh')!.data.accessToken).toEqual(
		expect.stringMatching(/^ey/),
	);
});

test('refused credentials under Continue On Fail: every item gets the reason, the token is not asked again per item', async () => {
	f.engine.addCredential({
		id: 'refused',
		name: 'refused',
		type: 'driveMonitoringApi',
		data: credentialData(f.sim, 'unknown-key', eu.apiSecret),
	});
	const workflow = f.engine.readWorkflow('continue-on-fail.json');
	workflow.nodes[1].credentials = { driveMonitoringApi: { id: 'refused', name: 'refused' } };
	f.sim.requests.clear();
	const result = await f.engine.run(workflow, {
		input: [100029, 100035, 100049, 100056, 100060].map((assetId) => ({ json: { assetId } })),
	});
	const items = result.output('Drive Monitoring')!;
	expect(items.map((i) => (i.pairedItem as { item: number }).item)).toEqual([0, 1, 2, 3, 4]);
	for (const item of items) {
		expect(item.json.error).toMatch(/^Authentication failed: the API key/);
		expect((item.json.details as { description: string }).description).toMatch(/Test button/);
	}
	// Only the first item asked for a token (the core retries a failed exchange a few times).
	const tokenRequests = f.sim.requests.entries.filter((r) => r.endpoint === 'token').length;
	expect(tokenRequests).toBeGreaterThan(0);
	expect(tokenRequests).toBeLessThanOrEqual(4);
	expect(f.sim.requests.api()).toEqual([]);
});
