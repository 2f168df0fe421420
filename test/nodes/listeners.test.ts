// Many requests at once inside one execution (8 items, each over 60 days split into 7-day
// windows): n8n hands each request the execution's cancel signal, so its listeners must not pile
// up into a MaxListenersExceededWarning. test/helpers/no-process-warnings.ts fails this file on
// any process warning; the test also checks the answer, so it cannot pass by doing nothing.
import { startFixture, type Fixture } from './fixture';

let f: Fixture;
beforeAll(async () => {
	f = await startFixture();
});
afterAll(async () => await f.close());

test('Event > Get Many over 60 days for 8 items at once runs without a process warning', async () => {
	const drive = f.asset((a) => a.assetType === 'Drive' && a.level === 'Premium', 'Premium drive');
	const now = f.sim.clock.now();
	f.sim.faults.set({ paths: ['/event'], latencyMs: 30 });
	try {
		const result = await f.engine.run(f.engine.readWorkflow('single-operation.json'), {
			input: Array.from({ length: 8 }, () => ({ json: {} })),
			parameters: {
				'Drive Monitoring': {
					resource: 'event',
					operation: 'getMany',
					asset: { __rl: true, mode: 'id', value: drive.id },
					startTime: new Date(now - 60 * 86_400_000).toISOString(),
					endTime: new Date(now).toISOString(),
					returnAll: true,
					filters: {},
					options: {},
				},
			},
		});
		expect(result.nodeError('Drive Monitoring')).toBeUndefined();
		expect(f.sim.requests.api('E14').length).toBeGreaterThanOrEqual(8 * 9);
		expect(result.output('Drive Monitoring')!.length).toBeGreaterThan(0);
	} finally {
		f.sim.faults.clear();
	}
});
