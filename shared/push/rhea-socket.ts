/* eslint-disable @n8n/community-nodes/no-restricted-globals -- Node-only core code: the bot, the self-hosted push companion and the simulator load it, the n8n Cloud pack does not, and n8n Cloud's rules govern the pack */
import type { Connection } from 'rhea';

type RheaInternals = {
	socket?: { destroy(): void };
	heartbeat_in?: NodeJS.Timeout;
	heartbeat_out?: NodeJS.Timeout;
	abort_idle?: NodeJS.Timeout;
};

/**
 * Ends an AMQP connection's socket for good, on either side (our receiver, the simulator's broker). rhea clears its
 * idle timers only when the socket says 'end', which a destroyed socket never does: left alone, a heartbeat timer
 * (twice the idle time-out) would keep the process up after everything closed.
 */
export function destroyAmqpSocket(connection: Connection): void {
	const internals = connection as unknown as RheaInternals;
	internals.socket?.destroy();
	const clearTimers = (): void => {
		for (const timer of [internals.heartbeat_in, internals.heartbeat_out, internals.abort_idle])
			clearTimeout(timer);
		internals.heartbeat_in = internals.heartbeat_out = internals.abort_idle = undefined;
	};
	clearTimers();
	// Called from inside rhea's frame handler, rhea re-arms heartbeat_in after the handler returns.
	setImmediate(clearTimers);
}
