import type { BudgetStatus } from '../../platform/budget';
import type { SourceStatus } from '../../kernel/source-status';

/**
 * What `/readyz` says about the alert sources (B50): not ready while a source lags beyond its
 * threshold or a configured push user is not connected; each reason in the operator's terms.
 */
export function sourcesReadiness(sources: readonly SourceStatus[]): {
	ready: boolean;
	reasons: string[];
} {
	const reasons: string[] = [];
	for (const s of sources) {
		if (s.lagSeconds > s.lagThresholdSeconds)
			reasons.push(
				`alerts by ${s.kind} are ${s.lagSeconds} s behind (threshold ${s.lagThresholdSeconds} s)`,
			);
		if (s.receivers && s.receivers.connected < s.receivers.configured)
			reasons.push(
				`${s.receivers.configured - s.receivers.connected} of ${s.receivers.configured} push users not connected`,
			);
	}
	return { ready: reasons.length === 0, reasons };
}

/** Gauge values for `/metrics`: name, labels, value (the names are the coordinator's to keep or rename). */
export function sourceGauges(
	sources: readonly SourceStatus[],
	budget?: BudgetStatus,
): Array<{ name: string; labels: Record<string, string>; value: number }> {
	const gauges: Array<{ name: string; labels: Record<string, string>; value: number }> = [];
	for (const s of sources) {
		gauges.push({
			name: 'drive_bot_source_lag_seconds',
			labels: { source: s.kind },
			value: s.lagSeconds,
		});
		if (s.busyLagSeconds !== undefined)
			gauges.push({
				name: 'drive_bot_source_busy_lag_seconds',
				labels: { source: s.kind },
				value: s.busyLagSeconds,
			});
		if (s.setAside)
			for (const [fn, n] of Object.entries(s.setAside))
				gauges.push({
					name: 'drive_bot_poll_set_aside_assets',
					labels: { function: fn },
					value: n,
				});
		if (s.receivers)
			gauges.push({
				name: 'drive_bot_push_users_connected',
				labels: {},
				value: s.receivers.connected,
			});
	}
	if (budget) {
		gauges.push({
			name: 'drive_bot_platform_budget_per_second',
			labels: {},
			value: budget.currentPerSecond,
		});
		gauges.push({ name: 'drive_bot_platform_in_flight', labels: {}, value: budget.inFlight });
		gauges.push({
			name: 'drive_bot_platform_rate_limited_total',
			labels: {},
			value: budget.rateLimited,
		});
	}
	return gauges;
}
