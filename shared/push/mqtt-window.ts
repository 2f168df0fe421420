// Up to `limit` QoS 1 messages handled at once over MQTT. mqtt.js reads the next packet only once
// handleMessage calls back, and that call back also sends the PUBACK: so one message at a time.
// This window calls back at once while fewer than `limit` handlers run, and holds each PUBACK
// until its handler succeeded (a failure drops the connection instead: no PUBACK, redelivery).
// PUBACKs leave in the order the PUBLISHes came in, as MQTT 3.1.1 and 5 ask of a client
// (section 4.6, "Message ordering"): a message handled early waits for the ones before it.
// It relies on mqtt.js (pinned) sending the PUBACK through its `_sendPacket`.
import type { MqttClient, Packet } from 'mqtt';

type SendPacket = (packet: Packet, cb?: () => void, ...rest: unknown[]) => void;

interface Tracked {
	messageId: number;
	handled: boolean;
	/** The PUBACK mqtt.js asked to send; sent once handled and every earlier one is out. */
	held?: () => void;
}

export class PubackWindow {
	private readonly tracked = new Map<number, Tracked>();
	/** Messages not acknowledged yet, in the order they arrived. */
	private readonly order: Tracked[] = [];
	private readonly waiting: Array<() => void> = [];
	private running = 0;
	private readonly send: SendPacket;

	constructor(
		client: MqttClient,
		private readonly limit: number,
	) {
		const internals = client as unknown as { _sendPacket: SendPacket };
		if (typeof internals._sendPacket !== 'function') {
			throw new Error(
				'mqtt.js internals changed (_sendPacket): shared/push/mqtt-window.ts must be revisited',
			);
		}
		this.send = internals._sendPacket.bind(client);
		internals._sendPacket = (packet, cb, ...rest) => {
			const entry =
				packet.cmd === 'puback' && packet.messageId !== undefined
					? this.tracked.get(packet.messageId)
					: undefined;
			if (!entry) return this.send(packet, cb, ...rest);
			// Keep reading; the acknowledgement waits for the handler and for the ones before it.
			entry.held = () => this.send(packet, undefined, ...rest);
			cb?.();
			this.flush();
		};
	}

	/**
	 * A message came in and its handler starts: `next` (mqtt.js's call back, which reads the next
	 * packet) runs now while fewer than `limit` run, else once one finishes.
	 * Returns what settles it: `handled()` lets its PUBACK go, `failed()` frees the slot only.
	 */
	admit(messageId: number, next: () => void): { handled(): void; failed(): void } {
		const entry: Tracked = { messageId, handled: false };
		this.tracked.set(messageId, entry);
		this.order.push(entry);
		this.running++;
		if (this.running < this.limit) next();
		else this.waiting.push(next);
		let done = false;
		const finish = (): void => {
			if (done) return;
			done = true;
			this.running--;
			this.waiting.shift()?.();
		};
		return {
			handled: () => {
				if (done) return;
				entry.handled = true;
				finish();
				this.flush();
			},
			failed: () => {
				// No PUBACK: the connection is dropped right after, so the broker sends it again.
				this.forget(entry);
				finish();
			},
		};
	}

	/** Sends the PUBACKs at the head of the arrival order whose handlers are done. */
	private flush(): void {
		while (this.order.length > 0 && this.order[0].handled && this.order[0].held) {
			const entry = this.order.shift()!;
			this.tracked.delete(entry.messageId);
			entry.held!();
		}
	}

	private forget(entry: Tracked): void {
		this.tracked.delete(entry.messageId);
		const index = this.order.indexOf(entry);
		if (index >= 0) this.order.splice(index, 1);
	}
}
