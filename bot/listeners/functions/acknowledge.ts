/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { App } from '@slack/bolt';
import type { AlertRecord } from '../../kernel/alert';
import type { AlertStore } from '../../features/alerts/store';
import { refusal } from '../access';
import type { ListenerDeps } from '../deps';
import { overLimit, runStep, StepFailure, type StepLimits } from './run';

export const ACKNOWLEDGE_FAULT = 'acknowledge_fault';
export const TAKE_OVER_FAULT = 'take_over_fault';

const HOW =
	'Give the event number shown under the alert (e.g. 500123) or the alert message\'s link ("Copy link"); the List open faults step gives both.';

/**
 * The open alert a workflow names: its event number, a link to its message (a digest's link is
 * refused when it lists several), or its key `<asset id>:<event id>`.
 */
export async function findAlert(alerts: AlertStore, reference: string): Promise<AlertRecord> {
	const ref = reference.trim();
	if (!ref) throw new StepFailure(`Name the alert. ${HOW}`);
	const open = await alerts.openAlerts();
	const link = /\/archives\/([CGD][A-Z0-9]+)\/p(\d{10})(\d{6})/.exec(ref);
	let found: AlertRecord[];
	if (link) {
		const ts = `${link[2]}.${link[3]}`;
		found = [];
		for (const a of open)
			if ((await alerts.messagesOf(a.key)).some((m) => m.channelId === link[1] && m.ts === ts))
				found.push(a);
		if (found.length > 1)
			throw new StepFailure(
				`That link is a digest listing ${found.length} open alerts; give the event number of the one you mean.`,
			);
	} else if (/^\d+:\d+$/.test(ref)) {
		const event = await alerts.getEvent(ref);
		if (event && event.status !== 'Open')
			throw new StepFailure(
				`${event.alert.severity} ${event.alert.code} on ${event.alert.asset.name} is closed already: nothing to acknowledge.`,
			);
		found = event ? [event.alert] : [];
	} else {
		const id = /^(?:event\s*)?#?(\d+)$/i.exec(ref)?.[1];
		if (!id) throw new StepFailure(`"${ref}" is not an alert reference. ${HOW}`);
		found = open.filter((a) => a.eventId === id);
	}
	if (found.length === 0)
		throw new StepFailure(
			`No open alert matches "${ref}": it may be closed already, or not posted by this bot. ${HOW}`,
		);
	return found[0];
}

/**
 * Acknowledge fault / Take over fault: the change the alert's button makes (persisted, every
 * message showing the alert updated through the outbox). Acknowledge refuses an alert someone
 * else holds, so a workflow never takes a fault from a person without saying so.
 */
export function registerAcknowledgeSteps(app: App, deps: ListenerDeps, limits: StepLimits): void {
	const { config, logger } = deps;
	for (const [callbackId, takeOver] of [
		[ACKNOWLEDGE_FAULT, false],
		[TAKE_OVER_FAULT, true],
	] as const) {
		app.function(callbackId, async ({ inputs, complete, fail }) => {
			await runStep(
				callbackId,
				limits.readMs,
				overLimit(takeOver ? 'Taking over the fault' : 'Acknowledging the fault', limits.readMs),
				async () => {
					const { oncall, alerts } = deps;
					if (!oncall || !alerts)
						throw new StepFailure('The bot is still starting; run the workflow again in a minute.');
					const user = String(inputs.user ?? '');
					const alert = await oncall.present(await findAlert(alerts, String(inputs.alert ?? '')));
					// The channels the alert was posted in: the allow-list applies as to its buttons.
					const channel = (await alerts.messagesOf(alert.key))[0]?.channelId;
					const refused = refusal(
						{ ...config.allow, channels: channel ? config.allow.channels : [] },
						{ user, channel },
					);
					if (refused) throw new StepFailure(refused);
					// Decided in the transaction that takes it: someone taking it at the same moment (a button, another
					// replica) is seen, and Acknowledge fault then leaves it with them.
					const outcome = await oncall.take(
						[alert.key],
						user,
						takeOver ? 'take-over' : 'acknowledge',
					);
					if (outcome.heldBy)
						throw new StepFailure(
							`<@${outcome.heldBy}> already holds ${alert.severity} ${alert.code} on ${alert.asset.name}. Use the Take over fault step to take it from them.`,
						);
					if (outcome.closed)
						throw new StepFailure(
							`${alert.severity} ${alert.code} on ${alert.asset.name} is closed already: nothing to acknowledge.`,
						);
					return {
						alert: `${alert.severity} ${alert.code} on ${alert.asset.name} (${alert.asset.serialNumber})`,
						event_id: alert.eventId,
						holder: user,
						previous_holder: outcome.previousHolder,
					};
				},
				{ complete: (outputs) => complete({ outputs }), fail: (error) => fail({ error }), logger },
			);
		});
	}
}
