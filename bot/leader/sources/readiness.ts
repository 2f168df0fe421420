import type { PushReceiver } from '../../../shared/push';
import type { BotConfig } from '../../config/schema';
import { lastSuccessfulPass } from '../../ops/metrics';
import { type Readiness, recentSuccess } from '../../ops/readiness';
import { pushSourceName } from './push';

/**
 * Readiness of the alert source, registered while this replica leads; returns the check names. Polling: a complete
 * pass within three intervals (and a minute of slack). Push: each receiver connected to its broker (it reconnects by
 * itself; until then no alert arrives).
 */
export function registerSourceChecks(
	readiness: Readiness,
	config: BotConfig,
	receivers: ReadonlyArray<{ receiver: PushReceiver; topic: string }>,
): string[] {
	if (config.source.kind === 'poll') {
		const maxAgeMs = (3 * config.source.pollIntervalSeconds + 60) * 1000;
		readiness.register(
			'source',
			recentSuccess(() => lastSuccessfulPass.get('poll'), maxAgeMs, 'REST polling'),
		);
		return ['source'];
	}
	return receivers.map(({ receiver, topic }) => {
		const name = pushSourceName({ topic });
		let connected = true; // start() resolved: connected and subscribed
		let why = 'connected';
		receiver.on('connected', () => {
			connected = true;
			why = 'connected';
		});
		receiver.on('disconnected', (error?: Error) => {
			connected = false;
			why = `disconnected (${error?.message ?? 'connection closed'}); reconnecting`;
		});
		receiver.on('end', (end) => {
			connected = false;
			why = end.error ? `stopped: ${end.error.message}` : 'closed';
		});
		readiness.register(`source:${name}`, () => ({ ok: connected, detail: `${name}: ${why}` }));
		return `source:${name}`;
	});
}
