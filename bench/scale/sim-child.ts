/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a benchmark program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The simulator in a process of its own for the scale benchmark (bench/suites/scale.ts), driven
// over the IPC channel: the bot under test then measures only itself, and the platform's request
// log says what the bot really asked and when.
import { startSimulator, type Simulator } from '../../simulator';
import type { RequestRecord } from '../../simulator/requestLog';

export type SimRequest =
	| { op: 'start'; assets: number; latencyMs: number }
	| { op: 'raise'; assetId: number }
	| { op: 'assets'; orgIds?: number[] }
	| { op: 'reads' }
	| { op: 'counts' }
	| { op: 'close' };

/** One E14 read as the platform saw it: the asset, when it arrived, the end of its window. */
export interface Read {
	assetId: number;
	at: number;
	end: number;
}

let sim: Simulator | undefined;
const counts: Record<string, number> = {};
let seen = 0;
/** Requests still in flight at the last drain: counted once they are answered, by their real status. */
let pending: RequestRecord[] = [];

/**
 * Folds the request log into counts and answered E14 reads, then empties it (it is bounded). A
 * request in flight (status 0) waits for a later drain: counted as a read before its answer, an
 * expired asset's one refused read (102205, set aside by the bot for a day) would look like a read
 * that never comes again, and the measured lag would grow with the length of the run.
 */
function drain(final = false): Read[] {
	const reads: Read[] = [];
	if (!sim) return reads;
	const records = [...pending, ...sim.requests.entries];
	pending = [];
	for (const r of records) {
		if (r.status === 0 && !final) {
			pending.push(r);
			continue;
		}
		const key = `${r.endpoint ?? 'other'}:${r.status}`;
		counts[key] = (counts[key] ?? 0) + 1;
		if (r.endpoint === 'E14' && r.status === 200) {
			reads.push({
				assetId: Number(/assetdata\/(\d+)\//.exec(r.path)?.[1]),
				at: Date.parse(r.time),
				end: Date.parse(r.query.endTime ?? ''),
			});
		}
	}
	seen += sim.requests.count;
	sim.requests.clear();
	return reads;
}

async function handle(request: SimRequest): Promise<unknown> {
	switch (request.op) {
		case 'start':
			sim = await startSimulator({ assets: request.assets });
			if (request.latencyMs > 0) sim.faults.set({ latencyMs: request.latencyMs });
			return sim.info;
		case 'raise': {
			const event = sim!.control.raiseEvent(request.assetId, { eventType: 'Fault' });
			return { eventId: String(event.id), at: Date.now() };
		}
		case 'assets':
			return sim!.fleet
				.assets()
				.filter(
					(a) =>
						a.assetType !== 'PowerTrain' &&
						a.level !== 'expired' &&
						(!request.orgIds || request.orgIds.includes(a.orgId)),
				)
				.map((a) => a.id);
		case 'reads':
			return drain();
		case 'counts':
			drain(true);
			return { ...counts, total: seen };
		case 'close':
			await sim?.close();
			setImmediate(() => process.exit(0));
			return null;
	}
}

process.on('message', (message: { id: number; request: SimRequest }) => {
	handle(message.request).then(
		(result) => process.send?.({ id: message.id, result }),
		(error: unknown) =>
			process.send?.({
				id: message.id,
				error: error instanceof Error ? error.message : String(error),
			}),
	);
});
