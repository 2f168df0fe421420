/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { App, webApi } from '@slack/bolt';
import type { AssetRef } from '../../kernel/alert';
import { commandMessage } from '../../blocks/command';
import type { AssetStatus, CommandResult } from '../../features/commands/model';
import { fillLink } from '../../features/oncall/oncall';
import { assetLine } from '../../render/format';
import { messageToText } from '../../render/text';
import type { ListenerDeps } from '../deps';
import { cbmText, healthText, linkState, openFaultCount } from './outputs';
import { overLimit, runStep, StepFailure, type StepLimits, type StepOutputs } from './run';

export const GET_ASSET_STATUS = 'get_asset_status';

/** A command's answer that is not a status, as the sentence `/drive` would show (suggestions included). */
export function commandFailure(result: CommandResult, timeZone: string): StepFailure {
	return new StepFailure(
		messageToText(commandMessage(result, timeZone), () => '').replace(/^== (.*) ==$/m, '$1'),
	);
}

/** The asset's page when configured, else the Slack link of its latest open alert message. */
async function permalink(
	asset: AssetRef,
	{ config, alerts }: ListenerDeps,
	client: webApi.WebClient,
): Promise<string | undefined> {
	if (config.links.assetPage) return fillLink(config.links.assetPage, { asset, code: '' });
	if (!alerts) return undefined;
	const alert = (await alerts.openAlerts())
		.filter((a) => a.asset.id === asset.id)
		.sort((a, b) => b.eventTime.localeCompare(a.eventTime))[0];
	const ref = alert && (await alerts.messagesOf(alert.key))[0];
	if (!ref) return undefined;
	const answer = await client.chat
		.getPermalink({ channel: ref.channelId, message_ts: ref.ts })
		.catch(() => undefined);
	return answer?.permalink;
}

function statusOutputs(
	members: readonly AssetStatus[],
	name: string,
	timeZone: string,
): StepOutputs {
	// A PowerTrain answers with its drive and motor: each line says whose it is.
	const each = (text: (m: AssetStatus) => string) =>
		members.length === 1
			? text(members[0])
			: members
					.map((m) =>
						text(m)
							.split('\n')
							.map((line) => `${m.assetType} ${m.asset.name}: ${line}`)
							.join('\n'),
					)
					.join('\n');
	return {
		asset_name: name,
		state: each((m) => linkState(m.link, m.latestData, timeZone)),
		open_faults: members.reduce((n, m) => n + openFaultCount(m), 0),
		health: each(healthText),
		cbm: each(cbmText),
	};
}

export function registerAssetStatusStep(app: App, deps: ListenerDeps, limits: StepLimits): void {
	const { commands, config, logger } = deps;
	app.function(GET_ASSET_STATUS, async ({ inputs, complete, fail, client }) => {
		await runStep(
			GET_ASSET_STATUS,
			limits.readMs,
			overLimit('Reading the asset status', limits.readMs),
			async () => {
				const result = await commands.handle(`status ${String(inputs.asset ?? '').trim()}`);
				if (result.kind !== 'status' && result.kind !== 'powertrain')
					throw commandFailure(result, config.timeZone);
				const members = result.kind === 'status' ? [result] : result.members;
				return {
					...statusOutputs(members, assetLine(result.asset), config.timeZone),
					permalink: await permalink(result.asset, deps, client),
				};
			},
			{ complete: (outputs) => complete({ outputs }), fail: (error) => fail({ error }), logger },
		);
	});
}
