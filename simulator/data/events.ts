import type { AssetRec } from '../fleet/model';
import { hash32, pickBy, unit } from '../random';
import { DAY, MINUTE, dayIndex, isoUtc } from '../time';

export type EventType = 'Fault' | 'Warning' | 'Notification';

export interface EventRec {
	id: number;
	assetId: number;
	eventType: EventType;
	eventCode: string;
	time: number;
	status: 'Open' | 'Close';
	content: string;
	closeReason: string;
	closeAt: number | null;
	deviceWorkStatus: 0 | 1 | 2;
	hasLogger: boolean;
}

const DRIVE_CODES: Record<EventType, Array<[string, string]>> = {
	Fault: [
		['2310', 'Overcurrent'],
		['2330', 'Earth leakage'],
		['3210', 'DC link overvoltage'],
		['3220', 'DC link undervoltage'],
		['4210', 'IGBT overtemperature'],
		['7121', 'Motor stall'],
		['5090', 'STO hardware failure'],
	],
	Warning: [
		['A2A1', 'Current calibration'],
		['A4A9', 'Cooling'],
		['A5EA', 'Measurement circuit temperature'],
		['A981', 'External warning'],
		['A2B3', 'Earth leakage'],
	],
	Notification: [
		['B5A0', 'Safe torque off event'],
		['B686', 'Checksum mismatch'],
		['B5A2', 'Power-up'],
		['B687', 'Parameter changed'],
	],
};
const MOTOR_CODES: Record<EventType, Array<[string, string]>> = {
	Fault: [
		['M101', 'Bearing vibration high'],
		['M102', 'Winding temperature high'],
	],
	Warning: [
		['M201', 'Vibration rising'],
		['M202', 'Bearing temperature rising'],
		['M203', 'Misalignment suspected'],
	],
	Notification: [
		['M301', 'Sensor battery low'],
		['M302', 'Sensor reconnected'],
	],
};
const CLOSE_REASONS = [
	'Reset by operator',
	'Cleared after inspection',
	'Cable replaced',
	'Cooling fan cleaned',
	'Acknowledged',
];

/** Generated ids: (day * 16 + n) * 1e6 + assetId. Raised events count up from LIVE_ID_BASE. */
const SLOT = 1_000_000;
const PER_DAY = 16;
const LIVE_ID_BASE = 500_000_000_000_000;

export interface RaiseEventInput {
	eventType: EventType;
	eventCode?: string;
	content?: string;
	deviceWorkStatus?: 0 | 1 | 2;
	hasLogger?: boolean;
}

/**
 * Events of the fleet. History before the simulator's origin is generated lazily per asset and
 * UTC day, so any window is cheap and always the same; events after the origin are those raised
 * (by the generator or `control.raiseEvent`), and those are the ones pushed on the bus.
 */
export class EventStore {
	private readonly live = new Map<number, EventRec>();
	private readonly closed = new Map<number, { reason: string; at: number }>();
	private nextLive = LIVE_ID_BASE + 1;

	constructor(
		private readonly seed: number,
		private readonly origin: number,
	) {}

	/** Events of an asset with start <= time < end, oldest first. */
	list(asset: AssetRec, start: number, end: number): EventRec[] {
		const out: EventRec[] = [];
		const from = Math.max(start, asset.createdOn);
		const to = Math.min(end, this.origin);
		for (let day = dayIndex(from); from < to && day <= dayIndex(to - 1); day++) {
			for (const event of this.generatedDay(asset, day))
				if (event.time >= from && event.time < to) out.push(event);
		}
		for (const event of this.live.values())
			if (event.assetId === asset.id && event.time >= start && event.time < end) out.push(event);
		return out.sort((a, b) => a.time - b.time || a.id - b.id);
	}

	find(asset: AssetRec, eventId: number): EventRec | undefined {
		const live = this.live.get(eventId);
		if (live) return live.assetId === asset.id ? live : undefined;
		if (eventId % SLOT !== asset.id) return undefined;
		const slot = Math.floor(eventId / SLOT);
		const found = this.generatedDay(asset, Math.floor(slot / PER_DAY)).find(
			(e) => e.id === eventId,
		);
		return found && found.time >= asset.createdOn && found.time < this.origin ? found : undefined;
	}

	raise(asset: AssetRec, input: RaiseEventInput, now: number): EventRec {
		const codes = (asset.assetType === 'Motor' ? MOTOR_CODES : DRIVE_CODES)[input.eventType];
		const id = this.nextLive++;
		const [code, text] = input.eventCode
			? (codes.find(([c]) => c === input.eventCode) ?? [input.eventCode, 'Event'])
			: pickBy(codes, unit(this.seed, id));
		const event: EventRec = {
			id,
			assetId: asset.id,
			eventType: input.eventType,
			eventCode: code,
			time: now,
			status: 'Open',
			content: input.content ?? `${text} (${code})`,
			closeReason: '',
			closeAt: null,
			deviceWorkStatus: input.deviceWorkStatus ?? (input.eventType === 'Fault' ? 2 : 1),
			hasLogger: input.hasLogger ?? (input.eventType === 'Fault' && asset.assetType === 'Drive'),
		};
		this.live.set(id, event);
		return event;
	}

	close(event: EventRec, reason: string, now: number): EventRec {
		this.closed.set(event.id, { reason, at: now });
		const live = this.live.get(event.id);
		if (live) Object.assign(live, { status: 'Close', closeReason: reason, closeAt: now });
		return this.applyClose(event);
	}

	openLiveEvents(): EventRec[] {
		return [...this.live.values()].filter((e) => e.status === 'Open');
	}

	private applyClose(event: EventRec): EventRec {
		const closed = this.closed.get(event.id);
		return closed
			? { ...event, status: 'Close', closeReason: closed.reason, closeAt: closed.at }
			: event;
	}

	private generatedDay(asset: AssetRec, day: number): EventRec[] {
		const roll = unit(this.seed, asset.id, day, 1);
		const count = roll < 0.7 ? 0 : roll < 0.9 ? 1 : roll < 0.98 ? 2 : 3;
		const codes = asset.assetType === 'Motor' ? MOTOR_CODES : DRIVE_CODES;
		const events: EventRec[] = [];
		for (let n = 0; n < count; n++) {
			const u = (k: number): number => unit(this.seed, asset.id, day, n, k);
			const typeRoll = u(2);
			const eventType: EventType =
				typeRoll < 0.3 ? 'Fault' : typeRoll < 0.7 ? 'Warning' : 'Notification';
			const [code, text] = pickBy(codes[eventType], u(3));
			const time = day * DAY + Math.floor((u(4) * DAY) / 1000) * 1000;
			const closeAt = time + Math.floor(5 * MINUTE + u(5) * 2 * DAY);
			// A tenth stays open whatever its age; the rest close unless the origin came first.
			const open = u(6) < 0.1 || closeAt >= this.origin;
			const event: EventRec = {
				id: (day * PER_DAY + n) * SLOT + asset.id,
				assetId: asset.id,
				eventType,
				eventCode: code,
				time,
				status: open ? 'Open' : 'Close',
				content: `${text} (${code})`,
				closeReason: open ? '' : pickBy(CLOSE_REASONS, u(7)),
				closeAt: open ? null : closeAt,
				deviceWorkStatus: pickBy([0, 1, 2] as const, u(8)),
				hasLogger: eventType === 'Fault' && u(9) < 0.7,
			};
			events.push(this.applyClose(event));
		}
		return events;
	}
}

export function eventPayload(event: EventRec): Record<string, unknown> {
	return {
		id: event.id,
		eventType: event.eventType,
		eventCode: event.eventCode,
		eventDateTime: isoUtc(event.time),
		eventStatus: event.status,
		content: event.content,
		closeReason: event.closeReason,
		closeAt: event.closeAt === null ? null : isoUtc(event.closeAt),
		deviceWorkStatus: event.deviceWorkStatus,
		isHasEventLogger: event.hasLogger,
	};
}

/** A stable logger-file id for an event. */
export function loggerIdOf(seed: number, eventId: number): string {
	const h = [
		hash32(seed, eventId, 1),
		hash32(seed, eventId, 2),
		hash32(seed, eventId, 3),
		hash32(seed, eventId, 4),
	]
		.map((n) => n.toString(16).padStart(8, '0'))
		.join('');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
