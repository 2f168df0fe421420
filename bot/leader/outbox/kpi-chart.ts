import type { Notice, Notifier, Posted } from '../../kernel/notice';
import { type BotLogger, errorText } from '../../log';
import type { Publisher } from '../../kernel/publisher';
import { renderKpiChart } from '../../features/charts/render';

/**
 * CBM warnings carry their 30-day KPI chart (issue 12, item 8): after the alert is posted, the
 * chart is uploaded into its thread. A failed upload is logged, never retried through the
 * outbox, so the warning itself is never posted twice for it (assumption B42).
 */
export function withKpiCharts(notifier: Notifier, files: Publisher, logger: BotLogger): Notifier {
	return {
		async post(channel: string, notice: Notice, threadTs?: string, tag?: string): Promise<Posted> {
			const posted = await notifier.post(channel, notice, threadTs, tag);
			if (notice.kind === 'cbm' && notice.cbm.kpis.length > 0) {
				const { cbm } = notice;
				try {
					const chart = renderKpiChart(cbm.kpis, `${cbm.unit} of ${cbm.asset.name}`);
					await files.upload(
						posted.channelId,
						{
							data: chart.png,
							filename: `cbm-kpi-${cbm.asset.serialNumber}-${cbm.unit}.png`,
							title: `${cbm.unit} of ${cbm.asset.name}: 30-day KPI`,
							altText: `Daily CBM KPI of the ${cbm.unit} of ${cbm.asset.name}, last 30 days`,
						},
						`30-day KPI of the ${cbm.unit} (${cbm.status} now)`,
						posted.ts,
					);
				} catch (error) {
					logger.warn(`cbm: KPI chart of ${cbm.key} not uploaded (${errorText(error)})`);
				}
			}
			return posted;
		},
		update: (channelId, ts, notice, tag) => notifier.update(channelId, ts, notice, tag),
		// The wrapped notifier's tag and lookups are what keep posts and updates exactly once (assumption B12).
		...(notifier.find ? { find: notifier.find.bind(notifier) } : {}),
		...(notifier.updated ? { updated: notifier.updated.bind(notifier) } : {}),
	};
}
