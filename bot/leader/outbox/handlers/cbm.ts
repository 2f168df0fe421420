import { renderKpiChart } from '../../../features/charts/render';
import type { CbmAlert } from '../../../kernel/alert';
import type { Posted } from '../../../kernel/notice';
import type { Publisher } from '../../../kernel/publisher';
import { type BotLogger, errorText } from '../../../log';
import type { Handler } from './context';

/** A CBM unit turned Yellow or Red: a message of its own, its 30-day KPI chart in the thread. */
export const sendCbm: Handler<'cbm'> = async (ctx, item) => {
	const { publisher } = ctx;
	const { ts } = await ctx.once.post(
		ctx.call,
		'post',
		ctx.channel,
		{ kind: 'cbm', cbm: item.cbm },
		{
			made:
				publisher && item.cbm.kpis.length > 0
					? (posted) => uploadKpiChart(item.cbm, posted, publisher, ctx.logger)
					: undefined,
		},
	);
	await ctx.state.cbm.putMessage(item.cbm.key, ctx.channel, ts);
};

/**
 * The warning's chart, uploaded into its thread once the post is made. A failed upload is logged, never retried
 * through the outbox, so the warning itself is never posted twice for it (assumption B42).
 */
async function uploadKpiChart(
	cbm: CbmAlert,
	posted: Posted,
	publisher: Publisher,
	logger: BotLogger,
): Promise<void> {
	try {
		const chart = renderKpiChart(cbm.kpis, `${cbm.unit} of ${cbm.asset.name}`);
		await publisher.upload(
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
