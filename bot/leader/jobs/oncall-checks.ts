import type { AlertRecord } from '../../kernel/alert';
import type { BotConfig, Route } from '../../config/schema';
import { routeAlert } from '../../features/alerts/routing';
import { type AlertState, alertState } from '../../features/alerts/state';
import { parseDuration } from '../../features/oncall/durations';
import type { OnCall } from '../../features/oncall/oncall';
import { OnCallStore } from '../../features/oncall/store';
import { type BotLogger, errorText } from '../../log';
import { type Job, repeat } from './job';

/** The route that sent an alert to a channel (for its mentions and reminder delays). */
function routeFor(
	config: BotConfig['alerts'],
	alert: AlertRecord,
	channel: string,
): Route | undefined {
	return config.routes.find(
		(r) =>
			r.channel === channel &&
			routeAlert(
				{ ...config, routes: [{ ...r, continue: false }] },
				alert.asset,
				alert.severity,
			)[0] === channel,
	);
}

/**
 * Enqueues the reminders and escalations that are due: a thread reply re-announcing an open fault nobody took and
 * that is not muted, once per level and channel (claimed in the same transaction, so once across replicas).
 * Returns whether it enqueued any.
 */
export async function enqueueDueReminders(
	oncall: OnCall,
	state: AlertState,
	config: BotConfig,
	now = Date.now(),
): Promise<boolean> {
	let enqueued = false;
	for (const alert of await state.alerts.openAlerts()) {
		if (alert.severity !== 'Fault') continue;
		const view = await oncall.present(alert);
		if (!(await oncall.stillDue(view))) continue;
		const age = now - Date.parse(alert.eventTime);
		for (const ref of await state.alerts.messagesOf(alert.key)) {
			const route = routeFor(config.alerts, alert, ref.channel);
			if (!route) continue;
			const levels: Array<['remind' | 'escalate', string | undefined, string[] | undefined]> = [
				['remind', route.remindAfter, route.mention],
				['escalate', route.escalateAfter, route.escalateMention ?? route.mention],
			];
			for (const [level, after, mentions] of levels) {
				const delay = after === undefined ? undefined : parseDuration(after);
				if (delay === undefined || age < delay) continue;
				const claimed = await state.scope.transaction(async (tx) => {
					if (!(await new OnCallStore(tx).claimReminder(alert.key, ref.channel, level)))
						return false;
					await alertState(tx).outbox.enqueue(ref.channel, {
						kind: 'reminder',
						key: alert.key,
						level,
						mentions: mentions ?? [],
					});
					return true;
				});
				enqueued ||= claimed;
			}
		}
	}
	return enqueued;
}

/** Every `oncall.checkIntervalSeconds`: silences whose time is up end (with their summary), then due reminders go out. */
export function startOnCallChecks(deps: {
	oncall: OnCall;
	state: AlertState;
	config: BotConfig;
	logger: BotLogger;
	kick: () => void;
}): Job {
	return repeat(
		deps.config.oncall.checkIntervalSeconds * 1000,
		async () => {
			const now = Date.now();
			await deps.oncall.endExpired(now);
			if (await enqueueDueReminders(deps.oncall, deps.state, deps.config, now)) deps.kick();
		},
		(error) => deps.logger.error(`oncall: check failed (${errorText(error)})`),
	);
}
