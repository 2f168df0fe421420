/** Formatting shared by the Block Kit builders and the terminal renderer. */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** `2026-11-21 22:07 (UTC+08:00)` for an ISO instant, in the configured zone. */
export function formatTime(iso: string | undefined | null, timeZone: string): string {
	if (!iso) return 'unknown';
	const date = new Date(iso);
	if (Number.isNaN(date.getTime())) return iso;
	let formatter = formatters.get(timeZone);
	if (!formatter) {
		formatter = new Intl.DateTimeFormat('en-CA', {
			timeZone,
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
			hourCycle: 'h23',
		});
		formatters.set(timeZone, formatter);
	}
	const parts = Object.fromEntries(formatter.formatToParts(date).map((p) => [p.type, p.value]));
	return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} (${zoneLabel(timeZone)})`;
}

function zoneLabel(timeZone: string): string {
	return /^[+-]\d{2}:\d{2}$/.test(timeZone) ? `UTC${timeZone}` : timeZone;
}

const WORK_STATUS: Record<number, string> = { 0: 'unknown', 1: 'running', 2: 'standby' };

export function workStatusLabel(status: number | undefined): string {
	return status === undefined ? 'unknown' : (WORK_STATUS[status] ?? `code ${status}`);
}

export function severityEmoji(severity: string): string {
	if (severity === 'Fault') return ':red_circle:';
	if (severity === 'Warning') return ':large_orange_circle:';
	return ':large_blue_circle:';
}

export function cbmEmoji(status: string): string {
	return (
		(
			{
				Red: ':red_circle:',
				Yellow: ':large_yellow_circle:',
				Good: ':large_green_circle:',
			} as Record<string, string>
		)[status] ?? ':white_circle:'
	);
}

export function conditionEmoji(status: string): string {
	return (
		(
			{
				Poor: ':red_circle:',
				Tolerable: ':large_yellow_circle:',
				Good: ':large_green_circle:',
			} as Record<string, string>
		)[status] ?? ':white_circle:'
	);
}

/** The spec's KPI scale: 0.0 unknown, 0.01 green, 0.5 yellow, 1.0 red. */
function kpiLevel(kpi: number): 0 | 1 | 2 | 3 {
	if (!(kpi > 0)) return 0;
	if (kpi < 0.5) return 1;
	if (kpi < 1) return 2;
	return 3;
}

/** A one-line chart of the daily KPIs, oldest first: ` ▁▄█` in text, coloured squares in Slack. */
export function sparkline(kpis: ReadonlyArray<{ kpi: number }>, style: 'text' | 'slack'): string {
	const text = ['·', '▁', '▄', '█'];
	const slack = [
		':white_small_square:',
		':large_green_square:',
		':large_yellow_square:',
		':large_red_square:',
	];
	const glyphs = style === 'text' ? text : slack;
	return kpis.map((k) => glyphs[kpiLevel(k.kpi)]).join('');
}

export function truncate(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Slack mrkdwn treats &, < and > as control characters. */
export function escapeMrkdwn(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function assetLine(asset: { name: string; serialNumber: string }): string {
	return `${asset.name} (${asset.serialNumber})`;
}
