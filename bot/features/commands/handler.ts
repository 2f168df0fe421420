/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { assetStandingRefusal, DriveMonitoringApiError } from '../../../shared/errors';
import { isPowerTrain, membersOf } from '../../../shared/fleet';
import { Limiter } from '../../../shared/core/limiter';
import { explainLevelDenial, FEATURE_LABELS, toLevel } from '../../../shared/levels';
import { ceilToSecond } from '../../../shared/time';
import type { Feature } from '../../../shared/spec';
import { cbmKey, type AssetRef } from '../../kernel/alert';
import { toCbmAlert } from '../alerts/engine';
import type { BotLogger } from '../../log';
import type { OnCall, Silence } from '../oncall/oncall';
import type { AssetDirectory } from '../../platform/directory';
import type { AssetListItem, DrivePlatform } from '../../platform/types';
import type { AlertStore } from '../alerts/store';
import type { ConnectivityTracker } from '../connectivity/tracker';
import { parseReportRequest } from '../reports/request';
import type { ReportService } from '../reports/service';
import type { TrendService } from '../charts/trend';
import type { AssetStatus, CbmSection, CommandResult } from './model';
import { platformErrorText } from '../../render/errors';
import type { SourceStatus } from '../../kernel/source-status';

const RANGE = /^(\d{1,4})(h|d)$/i;
const MAX_RANGE_DAYS = 365;

export interface CommandDeps {
	platform: DrivePlatform;
	directory: AssetDirectory;
	alerts: AlertStore;
	command: string;
	logger: BotLogger;
	/** How long `health` waits for conditions before answering with what it has. */
	healthBudgetMs?: number;
	/** Online/offline of the fleet (assumption B30), shown by `status` and `health`. */
	connectivity?: ConnectivityTracker;
	/** Reports in Slack (`report`); absent when the bot has nowhere to upload files. */
	reports?: ReportService;
	/** The bot's clock (report dates). */
	now?: () => number;
	/** `trend` charts and the latest signal values of `status` (E16, E17). */
	trends?: TrendService;
	/** Silences (mute, unmute, mutes) and their display in `status`. */
	oncall?: OnCall;
	/** Lag of the alert sources, shown by `health` (B46). */
	sources?: () => SourceStatus[];
	/**
	 * The client for reads over the whole fleet (`health`'s conditions): behind commands in the
	 * request budget, like polling, so one `health` on 10,000 assets does not stall alerts (B46).
	 */
	fleetPlatform?: DrivePlatform;
}

/** Where a command was typed (reports and charts are posted there) and who asked (Slack's user id, for the commands that act on their behalf). */
export interface CommandContext {
	channel?: string;
	user?: string;
}

function listRef(a: AssetListItem): AssetRef {
	return {
		id: a.id,
		name: a.name ?? `asset ${a.id}`,
		serialNumber: a.serialNumber ?? '-',
		organization: a.organizationName ?? '',
		organizationId: a.organizationId ?? undefined,
		group: a.assetGroupName ?? '',
		groupId: a.assetGroupId ?? undefined,
		plant: '',
	};
}

/** 102202: the function does not apply to this asset (CBM on another model, a PowerTrain). */
function isUnsupportedAsset(error: unknown): boolean {
	return error instanceof DriveMonitoringApiError && error.code === 102202;
}

function unsupportedSentence(why: 'expired' | 'cbmModel', name: string, feature: Feature): string {
	if (why === 'expired') {
		return `The subscription of ${name} has expired, so ${FEATURE_LABELS[feature].toLowerCase()} cannot be read. Ask your platform administrator to bind a new subscription code to it; its detail and open events still answer.`;
	}
	return `CBM (predicted maintenance of fan, capacitors and IGBT) covers ACS880 and ACS580 drives only, and ${name} is not one of them. Use \`status\` for its health conditions and events.`;
}

/**
 * The one implementation of `/drive`: Slack and the terminal both call `handle` and render the
 * result their own way.
 */
export class CommandHandler {
	private readonly overall = new Map<number, { status: string; at: number }>();
	private healthRefresh: Promise<void> | undefined;

	constructor(private readonly deps: CommandDeps) {}

	async handle(text: string, context: CommandContext = {}): Promise<CommandResult> {
		const words = text.trim().split(/\s+/).filter(Boolean);
		const sub = (words.shift() ?? 'help').toLowerCase();
		const rest = words.join(' ');
		try {
			switch (sub) {
				case 'help':
					return { kind: 'help', command: this.deps.command };
				case 'status':
					return await this.withAsset(rest, sub, (a) => this.status(a));
				case 'events': {
					const range =
						words.length > 1 && RANGE.test(words[words.length - 1])
							? (words.pop() as string)
							: '24h';
					return await this.withAsset(words.join(' '), sub, (a) =>
						this.events(a, range.toLowerCase()),
					);
				}
				case 'cbm':
					return await this.withAsset(rest, sub, async (a) => ({
						kind: 'cbm',
						asset: await this.deps.directory.ref(a.id),
						cbm: await this.cbm(a.id),
					}));
				case 'health':
					return await this.health(rest || undefined);
				case 'find':
					return await this.find(rest);
				case 'report':
					return await this.report(rest, context);
				case 'trend':
					return await this.trend(rest, context);
				case 'mute':
				case 'unmute':
				case 'mutes':
					return await this.silences(sub, words, context);
				default:
					return {
						kind: 'usage',
						command: this.deps.command,
						message: `"${sub}" is not a subcommand.`,
					};
			}
		} catch (error) {
			this.deps.logger.warn(
				`command "${sub}" failed: ${error instanceof Error ? error.message : String(error)}`,
			);
			return { kind: 'error', message: platformErrorText(error) };
		}
	}

	private async withAsset(
		query: string,
		sub: string,
		answer: (asset: AssetListItem) => Promise<CommandResult>,
	): Promise<CommandResult> {
		if (!query)
			return {
				kind: 'usage',
				command: this.deps.command,
				message: `\`${sub}\` needs an asset: a name, serial number or id.`,
			};
		await this.deps.directory.ensure();
		const found = this.deps.directory.lookup(query);
		if (found.kind === 'none')
			return { kind: 'not_found', query, suggestions: found.suggestions.map(listRef) };
		if (found.kind === 'ambiguous')
			return { kind: 'ambiguous', query, matches: found.matches.map(listRef), total: found.total };
		return answer(found.asset);
	}

	private async level(assetId: number) {
		try {
			const subscriptions = await this.deps.platform.assets.listSubscriptions({ assetId });
			const active = subscriptions.find((s) => s.status === 'Activated') ?? subscriptions[0];
			return toLevel(active?.level);
		} catch {
			return undefined;
		}
	}

	private async explain(assetId: number, feature: Feature): Promise<string> {
		return explainLevelDenial(feature, await this.level(assetId));
	}

	/**
	 * The call's answer, or one plain sentence saying why this asset cannot answer and what to do:
	 * its level forbids the function (102403), its subscription expired (102205), or (CBM) it is
	 * not a model CBM covers (102202). Never an endpoint number or a raw code.
	 */
	private async orDenied<T>(
		call: Promise<T>,
		assetId: number,
		feature: Feature,
	): Promise<T | { denied: string }> {
		return call.catch(async (error: unknown) => {
			const standing = assetStandingRefusal(error);
			if (standing === 'levelDenied') return { denied: await this.explain(assetId, feature) };
			if (standing === 'expired')
				return {
					denied: unsupportedSentence(
						'expired',
						this.deps.directory.byId(assetId)?.name ?? `asset ${assetId}`,
						feature,
					),
				};
			if (feature === 'cbm' && isUnsupportedAsset(error))
				return {
					denied: unsupportedSentence(
						'cbmModel',
						this.deps.directory.byId(assetId)?.name ?? `asset ${assetId}`,
						feature,
					),
				};
			throw error;
		});
	}

	private async cbm(assetId: number): Promise<CbmSection> {
		const [asset, units] = await Promise.all([
			this.deps.directory.ref(assetId),
			this.orDenied(this.deps.platform.assetData.getCbm({ assetId }), assetId, 'cbm'),
		]);
		if ('denied' in units) return { kind: 'denied', explanation: units.denied };
		if (units.length === 0) return { kind: 'none' };
		return {
			kind: 'units',
			units: units.map((u) => toCbmAlert(cbmKey(assetId, u.deviceUnitType), asset, u)),
		};
	}

	private async silences(
		sub: string,
		words: string[],
		context: CommandContext,
	): Promise<CommandResult> {
		const oncall = this.deps.oncall;
		if (!oncall) return { kind: 'refused', message: 'Silences are not available in this mode.' };
		if (sub === 'mutes')
			return { kind: 'mutes', silences: await oncall.mutes(), command: this.deps.command };
		if (sub === 'unmute')
			return { kind: 'notice', message: await oncall.unmute(words, context.user) };
		return { kind: 'notice', message: (await oncall.mute(words, context.user)).text };
	}

	private async silencesOf(asset: AssetRef): Promise<Silence[]> {
		return (await this.deps.oncall?.silencesFor(asset)) ?? [];
	}

	private async status(item: AssetListItem): Promise<CommandResult> {
		if (isPowerTrain(item)) {
			// The API refuses PowerTrains (S3): its drive and motor answer for it.
			const members = membersOf(item);
			const asset = listRef(item);
			if (members.length === 0)
				return {
					kind: 'notice',
					message: `${asset.name} is a PowerTrain with no drive or motor listed yet: nothing to read.`,
				};
			const statuses = await Promise.all(members.map((m) => this.memberStatus(m)));
			return {
				kind: 'powertrain',
				asset,
				members: statuses,
				silences: await this.silencesOf(asset),
			};
		}
		return this.memberStatus(item);
	}

	private async memberStatus(item: AssetListItem): Promise<AssetStatus> {
		const { platform, directory } = this.deps;
		const end = ceilToSecond(new Date());
		const [detail, conditions, events, cbm, level, asset, signals] = await Promise.all([
			// Fresh, not the directory's cached detail: "latest data" must be now's.
			platform.assets.get({ id: item.id }),
			this.orDenied(
				platform.assetData.getConditions({ assetId: item.id }),
				item.id,
				'healthConditions',
			),
			this.orDenied(
				platform.assetData.listEvents({
					assetId: item.id,
					startTime: new Date(end.getTime() - 7 * 86_400_000),
					endTime: end,
				}),
				item.id,
				'eventHistory',
			),
			this.cbm(item.id),
			this.level(item.id),
			directory.ref(item.id),
			isPowerTrain(item) ? undefined : this.deps.trends?.latest(item.id),
		]);
		return {
			kind: 'status',
			asset,
			assetType: detail.assetType ?? item.assetType,
			model: detail.modelType ?? undefined,
			firmware: detail.firmwareVersion ?? undefined,
			latestData: detail.latestDataReceived ?? undefined,
			level,
			conditions,
			openEvents: 'denied' in events ? [] : events.filter((e) => e.eventStatus === 'Open'),
			eventsDenied: 'denied' in events ? events.denied : undefined,
			cbm,
			link: await this.deps.connectivity?.link(item.id),
			signals,
			silences: await this.silencesOf(asset),
		};
	}

	private async events(item: AssetListItem, range: string): Promise<CommandResult> {
		const asset = await this.deps.directory.ref(item.id);
		const match = RANGE.exec(range);
		const hours = match ? Number(match[1]) * (match[2].toLowerCase() === 'd' ? 24 : 1) : 24;
		if (hours < 1 || hours > MAX_RANGE_DAYS * 24) {
			return {
				kind: 'usage',
				command: this.deps.command,
				message: `The range "${range}" must be between 1h and ${MAX_RANGE_DAYS}d.`,
			};
		}
		// Whole seconds, so "7d" stays one 7-day window on the wire.
		const end = ceilToSecond(new Date());
		const start = new Date(end.getTime() - hours * 3_600_000);
		const events = await this.orDenied(
			this.deps.platform.ranges.events({ assetId: item.id, startTime: start, endTime: end }),
			item.id,
			'eventHistory',
		);
		if ('denied' in events)
			return { kind: 'events', asset, range, events: [], denied: events.denied };
		events.sort((a, b) => String(b.eventDateTime).localeCompare(String(a.eventDateTime)));
		return { kind: 'events', asset, range, events };
	}

	/** `report <asset|group> [7d|30d|from..to] [title]`: checked, requested, answered at once (B36). */
	private async report(text: string, context: CommandContext): Promise<CommandResult> {
		const { reports } = this.deps;
		if (!reports || !context.channel)
			return {
				kind: 'refused',
				message:
					'Reports are posted in a channel: use the command in Slack (or the terminal mode).',
			};
		if (!text)
			return {
				kind: 'usage',
				command: this.deps.command,
				message:
					'`report` needs an asset or an asset group, e.g. `report "Line 3" 30d Monthly line report`.',
			};
		const parsed = parseReportRequest(text, (this.deps.now ?? Date.now)());
		if ('error' in parsed)
			return { kind: 'usage', command: this.deps.command, message: parsed.error };
		const outcome = await reports.request({
			...parsed,
			channel: context.channel,
			requestedBy: context.user,
		});
		if (outcome.kind === 'refused') return { kind: 'refused', message: outcome.message };
		const { job } = outcome;
		return {
			kind: 'report_started',
			reportId: job.reportId,
			title: job.title,
			what: job.what,
			startDate: job.startDate,
			endDate: job.endDate,
			note: outcome.note,
		};
	}

	/** `trend <asset> <signal> [24h|7d|30d]`: a PNG chart posted in the channel, a text chart in the answer. */
	private async trend(text: string, context: CommandContext): Promise<CommandResult> {
		const { trends } = this.deps;
		if (!trends) return { kind: 'refused', message: 'Charts are not available in this mode.' };
		const answer = await trends.trend(text, context.channel, (id) => this.deps.directory.ref(id));
		if (answer.kind === 'usage')
			return { kind: 'usage', command: this.deps.command, message: answer.message };
		if (answer.kind === 'refused') return { kind: 'refused', message: answer.message };
		return answer;
	}

	private async find(text: string): Promise<CommandResult> {
		if (!text)
			return {
				kind: 'usage',
				command: this.deps.command,
				message: '`find` needs some text to look for.',
			};
		await this.deps.directory.ensure();
		const matches = this.deps.directory.search(text, 21);
		return {
			kind: 'find',
			query: text,
			matches: matches.slice(0, 20).map(listRef),
			more: matches.length > 20,
		};
	}

	/** Reads the Overall condition of every asset not read in the last 10 minutes. */
	private refreshConditions(assets: readonly AssetListItem[]): Promise<void> {
		const stale = assets.filter(
			(a) => Date.now() - (this.overall.get(a.id)?.at ?? 0) > 10 * 60_000,
		);
		const limiter = new Limiter(8);
		return Promise.all(
			stale.map((a) =>
				limiter.run(async () => {
					const conditions = await (this.deps.fleetPlatform ?? this.deps.platform).assetData
						.getConditions({ assetId: a.id })
						.catch(() => undefined);
					const overall = conditions?.find((c) => c.type === 'Overall');
					if (overall) this.overall.set(a.id, { status: overall.status, at: Date.now() });
				}),
			),
		).then(() => undefined);
	}

	private async health(group: string | undefined): Promise<CommandResult> {
		const { directory, alerts } = this.deps;
		await directory.ensure();
		const q = group?.toLowerCase();
		// A PowerTrain is virtual: its drive and motor are counted instead.
		const assets = directory
			.all()
			.filter(
				(a) =>
					!isPowerTrain(a) &&
					(!q || (a.assetGroupName ?? '').toLowerCase() === q || String(a.assetGroupId) === q),
			);
		if (group && assets.length === 0) {
			const groups = [
				...new Set(
					directory
						.all()
						.map((a) => a.assetGroupName)
						.filter(Boolean),
				),
			].slice(0, 15);
			return {
				kind: 'usage',
				command: this.deps.command,
				message: `No asset group "${group}". Groups: ${groups.join(', ')}`,
			};
		}
		// Large fleets: answer within the budget with what is known; the refresh carries on.
		this.healthRefresh ??= this.refreshConditions(assets).finally(
			() => (this.healthRefresh = undefined),
		);
		await Promise.race([
			this.healthRefresh,
			new Promise((resolve) => setTimeout(resolve, this.deps.healthBudgetMs ?? 8_000).unref()),
		]);
		const byStatus: Record<string, number> = {};
		let known = 0;
		for (const a of assets) {
			const status = this.overall.get(a.id)?.status;
			if (status === undefined) continue;
			known++;
			byStatus[status] = (byStatus[status] ?? 0) + 1;
		}
		const ids = new Set(assets.map((a) => a.id));
		const faults = new Map<number, { asset: AssetRef; count: number }>();
		for (const alert of await alerts.openAlerts()) {
			if (alert.severity !== 'Fault' || !ids.has(alert.asset.id)) continue;
			const entry = faults.get(alert.asset.id) ?? { asset: alert.asset, count: 0 };
			entry.count++;
			faults.set(alert.asset.id, entry);
		}
		// Offline (and unknown) per group, from the connectivity tracker (assumption B30).
		// Undefined until the first state arrives: "none offline" would be a guess before it.
		const offlineByGroup: Record<string, { offline: number; unknown: number }> | undefined =
			(await this.deps.connectivity?.observed()) ? {} : undefined;
		for (const link of offlineByGroup ? ((await this.deps.connectivity?.notOnline()) ?? []) : []) {
			if (!ids.has(link.asset.id)) continue;
			const entry = ((offlineByGroup as Record<string, { offline: number; unknown: number }>)[
				link.asset.group || '-'
			] ??= { offline: 0, unknown: 0 });
			entry[link.state === 'unknown' ? 'unknown' : 'offline']++;
		}
		return {
			kind: 'health',
			group,
			assets: assets.length,
			known,
			byStatus,
			openFaults: [...faults.values()].sort((a, b) => b.count - a.count),
			offlineByGroup,
			sources: this.deps.sources?.(),
		};
	}
}
