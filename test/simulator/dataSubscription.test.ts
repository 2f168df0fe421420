import { expectRefusal, expectSuccess, startHarness, type Harness } from './harness';

let h: Harness;
let euA: number;
let euB: number;

beforeAll(async () => {
	h = await startHarness();
	[euA, euB] = h.sim.fleet
		.orgs()
		.filter((o) => o.orgType === 'EU')
		.map((o) => o.id);
});
afterAll(() => h.close());

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('E26 to E30 data-subscription user', () => {
	test('full life cycle: create (clear password), get (masked, A8), subscribe types, reset (new clear password), delete', async () => {
		const changes: string[] = [];
		const off = h.sim.bus.on('subscriber.changed', (e) => changes.push(`${e.orgId}:${e.change}`));
		expect(expectSuccess(await h.api(euA, 'GET', '/subassetdata/subcustomer'))).toEqual([]);

		const created = expectSuccess(await h.api(euA, 'POST', '/subassetdata/subcustomer'));
		expect(created).toMatchObject({
			id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			userName: expect.any(String),
			subDataTypes: [],
			createdOn: expect.stringMatching(/Z$/),
		});
		expect(created.password).not.toBe('********');
		expect(created.password.length).toBeGreaterThanOrEqual(16);

		const listed = expectSuccess(await h.api(euA, 'GET', '/subassetdata/subcustomer'));
		expect(listed).toEqual([{ ...created, password: '********' }]);

		const subscribed = expectSuccess(
			await h.api(euA, 'POST', `/subassetdata/subcustomer/${created.id}/sub`, {
				TopicName: 'plant-alerts',
				SubDataTypes: [1, 3],
			}),
		);
		expect(subscribed).toEqual({
			id: created.id,
			userName: created.userName,
			subDataTypes: ['AssetEvent', 'AssetReport'],
			topic: 'plant-alerts',
			createdOn: created.createdOn,
		});

		const reset = expectSuccess(
			await h.api(euA, 'POST', `/subassetdata/subcustomer/${created.id}/reset`),
		);
		expect(reset).toMatchObject({
			id: created.id,
			userName: created.userName,
			topic: 'plant-alerts',
		});
		expect(reset.password).not.toBe(created.password);
		expect(reset.password).not.toBe('********');
		expect(expectSuccess(await h.api(euA, 'GET', '/subassetdata/subcustomer'))[0].password).toBe(
			'********',
		);

		expect(
			expectSuccess(await h.api(euA, 'DELETE', `/subassetdata/subcustomer/${created.id}`)),
		).toEqual({});
		expect(expectSuccess(await h.api(euA, 'GET', '/subassetdata/subcustomer'))).toEqual([]);
		off();
		expect(changes).toEqual([`${euA}:created`, `${euA}:types`, `${euA}:reset`, `${euA}:deleted`]);
	});

	test('subscriber.changed names the user and never carries the password', async () => {
		const seen: unknown[] = [];
		const off = h.sim.bus.on('subscriber.changed', (e) => seen.push(e));
		const created = expectSuccess(await h.api(euB, 'POST', '/subassetdata/subcustomer'));
		const reset = expectSuccess(
			await h.api(euB, 'POST', `/subassetdata/subcustomer/${created.id}/reset`),
		);
		expectSuccess(await h.api(euB, 'DELETE', `/subassetdata/subcustomer/${created.id}`));
		off();
		expect(seen).toEqual([
			{ orgId: euB, userName: created.userName, change: 'created' },
			{ orgId: euB, userName: created.userName, change: 'reset' },
			{ orgId: euB, userName: created.userName, change: 'deleted' },
		]);
		expect(JSON.stringify(seen)).not.toContain(created.password);
		expect(JSON.stringify(seen)).not.toContain(reset.password);
	});

	test('one user per organization: a second create gives 100403', async () => {
		const first = expectSuccess(await h.api(euA, 'POST', '/subassetdata/subcustomer'));
		const second = await h.api(euA, 'POST', '/subassetdata/subcustomer');
		expectRefusal(second, 100403);
		expect(second.body.message).toMatch(/already has its one data-subscription user/);
		expectSuccess(await h.api(euA, 'DELETE', `/subassetdata/subcustomer/${first.id}`));
	});

	test('E28 ignores unknown type numbers and still succeeds; replaces the types', async () => {
		const user = expectSuccess(await h.api(euA, 'POST', '/subassetdata/subcustomer'));
		expect(
			expectSuccess(
				await h.api(euA, 'POST', `/subassetdata/subcustomer/${user.id}/sub`, {
					TopicName: 't',
					SubDataTypes: [4, 9, 2, 0, 2],
				}),
			).subDataTypes,
		).toEqual(['AssetState', 'AssetCBM']);
		expect(
			expectSuccess(
				await h.api(euA, 'POST', `/subassetdata/subcustomer/${user.id}/sub`, {
					TopicName: 't',
					SubDataTypes: [1],
				}),
			).subDataTypes,
		).toEqual(['AssetEvent']);
		expectRefusal(
			await h.api(euA, 'POST', `/subassetdata/subcustomer/${user.id}/sub`, {
				TopicName: 't',
				SubDataTypes: ['all'],
			}),
			100400,
		);
		expectRefusal(
			await h.api(euA, 'POST', `/subassetdata/subcustomer/${user.id}/sub`, {
				TopicName: '',
				SubDataTypes: [1],
			}),
			100400,
		);
		expectSuccess(await h.api(euA, 'DELETE', `/subassetdata/subcustomer/${user.id}`));
	});

	test('unknown user gives 106201 on E28, E29 and E30', async () => {
		expectRefusal(
			await h.api(euA, 'POST', `/subassetdata/subcustomer/${MISSING}/sub`, {
				TopicName: 't',
				SubDataTypes: [1],
			}),
			106201,
		);
		expectRefusal(await h.api(euA, 'DELETE', `/subassetdata/subcustomer/${MISSING}`), 106201);
		expectRefusal(await h.api(euA, 'POST', `/subassetdata/subcustomer/${MISSING}/reset`), 106201);
	});

	test("another organization's user gives 100403", async () => {
		const user = expectSuccess(await h.api(euB, 'POST', '/subassetdata/subcustomer'));
		expectRefusal(await h.api(euA, 'POST', `/subassetdata/subcustomer/${user.id}/reset`), 100403);
		expectRefusal(await h.api(euA, 'DELETE', `/subassetdata/subcustomer/${user.id}`), 100403);
		expectSuccess(await h.api(euB, 'DELETE', `/subassetdata/subcustomer/${user.id}`));
	});
});
