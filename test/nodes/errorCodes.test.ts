// Every failure code walked through the node inside n8n-core's engine: the first line says what
// went wrong (no endpoint number, no code), the description is the core's hint, and the code,
// the class and the platform's own words are in the details.
import { N8nTestEngine } from '../helpers/n8n/engine';
import {
	CODE_SERVER_CREDENTIALS,
	ENDPOINT_NUMBER,
	EXPECTED_CLASS,
	expectedHint,
	FAILURE_CODES,
	startCodeServer,
	type CodeServer,
} from '../shared/codeServer';

let server: CodeServer;
let engine: N8nTestEngine;

beforeAll(async () => {
	server = await startCodeServer();
	engine = new N8nTestEngine();
	engine.addCredential({
		id: 'walk',
		name: 'Stand-in platform',
		type: 'driveMonitoringApi',
		data: { ...CODE_SERVER_CREDENTIALS, baseUrl: server.baseUrl, authUrl: server.baseUrl },
	});
});
afterAll(async () => await server.close());

test.each(FAILURE_CODES)('%d', async (code) => {
	server.code = code;
	const workflow = engine.readWorkflow('single-operation.json');
	workflow.nodes[1].credentials = { driveMonitoringApi: { id: 'walk', name: 'Stand-in platform' } };
	const result = await engine.run(workflow, {
		input: [{ json: {} }],
		parameters: {
			'Drive Monitoring': {
				resource: 'health',
				operation: 'getConditions',
				asset: { __rl: true, mode: 'id', value: 100001 },
			},
		},
	});
	const error = result.nodeError('Drive Monitoring') as
		| (Error & { description?: string; errorResponse?: Record<string, unknown> })
		| undefined;
	expect(error?.name).toBe('NodeApiError');
	const details = error!.errorResponse!;
	expect(details).toMatchObject({
		code,
		name: EXPECTED_CLASS[code].name,
		kind: EXPECTED_CLASS[code].kind,
		endpoint: { id: 'E18' },
	});
	expect(error!.message).toBe(details.summary);
	expect(error!.description).toMatch(expectedHint(code));
	for (const text of [error!.message, error!.description!]) {
		expect(text).not.toMatch(ENDPOINT_NUMBER);
		expect(text).not.toContain(String(code));
	}
});
