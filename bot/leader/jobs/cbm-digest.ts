import type { BotConfig } from '../../config/schema';
import { type BotLogger, errorText } from '../../log';
import { type Job, repeat } from './job';
import { type AlertState, alertState } from '../../features/alerts/state';
import { type CbmAlert, cbmSeverity } from '../../kernel/alert';
import { allChannels, routeAlert } from '../../features/alerts/routing';

const WATERMARK = 'cbm.digest.day';

function localClock(timeZone: string, now: Date): { day: string; time: string } {
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-CA', {
			timeZone,
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			hourCycle: 'h23',
		})
			.formatToParts(now)
			.map((p) => [p.type, p.value]),
	);
	return {
		day: `${parts.year}-${parts.month}-${parts.day}`,
		time: `${parts.hour}:${parts.minute}`,
	};
}

/**
 * Enqueues the daily CBM digest once per local day, at or after `cbm.dailyDigestAt`: one message
 * per channel listing the units in its routes that are Yellow or Red. Returns true when it did.
 */
export async function enqueueCbmDigestIfDue(
	state: AlertState,
	config: BotConfig,
	now = new Date(),
): Promise<boolean> {
	const at = config.cbm.dailyDigestAt;
	if (!config.cbm.enabled || at === undefined) return false;
	const { day, time } = localClock(config.timeZone, now);
	if (time < at || (await state.watermarks.get(WATERMARK)) === day) return false;
	return state.scope.transaction(async (scope) => {
		const tx = alertState(scope);
		// Again inside: another replica (or an earlier leader) may have sent today's already.
		if ((await tx.watermarks.get(WATERMARK)) === day) return false;
		const byChannel = new Map<string, CbmAlert[]>(allChannels(config.alerts).map((c) => [c, []]));
		for (const unit of await tx.cbm.units(['Yellow', 'Red'])) {
			for (const channel of routeAlert(config.alerts, unit.asset, cbmSeverity(unit.status)))
				byChannel.get(channel)?.push(unit);
		}
		for (const [channel, units] of byChannel)
			await tx.outbox.enqueue(channel, { kind: 'cbm_digest', units, day });
		await tx.watermarks.set(WATERMARK, day);
		return true;
	});
}

/** Looks every minute whether the daily CBM digest is due (`cbm.dailyDigestAt`, in the bot's time zone). */
export function startCbmDigest(
	state: AlertState,
	config: BotConfig,
	kick: () => void,
	logger: BotLogger,
): Job {
	return repeat(
		60_000,
		async () => {
			if (await enqueueCbmDigestIfDue(state, config)) kick();
		},
		(error) =>
			logger.error(`cbm: daily digest not queued (${errorText(error)}); tried again in a minute`),
	);
}
