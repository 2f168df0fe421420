import { API_PREFIX, ENDPOINTS, type EndpointId } from '../../shared/spec';
import { startHarness, type Harness } from './harness';

let h: Harness;
let eu: number;

beforeAll(async () => {
	h = await startHarness({ seed: 'robustness' });
	eu = h.orgOfType('EU');
});
afterAll(() => h.close());

// E26 and E30 take no body (the spec), so any body is ignored there.
const WRITES = (Object.keys(ENDPOINTS) as EndpointId[]).filter(
	(id) =>
		(ENDPOINTS[id].method === 'POST' || ENDPOINTS[id].method === 'PUT') &&
		id !== 'E26' &&
		id !== 'E30',
);
const BODIES: unknown[] = [
	{},
	[],
	'text',
	42,
	null,
	{
		assetId: 'x',
		assetIds: 'x',
		parameters: 'x',
		SubDataTypes: {},
		AssetReference: [],
		orgId: [],
		name: 5,
		id: {},
		deviceUnitType: 'Fan',
		startTime: 1,
		TopicName: 7,
	},
];

describe('malformed input never crashes the simulator', () => {
	test.each(WRITES)(
		'%s answers every wrong-typed body with an envelope refusal, never a 500',
		async (id) => {
			const asset = h.asset((a) => a.orgId === eu && a.assetType === 'Drive', 'drive');
			const path = ENDPOINTS[id].path.replace(/\{\w+\}/g, (m) =>
				m === '{subcustomerid}' ? '00000000-0000-4000-8000-000000000000' : String(asset.id),
			);
			for (const body of BODIES) {
				const answer = await h.api(eu, ENDPOINTS[id].method, path, body);
				expect({ body, status: answer.status, success: answer.body.success }).toEqual({
					body,
					status: expect.any(Number),
					success: false,
				});
				expect([400, 403]).toContain(answer.status);
			}
		},
	);

	test('path parameters that are not integers give 100400 on every GET with an id', async () => {
		const gets = (Object.keys(ENDPOINTS) as EndpointId[]).filter(
			(id) => ENDPOINTS[id].method === 'GET' && /\{(orgid|id|assetid)\}/.test(ENDPOINTS[id].path),
		);
		for (const id of gets) {
			const path = ENDPOINTS[id].path.replace(/\{\w+\}/g, 'not-a-number');
			const answer = await h.api(eu, 'GET', path);
			expect({ id, code: answer.body.code, status: answer.status }).toEqual({
				id,
				code: 100400,
				status: 400,
			});
		}
	});

	test('a body over 1 MiB is refused without crashing', async () => {
		const res = await fetch(`${h.sim.info.baseUrl}${API_PREFIX}/organization/assetgroup`, {
			method: 'POST',
			headers: { authorization: `Bearer ${await h.token(eu)}`, 'content-type': 'application/json' },
			body: JSON.stringify({ orgId: eu, name: 'x'.repeat(2 * 1024 * 1024) }),
		});
		expect(res.status).toBe(400);
		expect(((await res.json()) as { code: number }).code).toBe(100400);
	});
});
