import type { BotConfig } from '../config/schema';
import type { CbmResult, PlatformEvent } from '../platform/types';
import type { StateStore } from '../state/store';
import { type AlertRecord, type AssetRef, type CbmAlert, cbmKey, cbmSeverity, eventKey } from './model';
import { meetsSeverity, routeAlert } from './routing';

export type AssetResolver = (assetId: number) => Promise<AssetRef>;

const ALERTING = new Set(['Yellow', 'Red']);

/**
 * Turns what the sources observe (events, CBM results) into outbox entries, once: an event
 * already posted, or a CBM status already known, changes nothing. Each observation is one
 * transaction, finished before the source acknowledges it.
 */
export class AlertEngine {
  constructor(
    private readonly store: StateStore,
    private readonly config: BotConfig,
    private readonly resolveAsset: AssetResolver,
    private readonly onEnqueued: () => void,
    /** Silences: an alert it covers is recorded for the silence's summary instead of posted. */
    private readonly suppress?: (alert: AlertRecord, channel: string) => boolean,
  ) {}

  /** Returns true when the observation produced Slack work. */
  async observeEvent(assetId: number, event: PlatformEvent): Promise<boolean> {
    const severity = event.eventType;
    if (!meetsSeverity(severity, this.config.alerts.minSeverity)) return false;
    const key = eventKey(assetId, event.id);
    const status = event.eventStatus === 'Close' ? 'Close' : 'Open';
    const known = this.store.getEvent(key);
    if (known && (known.status === status || known.status === 'Close')) return false;
    const asset = known?.alert.asset ?? (await this.resolveAsset(assetId));
    const alert: AlertRecord = {
      key,
      eventId: String(event.id),
      severity,
      asset,
      code: event.eventCode ?? '',
      content: event.content ?? '',
      eventTime: event.eventDateTime ?? new Date().toISOString(),
      status,
      closeReason: event.closeReason ?? undefined,
      closeAt: event.closeAt ?? undefined,
      deviceWorkStatus: event.deviceWorkStatus ?? undefined,
      hasLogger: event.isHasEventLogger === true,
    };
    const changed = this.store.transaction(() => {
      const again = this.store.getEvent(key); // another source may have won the race
      if (again && (again.status === status || again.status === 'Close')) return false;
      this.store.putEvent(alert);
      for (const channel of routeAlert(this.config.alerts, asset, severity)) {
        // A muted alert never posted stays in the silence's summary (which shows its close).
        if (this.suppress && this.store.getMessage(key, channel) === undefined && this.suppress(alert, channel)) continue;
        this.store.enqueue(channel, again ? { kind: 'resolve', alert } : { kind: 'alert', alert });
      }
      return true;
    });
    if (changed) this.onEnqueued();
    return changed;
  }

  async observeCbm(assetId: number, results: readonly CbmResult[]): Promise<boolean> {
    if (!this.config.cbm.enabled) return false;
    const changes = results.filter((unit) => this.store.getCbmStatus(cbmKey(assetId, unit.deviceUnitType)) !== unit.deviceUnitStatus);
    if (changes.length === 0) return false;
    const asset = await this.resolveAsset(assetId);
    let posted = false;
    this.store.transaction(() => {
      for (const unit of changes) {
        const key = cbmKey(assetId, unit.deviceUnitType);
        const previous = this.store.getCbmStatus(key);
        if (previous === unit.deviceUnitStatus) continue;
        const cbm = toCbmAlert(key, asset, unit, previous);
        this.store.putCbmStatus(cbm);
        const recovered = unit.deviceUnitStatus === 'Good' && previous !== undefined && ALERTING.has(previous);
        if (!ALERTING.has(unit.deviceUnitStatus) && !recovered) continue;
        const severity = cbmSeverity(recovered ? (previous as string) : unit.deviceUnitStatus);
        for (const channel of routeAlert(this.config.alerts, asset, severity)) {
          this.store.enqueue(channel, recovered ? { kind: 'cbm_good', cbm } : { kind: 'cbm', cbm });
          posted = true;
        }
      }
    });
    if (posted) this.onEnqueued();
    return posted;
  }
}

export function toCbmAlert(key: string, asset: AssetRef, unit: CbmResult, previous?: string): CbmAlert {
  return {
    key,
    asset,
    unit: unit.deviceUnitType,
    status: unit.deviceUnitStatus,
    previous,
    predictedNoPlanDate: unit.predictedNoPlanDate ?? undefined,
    predictedStartPlanDate: unit.predictedStartPlanDate ?? undefined,
    predictedRunPlanDate: unit.predictedRunPlanDate ?? undefined,
    kpis: (unit.deviceDayKPIs ?? [])
      .map((k) => ({ date: k.date ?? '', kpi: k.kpi ?? 0 }))
      .sort((a, b) => a.date.localeCompare(b.date)),
  };
}
