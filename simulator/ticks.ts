import type { EventType } from './data/events';
import { isCbmCapable, type AssetRec } from './fleet/model';
import type { Platform } from './platform';
import { Random } from './random';
import { DAY, HOUR, MINUTE, isoUtc } from './time';

/** At most this many missed ticks are replayed after a clock jump; older ones are skipped. */
const MAX_CATCH_UP = 48;
const MAX_GENERATED_PER_POLL = 1000;

/**
 * Time-driven behaviour on the simulated clock: reports finishing, the hourly state and daily
 * CBM notifications, and the demo event generator (`eventRatePerMinute`, off when 0).
 */
export class Ticker {
	private lastHour: number;
	private lastDay: number;
	private lastGenerated: number;
	private readonly random: Random;

	constructor(
		private readonly platform: Platform,
		private readonly eventRatePerMinute: number,
	) {
		const now = platform.now();
		this.lastHour = Math.floor(now / HOUR);
		this.lastDay = Math.floor(now / DAY);
		this.lastGenerated = now;
		this.random = new Random(platform.seed ^ 0x9e3779b9);
	}

	poll(): void {
		const now = this.platform.now();
		this.platform.finishDueReports();
		const hour = Math.floor(now / HOUR);
		for (let h = Math.max(this.lastHour + 1, hour - MAX_CATCH_UP + 1); h <= hour; h++)
			this.emitHourly(h * HOUR);
		this.lastHour = Math.max(this.lastHour, hour);
		const day = Math.floor(now / DAY);
		for (let d = Math.max(this.lastDay + 1, day - MAX_CATCH_UP + 1); d <= day; d++)
			this.emitDaily(d * DAY);
		this.lastDay = Math.max(this.lastDay, day);
		this.generate(now);
	}

	emitHourly(time: number): void {
		const byOrg = new Map<number, Array<{ assetId: number; online: boolean; time: string }>>();
		for (const asset of this.platform.store.assets()) {
			if (asset.assetType === 'PowerTrain') continue;
			const states = byOrg.get(asset.orgId) ?? [];
			states.push({
				assetId: asset.id,
				online: this.platform.series.online(asset, time),
				time: isoUtc(time),
			});
			byOrg.set(asset.orgId, states);
		}
		for (const [orgId, states] of byOrg) this.platform.bus.emit('state.hourly', { orgId, states });
	}

	emitDaily(time: number): void {
		for (const asset of this.platform.store.assets()) {
			const standing = this.platform.store.standing(asset, time);
			if (
				!isCbmCapable(asset) ||
				standing.kind !== 'active' ||
				(standing.level !== 'Standard' && standing.level !== 'Premium')
			)
				continue;
			const results = this.platform.health.cbm(asset, time) as unknown as Array<
				Record<string, unknown>
			>;
			this.platform.bus.emit('cbm.daily', { orgId: asset.orgId, assetId: asset.id, results });
		}
	}

	private generate(now: number): void {
		if (this.eventRatePerMinute <= 0) return;
		const interval = MINUTE / this.eventRatePerMinute;
		let made = 0;
		let candidates: AssetRec[] | undefined;
		while (this.lastGenerated + interval <= now && made < MAX_GENERATED_PER_POLL) {
			this.lastGenerated += interval;
			made++;
			candidates ??= this.platform.store
				.assets()
				.filter(
					(a) =>
						a.assetType !== 'PowerTrain' && this.platform.store.standing(a, now).kind !== 'expired',
				);
			if (candidates.length === 0) return;
			const open = this.platform.events.openLiveEvents();
			if (open.length > 0 && this.random.next() < 0.35) {
				const event = this.random.pick(open);
				this.platform.emitEventClosed(
					this.platform.events.close(event, 'Reset by operator', this.lastGenerated),
				);
				continue;
			}
			const roll = this.random.next();
			const eventType: EventType = roll < 0.3 ? 'Fault' : roll < 0.75 ? 'Warning' : 'Notification';
			const event = this.platform.events.raise(
				this.random.pick(candidates),
				{ eventType },
				this.lastGenerated,
			);
			this.platform.emitEventCreated(event);
		}
		if (made === MAX_GENERATED_PER_POLL) this.lastGenerated = now;
	}
}
