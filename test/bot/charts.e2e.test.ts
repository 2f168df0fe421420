import { drain, pollOnce } from './leader';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { commandMessage } from '../../bot/blocks/command';
import { renderSeriesChart } from '../../bot/features/charts/render';
import { messageToText } from '../../bot/render/text';
import { textChart } from '../../bot/features/charts/text';
import { createPlatformClient } from '../../bot/platform/client';
import type { ParamSeries } from '../../bot/platform/types';
import type { Bot } from '../../bot/app/start';
import { ceilToSecond } from '../../shared/time';
import type { Simulator } from '../../simulator';
import { fakeSlackToken, waitFor } from './helpers';
import { cbmDrive, credentialsOf, startTestBot } from './harness';
import { useFixture } from './use-fixture';
import { blockKitProblems, type SlackApiServer, type UploadedFile } from './slack-server';

// Signals and charts: `/drive trend` posts a PNG drawn by chart.js with one
// point per platform point, a min-max band for aggregates and gaps where there is no value;
// `/drive status` shows the latest values with units; CBM warnings carry the KPI chart.
const botToken = fakeSlackToken('b');
const CHANNEL = 'C0CHARTS1';
const f = useFixture(botToken, { push: false });
let sim: Simulator;
let slack: SlackApiServer;
let bot: Bot;
let frozen = 0;

beforeAll(async () => {
	({ sim, slack } = f);
	frozen = Math.floor(sim.clock.now() / 60_000) * 60_000;
	bot = f.bot = await startTestBot({
		sim,
		slackApiUrl: slack.apiUrl,
		botToken,
		stateFile: f.state.file,
		logger: f.logger,
		now: () => frozen,
	});
});

/** Width and height from the PNG header, and the share of pixels that are not white. */
async function inspectPng(data: Buffer): Promise<{ width: number; height: number; inked: number }> {
	expect(data.subarray(0, 8)).toEqual(
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
	);
	const width = data.readUInt32BE(16);
	const height = data.readUInt32BE(20);
	const image = await loadImage(data);
	const canvas = createCanvas(width, height);
	const context = canvas.getContext('2d');
	context.drawImage(image, 0, 0);
	const pixels = context.getImageData(0, 0, width, height).data;
	let inked = 0;
	for (let i = 0; i < pixels.length; i += 4)
		if (pixels[i] < 240 || pixels[i + 1] < 240 || pixels[i + 2] < 240) inked++;
	return { width, height, inked: inked / (width * height) };
}

function pngIn(channel: string, prefix: string): UploadedFile | undefined {
	return [...slack.files.values()].find(
		(file) =>
			file.channel === slack.channelId(channel) &&
			file.filename.startsWith(prefix) &&
			file.data !== undefined,
	);
}

test('/drive trend posts a PNG chart with one point per platform point and a min-max band', async () => {
	const drive = cbmDrive(sim);
	const answer = await bot.commands.handle(`trend ${drive.serialNumber} current 24h`, {
		channel: CHANNEL,
	});
	if (answer.kind !== 'trend')
		throw new Error(`expected a trend answer, got ${JSON.stringify(answer)}`);
	expect(answer.parameter).toEqual({ label: 'Current', unit: 'A', code: '01.07' });
	expect(answer.band).toBe(true);
	// The same window asked of the platform directly: the chart has exactly its points.
	const platform = createPlatformClient(credentialsOf(sim, 'VENDOR'), f.logger);
	const end = ceilToSecond(new Date(frozen));
	const direct = await platform.assetData.queryTrendSignalData({
		assetId: drive.id,
		parameters: ['01.07'],
		startTime: new Date(end.getTime() - 86_400_000),
		endTime: end,
	});
	await platform.close();
	const points = direct.paramDatas[0].timestamp.length;
	expect(points).toBeGreaterThanOrEqual(24 * 12); // 5-minute aggregates over a day
	expect(answer.points).toBe(points);
	expect(answer.drawn).toBe(points);
	expect(answer.gaps).toBe(direct.paramDatas[0].avg.filter((v) => v === null).length);
	// Slack's line chart beside it: 20 averaged points on distinct times, valid as Slack takes it.
	expect(answer.chart).toHaveLength(20);
	expect(new Set(answer.chart?.map((p) => p.label)).size).toBe(20);
	const message = commandMessage(answer, 'UTC');
	expect(message.blocks.filter((b) => b.type === 'data_visualization')).toHaveLength(1);
	expect(blockKitProblems(message.text, message.blocks, message.attachments)).toEqual([]);
	const file = await waitFor('the chart upload', () =>
		pngIn(CHANNEL, `trend-${drive.serialNumber}-01.07-24h`),
	);
	const png = await inspectPng(file.data as Buffer);
	expect([png.width, png.height]).toEqual([1000, 480]);
	expect(png.inked).toBeGreaterThan(0.02);
	expect(answer.textChart.split('\n')).toHaveLength(8);
	// The terminal mode prints the same answer as text: the chart's lines, without Slack's code fence.
	const printed = messageToText(commandMessage(answer, '+08:00'), () => '');
	expect(printed).not.toContain('```');
	expect(printed.split('\n').filter((line) => line.includes('│'))).toHaveLength(8);
});

test("an unknown signal is answered with the asset's signals, and nothing is posted", async () => {
	const drive = cbmDrive(sim);
	const before = slack.files.size;
	const answer = await bot.commands.handle(`trend ${drive.serialNumber} humidity 7d`, {
		channel: CHANNEL,
	});
	expect(answer.kind === 'usage' && answer.message).toContain('Current (01.07)');
	expect(slack.files.size).toBe(before);
});

test('/drive status shows the latest values of the main signals with their units', async () => {
	const drive = cbmDrive(sim);
	sim.control.setGatewayOnline(drive.id, true);
	const answer = await bot.commands.handle(`status ${drive.serialNumber}`);
	if (answer.kind !== 'status' || !Array.isArray(answer.signals))
		throw new Error(`expected signals, got ${JSON.stringify(answer)}`);
	const units = Object.fromEntries(answer.signals.map((s) => [s.label, s.unit]));
	expect(units).toMatchObject({ Speed: 'rpm', Current: 'A' });
	expect(Object.values(units)).toContain('°C');
	for (const s of answer.signals) expect(Number.isFinite(s.value)).toBe(true);
});

test('a point without value is a gap in the PNG and in the text chart', async () => {
	const n = 120;
	const timestamp = Array.from({ length: n }, (_, i) => 1_700_000_000_000 + i * 300_000);
	const wave = (i: number) => (i >= 50 && i < 80 ? null : 40 + 10 * Math.sin(i / 8));
	const series: ParamSeries = {
		config: { name: 'Motor current', code: '01.07', label: 'Current', unit: 'A' },
		avg: timestamp.map((_, i) => wave(i)),
		min: timestamp.map((_, i) => (wave(i) === null ? null : (wave(i) as number) - 3)),
		max: timestamp.map((_, i) => (wave(i) === null ? null : (wave(i) as number) + 3)),
		value: timestamp.map((_, i) => wave(i)),
		timestamp,
	};
	const chart = renderSeriesChart(series, { title: 'gap', timeZone: 'UTC', zoneLabel: 'UTC' });
	expect(chart.points).toBe(n);
	const image = await loadImage(chart.png);
	const canvas = createCanvas(chart.width, chart.height);
	const context = canvas.getContext('2d');
	context.drawImage(image, 0, 0);
	const pixels = context.getImageData(0, 0, chart.width, chart.height).data;
	// Columns holding the line's colour (rgb 20,90,160), below the legend.
	const lineColumns = new Set<number>();
	for (let y = 60; y < chart.height - 40; y++) {
		for (let x = 0; x < chart.width; x++) {
			const i = (y * chart.width + x) * 4;
			if (
				Math.abs(pixels[i] - 20) < 30 &&
				Math.abs(pixels[i + 1] - 90) < 30 &&
				Math.abs(pixels[i + 2] - 160) < 30
			)
				lineColumns.add(x);
		}
	}
	const columns = [...lineColumns].sort((a, b) => a - b);
	let widest = 0;
	for (let i = 1; i < columns.length; i++) widest = Math.max(widest, columns[i] - columns[i - 1]);
	const plotWidth = columns[columns.length - 1] - columns[0];
	// 30 of 120 points missing: about a quarter of the plot has no line.
	expect(widest / plotWidth).toBeGreaterThan(0.2);
	expect(widest / plotWidth).toBeLessThan(0.3);
	const text = textChart(series, 60, 8).split('\n');
	const blankColumns = Array.from({ length: 60 }, (_, c) =>
		text.every((row) => row[row.indexOf('│') + 1 + c] === ' '),
	).filter(Boolean).length;
	expect(blankColumns).toBeGreaterThanOrEqual(13);
});

test('a CBM warning carries its 30-day KPI chart in its thread', async () => {
	const drive = cbmDrive(sim);
	// A unit already Yellow at the first sighting goes into the start's CBM digest (B47); one that
	// turns Yellow later gets its own message.
	await pollOnce(bot, true);
	sim.control.setCbmUnit(drive.id, 'IGBT', 'Yellow');
	await pollOnce(bot, true);
	await drain(bot, 10_000);
	const message = await waitFor('the CBM message', () =>
		slack.posts().find((m) => !m.threadTs && m.text.startsWith('CBM Yellow: IGBT')),
	);
	const file = await waitFor('the KPI chart', () =>
		[...slack.files.values()].find(
			(x) => x.threadTs === message.ts && x.filename.startsWith('cbm-kpi-'),
		),
	);
	const png = await inspectPng(file.data as Buffer);
	expect([png.width, png.height]).toEqual([1000, 480]);
	expect(png.inked).toBeGreaterThan(0.02);
	expect(slack.problems).toEqual([]);
});
