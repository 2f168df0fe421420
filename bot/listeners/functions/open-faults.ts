/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { App } from '@slack/bolt';
import type { AlertRecord } from '../../kernel/alert';
import { routeAlert } from '../../features/alerts/routing';
import { nearestNames } from '../../platform/nearest';
import type { ListenerDeps } from '../deps';
import { faultLine, listText } from './outputs';
import { overLimit, runStep, StepFailure, type StepLimits } from './run';

export const LIST_OPEN_FAULTS = 'list_open_faults';

export interface FaultScope {
	plant?: string;
	group?: string;
	/** A channel id: the faults routed there, or posted there. */
	channel?: string;
}

const same = (a: string | undefined, b: string) =>
	(a ?? '').trim().toLowerCase() === b.trim().toLowerCase();

/** The open faults of the bot's state within a scope, newest first, as the Acknowledge step takes them (their event numbers). */
export async function openFaults(
	{ alerts, oncall, config }: ListenerDeps,
	scope: FaultScope,
): Promise<AlertRecord[]> {
	if (!alerts)
		throw new StepFailure('The bot is still starting; run the workflow again in a minute.');
	const inScope = (await alerts.openAlerts())
		.filter((a) => a.status === 'Open' && a.severity === 'Fault')
		.filter((a) => !scope.plant || same(a.asset.plant, scope.plant))
		.filter(
			(a) =>
				!scope.group ||
				same(a.asset.group, scope.group) ||
				String(a.asset.groupId ?? '') === scope.group.trim(),
		);
	const faults: AlertRecord[] = [];
	for (const a of inScope) {
		const channel = scope.channel;
		if (
			channel &&
			!routeAlert(config.alerts, a.asset, a.severity).includes(channel) &&
			!(await alerts.messagesOf(a.key)).some(
				(m) => m.channelId === channel || m.channel === channel,
			)
		)
			continue;
		faults.push(oncall ? await oncall.present(a) : a);
	}
	return faults.sort((a, b) => b.eventTime.localeCompare(a.eventTime));
}

/** An asset group the fleet does not have is a typo, not an empty list: said, with the closest names. */
async function checkGroup({ directory }: ListenerDeps, group: string | undefined): Promise<void> {
	if (!group || !directory) return;
	await directory.ensure();
	const names = [
		...new Set(
			directory
				.all()
				.map((a) => a.assetGroupName)
				.filter((g): g is string => Boolean(g)),
		),
	];
	const ids = directory.all().map((a) => String(a.assetGroupId ?? ''));
	if (names.some((n) => same(n, group)) || ids.includes(group.trim())) return;
	const near = nearestNames(group, names);
	throw new StepFailure(
		`No asset group is called "${group}"${near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : '.'} Leave Asset group empty for every group.`,
	);
}

function scopeText(scope: FaultScope): string {
	const parts = [
		scope.plant && `plant ${scope.plant}`,
		scope.group && `group ${scope.group}`,
		scope.channel && `<#${scope.channel}>`,
	].filter(Boolean);
	return parts.length ? ` in ${parts.join(', ')}` : '';
}

export function registerOpenFaultsStep(app: App, deps: ListenerDeps, limits: StepLimits): void {
	app.function(LIST_OPEN_FAULTS, async ({ inputs, complete, fail }) => {
		await runStep(
			LIST_OPEN_FAULTS,
			limits.readMs,
			overLimit('Listing the open faults', limits.readMs),
			async () => {
				const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
				const scope: FaultScope = {
					plant: text(inputs.plant),
					group: text(inputs.group),
					channel: text(inputs.channel),
				};
				await checkGroup(deps, scope.group);
				const faults = await openFaults(deps, scope);
				return {
					count: faults.length,
					faults: listText(
						faults.map((a) => faultLine(a, deps.config.timeZone)),
						`No open fault${scopeText(scope)}.`,
					),
				};
			},
			{
				complete: (outputs) => complete({ outputs }),
				fail: (error) => fail({ error }),
				logger: deps.logger,
			},
		);
	});
}
