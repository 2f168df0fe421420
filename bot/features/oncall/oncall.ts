import type { AlertRecord, AssetRef, LinkButton, SilenceSummary } from '../../kernel/alert';
import type { BotConfig } from '../../config/schema';
import type { AssetDirectory } from '../../platform/directory';
import type { SqlScope } from '../../state/scope';
import { type AlertState, alertState } from '../alerts/state';
import type { MessageRef } from '../alerts/store';
import { nearestNames } from '../../platform/nearest';
import { formatTime } from '../../render/format';
import { describeDuration, parseDuration } from './durations';
import { OnCallStore, type Silence, type SilenceKind } from './store';

export { parseDuration } from './durations';
export type { Silence } from './store';

/** A drive and its motor faulting within this long of each other share one message. */
const INHIBIT_WINDOW_MS = 10 * 60_000;
const MAX_SILENCE_MS = 30 * 86_400_000;

/** Fills `{assetId}`, `{serialNumber}`, `{code}` (also URL-encoded, as URL validation may leave them). */
export const fillLink = (template: string, alert: Pick<AlertRecord, 'asset' | 'code'>) => {
	const values: Record<string, string> = {
		assetid: String(alert.asset.id),
		serialnumber: alert.asset.serialNumber,
		code: alert.code,
	};
	return template.replace(/(?:\{|%7B)(assetId|serialNumber|code)(?:\}|%7D)/gi, (_m, name: string) =>
		encodeURIComponent(values[name.toLowerCase()]),
	);
};

function silenceMatches(s: Silence, asset: AssetRef): boolean {
	if (s.kind === 'asset')
		return s.value === String(asset.id) || s.value === String(asset.powerTrain?.id ?? '');
	if (s.kind === 'group')
		return s.value === asset.group.toLowerCase() || s.value === String(asset.groupId ?? '');
	return s.value === asset.plant.toLowerCase();
}

/** What a person means by pressing the alert's button: take what nobody holds, or take it from its holder. */
export type AckIntent = 'acknowledge' | 'take-over';

export interface AckOutcome {
	/** The sentence for the person. */
	text: string;
	/** Every alert named is closed. */
	closed: boolean;
	/** Who holds it, when an Acknowledge found it taken by someone else a moment before. */
	heldBy?: string;
	/** Who held the first alert before this person (the one taken over from, or before them when they held it already). */
	previousHolder?: string;
}

export type MuteAnswer = { ok: true; silence: Silence; text: string } | { ok: false; text: string };

/**
 * Acknowledgements, silences (maintenance windows), reminders, escalation, inhibition and link
 * buttons: the on-call layer between the alert engine and the dispatcher. Everything it decides
 * is persisted in the state database and reaches Slack through the outbox.
 */
export class OnCall {
	readonly store: OnCallStore;
	private plantCache: { at: number; names: string[] } | undefined;

	constructor(
		private readonly state: AlertState,
		private readonly config: BotConfig,
		private readonly directory: AssetDirectory,
		private readonly onEnqueued: () => void,
		/** The platform's plant names (E2), for `/drive mute plant …`. */
		private readonly plants?: () => Promise<string[]>,
	) {
		this.store = new OnCallStore(state.scope);
	}

	/** The alert as messages show it now: who took it, whether it is muted, its links. */
	present = async (alert: AlertRecord): Promise<AlertRecord> => {
		const links: LinkButton[] = [];
		if (this.config.links.assetPage)
			links.push({ text: 'Asset page', url: fillLink(this.config.links.assetPage, alert) });
		const runbook = this.config.links.runbooks[alert.code] ?? this.config.links.runbooks.default;
		if (runbook)
			links.push({ text: `Runbook ${alert.code}`.slice(0, 75), url: fillLink(runbook, alert) });
		// Two reads that do not depend on each other: at once (on PostgreSQL, two round trips become one).
		const [muted, ack] = await Promise.all([
			this.silenceFor(alert.asset),
			this.store.getAck(alert.key),
		]);
		return { ...alert, ack, links, mutedUntil: muted?.until };
	};

	/** The on-call tables as `scope` reaches them (inside its transaction, when it is bound to one). */
	private storeIn(scope: SqlScope): OnCallStore {
		return scope === this.state.scope ? this.store : new OnCallStore(scope);
	}

	/** The silence covering an asset now, if any. `scope`: the transaction's, when called inside one. */
	async silenceFor(
		asset: AssetRef,
		now = Date.now(),
		scope = this.state.scope,
	): Promise<Silence | undefined> {
		return (await this.silencesFor(asset, now, scope))[0];
	}

	/** Every silence covering an asset now (for `/drive status`). */
	async silencesFor(
		asset: AssetRef,
		now = Date.now(),
		scope = this.state.scope,
	): Promise<Silence[]> {
		return (await this.storeIn(scope).activeSilences()).filter(
			(s) => s.from <= now && now < s.until && silenceMatches(s, asset),
		);
	}

	/** Called by the engine in its transaction (`tx`): true when the alert is recorded instead of posted. */
	async suppress(alert: AlertRecord, channel: string, tx: SqlScope): Promise<boolean> {
		const silence = await this.silenceFor(alert.asset, Date.now(), tx);
		if (!silence) return false;
		await this.storeIn(tx).recordSilenced(silence.id, alert.key, channel);
		return true;
	}

	/** Reminders only for what is still open, not taken and not muted. */
	stillDue = async (alert: AlertRecord): Promise<boolean> =>
		alert.status === 'Open' && !alert.ack && !(await this.silenceFor(alert.asset));

	/** Inhibition: the open message of the other member of this alert's PowerTrain, if recent. */
	inhibit = async (alert: AlertRecord, channel: string): Promise<MessageRef | undefined> => {
		const pt = alert.asset.powerTrain;
		if (!pt || alert.severity !== 'Fault') return undefined;
		for (const other of await this.state.alerts.openAlerts()) {
			if (
				other.key === alert.key ||
				other.asset.id === alert.asset.id ||
				other.asset.powerTrain?.id !== pt.id ||
				other.severity !== 'Fault'
			)
				continue;
			if (Math.abs(Date.parse(other.eventTime) - Date.parse(alert.eventTime)) > INHIBIT_WINDOW_MS)
				continue;
			const ref = await this.state.alerts.getMessage(other.key, channel);
			if (ref?.via === 'message') return ref;
		}
		return undefined;
	};

	/** Acknowledge (or take over) alerts: persisted, then every message showing them is updated. A take-over. */
	async acknowledge(keys: readonly string[], userId: string, now = Date.now()): Promise<string> {
		return (await this.take(keys, userId, 'take-over', now)).text;
	}

	/**
	 * Takes alerts for `userId`, deciding in one transaction, so people acting at the same moment on two replicas end
	 * as if one acted after the other (docs/assumptions.md, the section on Slack payloads acting once): `acknowledge` takes only what
	 * nobody else holds (an alert someone took before, a moment before included, stays with them, and the answer
	 * names them); `take-over` takes it from whoever holds it. Every message showing a changed alert is updated
	 * through the leader's outbox.
	 */
	async take(
		keys: readonly string[],
		userId: string,
		intent: AckIntent,
		now = Date.now(),
	): Promise<AckOutcome> {
		const { taken, already, heldBy, previousHolder } = await this.state.scope.transaction(
			async (tx) => {
				const store = alertState(tx);
				// Fresh on each run of the transaction (it may run again).
				const taken: string[] = [];
				const already: string[] = [];
				const heldBy: Array<{ userId: string; what: string }> = [];
				let previousHolder: string | undefined;
				let first = true;
				const state = this.storeIn(tx);
				for (const key of keys) {
					const event = await store.alerts.getEvent(key);
					if (!event || event.status !== 'Open') continue;
					const ack = await state.getAck(key);
					if (first)
						previousHolder = ack?.userId === userId ? ack.previous.at(-1)?.userId : ack?.userId;
					first = false;
					if (ack?.userId === userId) {
						already.push(event.alert.code);
						continue;
					}
					if (ack && intent === 'acknowledge') {
						heldBy.push({
							userId: ack.userId,
							what: `${event.alert.code} on ${event.alert.asset.name}`,
						});
						continue;
					}
					await state.putAck(key, {
						userId,
						at: now,
						previous: ack ? [...ack.previous, { userId: ack.userId, at: ack.at }] : [],
					});
					taken.push(
						ack
							? `took over ${event.alert.code} on ${event.alert.asset.name} from <@${ack.userId}>`
							: `acknowledged ${event.alert.code} on ${event.alert.asset.name}`,
					);
					for (const ref of await store.alerts.messagesOf(key))
						await store.outbox.enqueue(ref.channel, { kind: 'refresh', key });
				}
				return { taken, already, heldBy, previousHolder };
			},
		);
		if (taken.length > 0) this.onEnqueued();
		const held = heldBy
			.map(
				(h) =>
					`<@${h.userId}> holds ${h.what} already (taken before your Acknowledge arrived), so it stays with them; press Take over to take it from them.`,
			)
			.join(' ');
		if (taken.length > 0)
			return {
				text: `You ${taken.join('; ')}. Reminders for it stop.${held ? ` ${held}` : ''}`,
				closed: false,
				previousHolder,
			};
		if (heldBy.length > 0)
			return { text: held, closed: false, heldBy: heldBy[0].userId, previousHolder };
		if (already.length > 0)
			return { text: 'You already hold this alert.', closed: false, previousHolder };
		return { text: 'This alert is closed already: nothing to acknowledge.', closed: true };
	}

	private groupNames(): string[] {
		return [
			...new Set(
				this.directory
					.all()
					.map((a) => a.assetGroupName)
					.filter((g): g is string => Boolean(g)),
			),
		];
	}

	private async plantNames(): Promise<string[]> {
		if (!this.plants) return [];
		if (this.plantCache === undefined || Date.now() - this.plantCache.at > 10 * 60_000) {
			this.plantCache = {
				at: Date.now(),
				names: await this.plants().catch(() => this.plantCache?.names ?? []),
			};
		}
		return this.plantCache.names;
	}

	/**
	 * Resolves what `/drive mute` names, up to the duration: an asset (id, serial number, name),
	 * an asset group or a plant; `asset`, `group` or `plant` first says which. Unknown names get
	 * the closest ones.
	 */
	private async target(
		words: string[],
	): Promise<
		{ kind: SilenceKind; value: string; label: string; used: number } | { error: string }
	> {
		await this.directory.ensure();
		const head = words[0]?.toLowerCase();
		const keyword = head === 'asset' || head === 'group' || head === 'plant' ? head : undefined;
		const rest = keyword ? words.slice(1) : words;
		const durationAt = rest.findIndex((w) => parseDuration(w) !== undefined);
		const end = durationAt === -1 ? rest.length : durationAt;
		const name = rest.slice(0, end).join(' ');
		const used = (keyword ? 1 : 0) + end;
		if (!name)
			return {
				error: `Name what to mute: an asset, \`group <name>\` or \`plant <name>\`, e.g. \`${this.config.command} mute group Pumps 2h\`.`,
			};
		const q = name.toLowerCase();
		let ambiguous = false;
		if (keyword === undefined || keyword === 'asset') {
			const found = this.directory.lookup(name);
			if (found.kind === 'found')
				return {
					kind: 'asset',
					value: String(found.asset.id),
					label: `${found.asset.name ?? found.asset.id} (${found.asset.serialNumber ?? '-'})`,
					used,
				};
			ambiguous = found.kind === 'ambiguous';
		}
		const groups = keyword === undefined || keyword === 'group' ? this.groupNames() : [];
		const group = groups.find((g) => g.toLowerCase() === q);
		if (group) return { kind: 'group', value: group.toLowerCase(), label: `group ${group}`, used };
		const plants = keyword === undefined || keyword === 'plant' ? await this.plantNames() : [];
		const plant = plants.find((p) => p.toLowerCase() === q);
		if (plant) return { kind: 'plant', value: plant.toLowerCase(), label: `plant ${plant}`, used };
		if (ambiguous)
			return {
				error: `Several assets match "${name}"; use its serial number or id (\`${this.config.command} find ${name}\` lists them).`,
			};
		const near = nearestNames(name, [...groups, ...plants]);
		const what =
			keyword === 'group'
				? 'asset group'
				: keyword === 'plant'
					? 'plant'
					: keyword === 'asset'
						? 'asset'
						: 'asset, group or plant';
		return {
			error: `No ${what} "${name}"${near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : '.'} \`${this.config.command} find <text>\` finds assets.`,
		};
	}

	async mute(words: string[], userId: string | undefined, now = Date.now()): Promise<MuteAnswer> {
		const usage = `Usage: \`${this.config.command} mute <asset|group <name>|plant <name>> <duration> [reason]\`, e.g. \`${this.config.command} mute pump 3 2h pump swap\`.`;
		if (words.length === 0) return { ok: false, text: usage };
		const target = await this.target(words);
		if ('error' in target) return { ok: false, text: target.error };
		const ms = parseDuration(words[target.used] ?? '');
		if (ms === undefined)
			return { ok: false, text: `Say for how long, e.g. 30m, 2h or 1d. ${usage}` };
		if (ms > MAX_SILENCE_MS)
			return { ok: false, text: 'A silence lasts at most 30 days; mute again when it ends.' };
		const reason = words.slice(target.used + 1).join(' ') || undefined;
		return this.addSilence(target.kind, target.value, target.label, ms, reason, userId, now);
	}

	/** The alert's "Mute 2 h" button: its assets, two hours. */
	async muteAssets(assetIds: readonly number[], userId: string, now = Date.now()): Promise<string> {
		const texts: string[] = [];
		for (const id of assetIds) {
			const item = this.directory.byId(id);
			texts.push(
				(
					await this.addSilence(
						'asset',
						String(id),
						`${item?.name ?? `asset ${id}`} (${item?.serialNumber ?? '-'})`,
						2 * 3_600_000,
						'muted from an alert',
						userId,
						now,
					)
				).text,
			);
		}
		return texts.join('\n');
	}

	/** Enqueues a refresh of every message of the open alerts `silence` covers (inside the caller's transaction). */
	private async refreshCovered(store: AlertState, silence: Silence): Promise<void> {
		for (const alert of await store.alerts.openAlerts()) {
			if (!silenceMatches(silence, alert.asset)) continue;
			for (const ref of await store.alerts.messagesOf(alert.key))
				await store.outbox.enqueue(ref.channel, { kind: 'refresh', key: alert.key });
		}
	}

	private async addSilence(
		kind: SilenceKind,
		value: string,
		label: string,
		ms: number,
		reason: string | undefined,
		userId: string | undefined,
		now: number,
	): Promise<MuteAnswer> {
		const silence = await this.state.scope.transaction(async (tx) => {
			const s = await this.storeIn(tx).addSilence({
				kind,
				value,
				label,
				from: now,
				until: now + ms,
				reason,
				createdBy: userId,
			});
			// Open alerts of what is now muted show it (and stop reminding).
			await this.refreshCovered(alertState(tx), s);
			return s;
		});
		this.onEnqueued();
		// In the bot's time zone, as every other time it shows.
		const until = formatTime(new Date(silence.until).toISOString(), this.config.timeZone);
		return {
			ok: true,
			silence,
			text: `Muted ${label} for ${describeDuration(ms)} (until ${until})${reason ? `: ${reason}` : ''}. Alerts are recorded, not posted; a summary follows when the silence ends.`,
		};
	}

	async unmute(words: string[], userId: string | undefined, now = Date.now()): Promise<string> {
		const active = await this.store.activeSilences();
		let ended: Silence[];
		if (
			words.length === 1 &&
			/^#?\d+$/.test(words[0]) &&
			active.some((s) => String(s.id) === words[0].replace('#', ''))
		) {
			ended = active.filter((s) => String(s.id) === words[0].replace('#', ''));
		} else if (words.length > 0) {
			const target = await this.target(words);
			if ('error' in target) return target.error;
			ended = active.filter((s) => s.kind === target.kind && s.value === target.value);
		} else
			return `Usage: \`${this.config.command} unmute <asset|group <name>|plant <name>|silence id>\`; \`${this.config.command} mutes\` lists them.`;
		if (ended.length === 0) return 'Nothing like that is muted. `mutes` lists the active silences.';
		for (const s of ended) await this.end(s, userId, now);
		return `Unmuted ${ended.map((s) => s.label).join(', ')}. A summary of what happened during the silence is posted.`;
	}

	/** Active silences, soonest end first. */
	async mutes(now = Date.now()): Promise<Silence[]> {
		return (await this.store.activeSilences())
			.filter((s) => s.until > now)
			.sort((a, b) => a.until - b.until);
	}

	/** Ends a silence: one summary per channel its recorded alerts were routed to. */
	private async end(silence: Silence, endedBy: string | undefined, now: number): Promise<void> {
		const changed = await this.state.scope.transaction(async (tx) => {
			const store = alertState(tx);
			const state = this.storeIn(tx);
			// Another replica (or a second click) ended it already: its summary went out once.
			if ((await state.getSilence(silence.id))?.ended !== false) return false;
			await state.endSilence(silence.id, endedBy, now);
			const byChannel = new Map<string, AlertRecord[]>();
			for (const { key, channel } of await state.silencedEvents(silence.id)) {
				const alert = (await store.alerts.getEvent(key))?.alert;
				if (!alert || (await store.alerts.getMessage(key, channel))) continue;
				byChannel.set(channel, [...(byChannel.get(channel) ?? []), alert]);
			}
			for (const [channel, alerts] of byChannel) {
				const summary: SilenceSummary = {
					scope: silence.label,
					reason: silence.reason,
					from: silence.from,
					until: Math.min(silence.until, now),
					endedBy,
					alerts,
				};
				await store.outbox.enqueue(channel, { kind: 'silence_summary', summary });
			}
			await this.refreshCovered(store, silence);
			return true;
		});
		if (changed) this.onEnqueued();
	}

	/** Ends the silences whose time is up: each one's summary is posted, once across replicas. */
	async endExpired(now = Date.now()): Promise<void> {
		for (const s of await this.store.activeSilences())
			if (s.until <= now) await this.end(s, undefined, now);
	}
}
