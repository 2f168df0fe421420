// Per-call deadlines that share one timer per duration. Every API call has a deadline and nearly
// every call ends long before it; a host timer set and cleared per call (Node: a Timeout object and
// trips into the runtime to unref and clear it) costs more than the rest of the call's plumbing.
// Deadlines of one length expire in the order they were set, so each length keeps a list in that
// order and one timer, for its oldest entry.

/** Starts a host timer that calls `fire` after `ms` without keeping the process alive; returns its cancel. */
export type Arm = (ms: number, fire: () => void) => () => void;

interface Pending {
	at: number;
	fire: () => void;
	prev: Pending | undefined;
	next: Pending | undefined;
	lane: Lane | undefined;
}

interface Lane {
	ms: number;
	arm: Arm;
	head: Pending | undefined;
	tail: Pending | undefined;
	/** Cancels the armed timer; undefined when none is armed. */
	disarm: (() => void) | undefined;
}

const lanes = new Map<number, Lane>();

/**
 * Calls `fire` once `ms` have passed, unless the returned cancel is called first. `arm` (the
 * host's timer) is called once per lane and oldest deadline, not once per deadline.
 */
export function setDeadline(ms: number, fire: () => void, arm: Arm): () => void {
	let lane = lanes.get(ms);
	if (!lane || lane.arm !== arm) {
		// A host that installs other timers (a test's clock) gets lanes of its own.
		lane = { ms, arm, head: undefined, tail: undefined, disarm: undefined };
		lanes.set(ms, lane);
	}
	const entry: Pending = {
		at: performance.now() + ms,
		fire,
		prev: lane.tail,
		next: undefined,
		lane,
	};
	if (lane.tail) lane.tail.next = entry;
	else lane.head = entry;
	lane.tail = entry;
	if (!lane.disarm) armFor(lane);
	return () => cancel(entry);
}

function cancel(entry: Pending): void {
	const lane = entry.lane;
	if (!lane) return;
	unlink(lane, entry);
	// An empty lane stops its timer, so nothing of the core outlives its last call. A lane that
	// still has entries keeps it: it fires at its old head's time and re-arms for the new head.
	if (!lane.head && lane.disarm) {
		lane.disarm();
		lane.disarm = undefined;
	}
}

function unlink(lane: Lane, entry: Pending): void {
	if (entry.prev) entry.prev.next = entry.next;
	else lane.head = entry.next;
	if (entry.next) entry.next.prev = entry.prev;
	else lane.tail = entry.prev;
	entry.prev = entry.next = entry.lane = undefined;
}

function armFor(lane: Lane): void {
	const head = lane.head;
	if (!head) return;
	const wait = Math.max(1, Math.ceil(head.at - performance.now()));
	lane.disarm = lane.arm(wait, () => {
		lane.disarm = undefined;
		const now = performance.now();
		// The timer was armed for an oldest entry that may have ended since: what is due is decided
		// by each entry's own time. A host timer may fire a fraction of a millisecond early.
		while (lane.head && lane.head.at <= now + 1) {
			const due = lane.head;
			unlink(lane, due);
			try {
				due.fire();
			} catch {
				// One deadline's failure must not leave the later ones of its lane without a timer.
			}
		}
		if (lane.head && !lane.disarm) armFor(lane);
	});
}
