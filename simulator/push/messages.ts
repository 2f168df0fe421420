// Turns what happens in the simulated platform (bus notifications) into the pushed envelopes
// (assumption P3), one per record, with ids that are stable across redeliveries.
import type { SimulatorBus } from '../bus';
import { recordDigest, type PushDataType, type PushEnvelope } from '../../shared/push';

export interface OrgEnvelope {
	orgId: number;
	envelope: PushEnvelope;
}

/** Calls `publish` for every envelope the bus produces; returns the unsubscribe function. */
export function onPushableData(
	bus: SimulatorBus,
	now: () => Date,
	publish: (item: OrgEnvelope) => void,
): () => void {
	const make = (
		orgId: number,
		dataType: PushDataType,
		key: string,
		assetId: number | undefined,
		time: string,
		data: unknown,
	): void =>
		publish({
			orgId,
			envelope: { messageId: `${dataType}:${key}`, dataType, orgId, assetId, time, data },
		});

	const onEvent = (
		{ orgId, assetId, event }: { orgId: number; assetId: number; event: Record<string, unknown> },
		closed: boolean,
	): void => {
		const status = closed ? 'Close' : 'Open';
		const time = String((closed ? event.closeAt : event.eventDateTime) ?? now().toISOString());
		make(orgId, 'AssetEvent', `${assetId}:${String(event.id)}:${status}`, assetId, time, {
			...event,
			eventStatus: event.eventStatus ?? status,
		});
	};
	const offs = [
		bus.on('event.created', (p) => onEvent(p, false)),
		bus.on('event.closed', (p) => onEvent(p, true)),
		bus.on('state.hourly', ({ orgId, states }) => {
			for (const state of states)
				make(
					orgId,
					'AssetState',
					`${state.assetId}:${state.time}`,
					state.assetId,
					state.time,
					state,
				);
		}),
		bus.on('report.finished', ({ orgId, assetIds, report }) => {
			const time = String(report.createdOn ?? now().toISOString());
			make(
				orgId,
				'AssetReport',
				`${String(report.id)}:${String(report.status)}`,
				assetIds[0],
				time,
				{ ...report, assetIds },
			);
		}),
		bus.on('cbm.daily', ({ orgId, assetId, results }) => {
			// Two results of one asset can be made in the same millisecond (a status forced twice):
			// the content tells them apart, or a receiver would drop the second as a redelivery.
			const time = now().toISOString();
			make(
				orgId,
				'AssetCBM',
				`${assetId}:${time}:${recordDigest(results)}`,
				assetId,
				time,
				results,
			);
		}),
	];
	return () => offs.forEach((off) => off());
}
