// Up to `limit` QoS 1 messages handled at once over MQTT. mqtt.js reads the next packet only once
// handleMessage calls back, and that call back also sends the PUBACK: so one message at a time.
// This window calls back at once while fewer than `limit` handlers run, and holds each PUBACK
// until its handler succeeded (a failure drops the connection instead: no PUBACK, redelivery).
// It relies on mqtt.js (pinned) sending the PUBACK through its `_sendPacket`.
import type { MqttClient, Packet } from 'mqtt';

type SendPacket = (packet: Packet, cb?: () => void, ...rest: unknown[]) => void;

interface Tracked {
  handled: boolean;
  /** The PUBACK mqtt.js tried to send before the handler finished. */
  held?: () => void;
}

export class PubackWindow {
  private readonly tracked = new Map<number, Tracked>();
  private readonly waiting: Array<() => void> = [];
  private running = 0;
  private readonly send: SendPacket;

  constructor(
    client: MqttClient,
    private readonly limit: number,
  ) {
    const internals = client as unknown as { _sendPacket: SendPacket };
    if (typeof internals._sendPacket !== 'function') {
      throw new Error('mqtt.js internals changed (_sendPacket): shared/push/mqtt-window.ts must be revisited');
    }
    this.send = internals._sendPacket.bind(client);
    internals._sendPacket = (packet, cb, ...rest) => {
      const entry = packet.cmd === 'puback' && packet.messageId !== undefined ? this.tracked.get(packet.messageId) : undefined;
      if (!entry || entry.handled) {
        if (entry) this.tracked.delete((packet as { messageId: number }).messageId);
        return this.send(packet, cb, ...rest);
      }
      // Keep reading; the acknowledgement waits for the handler.
      entry.held = () => this.send(packet, undefined, ...rest);
      cb?.();
    };
  }

  /**
   * A message came in and its handler starts: `next` (mqtt.js's call back, which reads the next
   * packet) runs now while fewer than `limit` run, else once one finishes.
   * Returns what settles it: `handled()` sends the PUBACK, `failed()` frees the slot only.
   */
  admit(messageId: number, next: () => void): { handled(): void; failed(): void } {
    const entry: Tracked = { handled: false };
    this.tracked.set(messageId, entry);
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
        if (entry.held) {
          this.tracked.delete(messageId);
          entry.held();
        }
        finish();
      },
      failed: () => {
        this.tracked.delete(messageId);
        finish();
      },
    };
  }
}
