import { budgetedTransport, RequestBudget } from '../../bot/platform/budget';
import { createPlatformClient } from '../../bot/platform/client';
import { createUndiciTransport } from '../../shared/runtime/node';
import { startSimulator, type Simulator } from '../../simulator';
import { capturingLogger } from './helpers';
import { credentialsOf } from './harness';

// The request budget (B46): one budget for polling and commands, commands first, 429 slows it.
test('commands waiting for the budget go before polling that waited longer', async () => {
	const budget = new RequestBudget(5); // one request per 200 ms, a burst of one
	const order: string[] = [];
	const take = (who: string, priority: 'command' | 'poll') =>
		budget.acquire(priority).then((release) => {
			order.push(who);
			release({ latencyMs: 1 });
		});
	const first = take('poll 1', 'poll');
	const waiting = [take('poll 2', 'poll'), take('poll 3', 'poll'), take('command', 'command')];
	expect(budget.status().waiting).toEqual({ command: 1, poll: 2 });
	await Promise.all([first, ...waiting]);
	expect(order).toEqual(['poll 1', 'command', 'poll 2', 'poll 3']);
	budget.close();
});

test('requests in flight follow the latency, within the maximum', () => {
	const budget = new RequestBudget(100, { maxConcurrency: 12 });
	const concurrencyAt = async (latencyMs: number) => {
		for (let i = 0; i < 30; i++) (await budget.acquire('poll'))({ latencyMs });
		return budget.concurrency();
	};
	return (async () => {
		const fast = await concurrencyAt(5);
		const slow = await concurrencyAt(400);
		expect(fast).toBeLessThan(slow);
		expect(slow).toBe(12);
		budget.close();
	})();
});

test('a close rejects what still waits', async () => {
	const budget = new RequestBudget(1);
	(await budget.acquire('poll'))({ latencyMs: 1 });
	const waiting = budget.acquire('poll');
	budget.close();
	await expect(waiting).rejects.toThrow('stopping');
});

describe('against the simulator', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({ push: false });
	});
	afterAll(() => sim.close());

	test("the platform's 429 lowers the budget, and every attempt is counted", async () => {
		const { logger } = capturingLogger();
		const slowed: number[] = [];
		const budget = new RequestBudget(40, { onSlowDown: (perSecond) => slowed.push(perSecond) });
		const client = createPlatformClient(credentialsOf(sim, 'VENDOR'), logger, {
			budget: { budget, priority: 'poll' },
		});
		const asset = sim.fleet.assets().find((a) => a.assetType === 'Drive' && a.level !== 'expired')!;
		sim.faults.set({
			rateLimitRate: 1,
			retryAfterSec: 0,
			times: 2,
			paths: ['/assetmanagement/asset/'],
		});
		const detail = await client.assets.get({ id: asset.id });
		expect(detail.id).toBe(asset.id);
		const status = budget.status();
		expect(status.rateLimited).toBe(2);
		expect(slowed).toEqual([20]); // two 429s of one burst halve it once
		expect(status.currentPerSecond).toBeLessThan(40);
		// The token request, the two refused attempts and the answered one all spent from the budget.
		expect(status.sent.poll).toBe(sim.requests.count);
		await client.close();
		budget.close();
	});

	test('a budgeted transport passes answers and failures through unchanged', async () => {
		const budget = new RequestBudget(100);
		const transport = budgetedTransport(createUndiciTransport(), budget, 'command');
		const answer = await transport.request({
			method: 'GET',
			url: `${sim.info.baseUrl}/devcenter/extapi/v1/organization`,
			headers: {},
		});
		expect(answer.status).toBe(401);
		await expect(
			transport.request({
				method: 'GET',
				url: 'http://127.0.0.1:1/',
				headers: {},
				timeoutMs: 2000,
			}),
		).rejects.toThrow();
		expect(budget.status()).toMatchObject({ inFlight: 0, sent: { command: 2, poll: 0 } });
		await transport.close?.();
		budget.close();
	});
});
