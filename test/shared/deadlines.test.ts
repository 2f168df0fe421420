/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Per-call deadlines share one host timer per duration: each still fires at its own
// time, never before, a cancelled one never, and a lane with nothing waiting holds no timer.
import { setDeadline, type Arm } from '../../shared/timers/deadlines';
import { waitFor } from '../bot/helpers';

/** The host's timer, counting what is armed and still pending. */
function countingArm(): { arm: Arm; armed: () => number; pending: () => number } {
	let armed = 0;
	const live = new Set<NodeJS.Timeout>();
	const arm: Arm = (ms, fire) => {
		armed++;
		const timer = setTimeout(() => {
			live.delete(timer);
			fire();
		}, ms);
		live.add(timer);
		return () => {
			clearTimeout(timer);
			live.delete(timer);
		};
	};
	return { arm, armed: () => armed, pending: () => live.size };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('deadlines of one length fire in order, each at or after its own time, on far fewer host timers than deadlines; cancelled ones never fire', async () => {
	const host = countingArm();
	const MS = 150;
	const fired: Array<{ index: number; late: number }> = [];
	const cancels: Array<() => void> = [];
	for (let index = 0; index < 40; index++) {
		const setAt = performance.now();
		cancels.push(
			setDeadline(MS, () => fired.push({ index, late: performance.now() - setAt - MS }), host.arm),
		);
		if (index % 10 === 9) await sleep(10);
	}
	for (let index = 0; index < 40; index += 2) cancels[index]();
	await waitFor('the last deadline', () => fired.length === 20, 5_000);
	expect(fired.map((f) => f.index)).toEqual(Array.from({ length: 20 }, (_, i) => 2 * i + 1));
	// Never early (timers may be a fraction of a millisecond early, as the host's own are).
	expect(Math.min(...fired.map((f) => f.late))).toBeGreaterThanOrEqual(-1);
	expect(host.armed()).toBeLessThan(20);
	expect(host.pending()).toBe(0);
});

test('when the oldest deadline ends, a later one still fires at its own time, not at the time the timer was armed for', async () => {
	const host = countingArm();
	const MS = 300;
	const firedAt: number[] = [];
	const first = setDeadline(MS, () => firedAt.push(-1), host.arm);
	await sleep(150);
	const setAt = performance.now();
	setDeadline(MS, () => firedAt.push(performance.now() - setAt), host.arm);
	first();
	await waitFor('the later deadline', () => firedAt.length === 1, 5_000);
	expect(firedAt[0]).toBeGreaterThanOrEqual(MS - 1);
	expect(host.pending()).toBe(0);
});

test('a lane whose every deadline was cancelled holds no host timer, and one deadline that throws does not stop the next', async () => {
	const host = countingArm();
	const cancels = [
		setDeadline(200, () => undefined, host.arm),
		setDeadline(200, () => undefined, host.arm),
	];
	expect(host.pending()).toBe(1);
	cancels.forEach((cancel) => cancel());
	expect(host.pending()).toBe(0);

	let after = 0;
	setDeadline(
		50,
		() => {
			throw new Error('a deadline that fails');
		},
		host.arm,
	);
	setDeadline(50, () => after++, host.arm);
	await waitFor('the deadline after the failing one', () => after === 1, 5_000);
	expect(host.pending()).toBe(0);
});
