/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the platform simulator, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { EventEmitter } from 'node:events';

/**
 * What happens inside the simulated platform that pushed data is made of. The push channel
 * (simulator/push/) listens here; payloads are the same camelCase records the REST API returns.
 */
export interface SimulatorBusEvents {
	'event.created': { orgId: number; assetId: number; event: Record<string, unknown> };
	'event.closed': { orgId: number; assetId: number; event: Record<string, unknown> };
	'report.finished': { orgId: number; assetIds: number[]; report: Record<string, unknown> };
	'state.hourly': {
		orgId: number;
		states: Array<{ assetId: number; online: boolean; time: string }>;
	};
	'cbm.daily': { orgId: number; assetId: number; results: Array<Record<string, unknown>> };
	'subscriber.changed': {
		orgId: number;
		userName: string;
		change: 'created' | 'reset' | 'types' | 'deleted';
	};
}

export type SimulatorBusEventName = keyof SimulatorBusEvents;

export class SimulatorBus {
	private readonly emitter = new EventEmitter({ captureRejections: false });

	constructor() {
		this.emitter.setMaxListeners(0);
	}

	emit<K extends SimulatorBusEventName>(name: K, payload: SimulatorBusEvents[K]): void {
		this.emitter.emit(name, payload);
	}

	on<K extends SimulatorBusEventName>(
		name: K,
		listener: (payload: SimulatorBusEvents[K]) => void,
	): () => void {
		this.emitter.on(name, listener);
		return () => this.emitter.off(name, listener);
	}
}
