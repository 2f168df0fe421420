import type { AlertRecord } from '../../bot/kernel/alert';
import { routeAlert } from '../../bot/features/alerts/routing';
import { alertMessage, reminderReply } from '../../bot/blocks/alert';
import { silenceSummaryMessage } from '../../bot/blocks/silence';
import { cbmMessage } from '../../bot/blocks/cbm';
import { DIGEST_MAX_LINES, digestMessage } from '../../bot/blocks/digest';
import { parseConfig } from '../../bot/config/load';
import { redact } from '../../bot/log';
import { messageToText } from '../../bot/render/text';
import { fakeSlackToken } from './helpers';
import { blockKitProblems } from './slack-server';

const asset = {
	id: 7,
	name: 'Pump 3 drive',
	serialNumber: 'D12345678',
	organization: 'Harbor Water',
	organizationId: 2,
	group: 'Pumps',
	groupId: 11,
	plant: 'North Plant',
};

function alert(i: number, content = 'Overcurrent'): AlertRecord {
	return {
		key: `7:${i}`,
		eventId: String(500_000 + i),
		severity: i % 3 ? 'Fault' : 'Warning',
		asset,
		code: '2310',
		content,
		eventTime: '2026-11-21T14:00:00Z',
		status: 'Open',
		deviceWorkStatus: 2,
		hasLogger: true,
	};
}

test('an alert shows its time in the configured zone and stays within Block Kit limits with huge content', () => {
	const message = alertMessage(alert(1, 'x'.repeat(10_000)), '+08:00');
	expect(blockKitProblems(message.text, message.blocks)).toEqual([]);
	expect(JSON.stringify(message.blocks)).toContain('2026-11-21 22:00:00 (UTC+08:00)');
	const resolved = alertMessage(
		{ ...alert(2), status: 'Close', closeAt: '2026-11-21T15:30:00Z', closeReason: 'Reset' },
		'UTC',
	);
	expect(resolved.text).toMatch(/^✅ Resolved: /);
	expect(JSON.stringify(resolved.blocks)).toContain('2026-11-21 15:30:00 (UTC): Reset');
});

test('a full digest lists every alert it covers and is a valid message', () => {
	const alerts = Array.from({ length: DIGEST_MAX_LINES }, (_, i) =>
		alert(i, `Fault text ${'y'.repeat(400)}`),
	);
	const message = digestMessage(alerts, [], '+08:00');
	expect(blockKitProblems(message.text, message.blocks)).toEqual([]);
	const json = JSON.stringify(message.blocks);
	for (const a of alerts) expect(json).toContain(`event ${a.eventId}`);
});

test('a CBM message carries the predicted dates and the 30-day sparkline; text rendering shows it', () => {
	const kpis = Array.from({ length: 30 }, (_, i) => ({
		date: `2026-10-${String(i + 1).padStart(2, '0')}`,
		kpi: i < 20 ? 0.01 : i < 27 ? 0.5 : 1,
	}));
	const message = cbmMessage({
		key: '7:Fan',
		asset,
		unit: 'Fan',
		status: 'Red',
		previous: 'Yellow',
		predictedStartPlanDate: '2026-12-01',
		kpis,
	});
	expect(blockKitProblems(message.text, message.blocks)).toEqual([]);
	const text = messageToText(message, () => '');
	expect(text).toContain(`${'▁'.repeat(20)}${'▄'.repeat(7)}${'█'.repeat(3)}`);
	expect(text).toContain('2026-12-01 (UTC+8)');
	expect(text).toContain('already past');
});

test('routes match organization, group and severity in order; continue fans out; no match goes to the default', () => {
	const { alerts } = parseConfig({
		alerts: {
			defaultChannel: '#everything',
			routes: [
				{
					organization: 2,
					assetGroup: 'pumps',
					severity: ['Fault'],
					channel: '#pump-faults',
					continue: true,
				},
				{ organization: 'Harbor Water', channel: '#harbor' },
				{ channel: '#never' },
			],
		},
	});
	expect(routeAlert(alerts, asset, 'Fault')).toEqual(['#pump-faults', '#harbor']);
	expect(routeAlert(alerts, asset, 'Warning')).toEqual(['#harbor']);
	expect(
		routeAlert(alerts, { ...asset, organization: 'Other', organizationId: 3 }, 'Fault'),
	).toEqual(['#never']);
	expect(routeAlert(parseConfig({}).alerts, asset, 'Fault')).toEqual(['#drive-alerts']);
});

test('configuration defaults and time zone spellings', () => {
	const config = parseConfig({ timeZone: 'UTC+8' });
	expect(config.timeZone).toBe('+08:00');
	expect(config.command).toBe('/drive');
	expect(config.source.kind).toBe('push');
	expect(config.alerts.minSeverity).toBe('Fault');
	expect(parseConfig({ timeZone: 'Asia/Shanghai' }).timeZone).toBe('Asia/Shanghai');
	expect(() => parseConfig({ alerts: { routes: [{ channel: 'general' }] } })).toThrow(
		/alerts\.routes\.0\.channel \(found "general"\): .*#drive-alerts/,
	);
});

test('Slack tokens and bearer tokens are redacted from log lines', () => {
	const bot = fakeSlackToken('b');
	const app = fakeSlackToken('app');
	const line = redact(`token=${bot} app=${app} Authorization: Bearer abc.def.ghi`);
	expect(line).not.toContain(bot);
	expect(line).not.toContain(app);
	expect(line).not.toContain('abc.def.ghi');
	expect(line).toContain('[redacted]');
});

test('on-call messages stay within Block Kit limits: PowerTrain pair, reminder, a silence summary of 2,000 alerts', () => {
	const pt = { ...asset, powerTrain: { id: 99, name: 'Pump 3' } };
	const pair = alertMessage(
		{
			...alert(1),
			asset: pt,
			ack: { userId: 'U0ALICE', at: 0, previous: [{ userId: 'U0BOB', at: 0 }] },
		},
		'+08:00',
		[{ ...alert(2, 'x'.repeat(5000)), asset: { ...pt, id: 8 } }],
	);
	expect(blockKitProblems(pair.text, pair.blocks)).toEqual([]);
	expect(pair.text).toContain('PowerTrain Pump 3');
	const ids = (pair.blocks as Array<{ elements?: Array<{ action_id?: string }> }>)
		.flatMap((b) => b.elements ?? [])
		.map((e) => e.action_id)
		.filter(Boolean);
	expect(new Set(ids).size).toBe(ids.length);
	expect(JSON.stringify(pair.blocks)).toContain('took over from <@U0BOB>');
	const reminder = reminderReply(alert(3), 'escalate', ['S0ONCALL', 'U0BOSS'], 'UTC');
	expect(blockKitProblems(reminder.text, reminder.blocks)).toEqual([]);
	expect(reminder.text).toMatch(/^<!subteam\^S0ONCALL> <@U0BOSS> /);
	const many = Array.from({ length: 2000 }, (_, i) => ({
		...alert(i, 'y'.repeat(400)),
		status: i % 2 ? ('Close' as const) : ('Open' as const),
	}));
	const summary = silenceSummaryMessage(
		{ scope: 'group Pumps', from: 0, until: 7_200_000, alerts: many },
		'UTC',
	);
	expect(blockKitProblems(summary.text, summary.blocks)).toEqual([]);
	expect(summary.text).toContain('2000 alerts during it, 1000 still open');
	expect(JSON.stringify(summary.blocks)).toMatch(/…and \d+ more/);
});
