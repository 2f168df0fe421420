/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { Cron } from 'croner';
import { z } from 'zod/v4';

/** Why croner refuses a cron pattern, or undefined when it takes it. */
function cronProblem(pattern: string): string | undefined {
	try {
		new Cron(pattern, { paused: true }).stop();
		return undefined;
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
}

/**
 * The bot's configuration file (YAML or JSON). Every field has a default, so an empty file (or
 * none) is a valid configuration: alerts go to `defaultChannel`, Faults only, UTC+8.
 */

const SEVERITIES = ['Fault', 'Warning'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Accepts `UTC+8`, `UTC+08:00`, `+08:00`, `UTC` or an IANA name; yields an Intl time zone. */
export function normalizeTimeZone(input: string): string | undefined {
	const trimmed = input.trim();
	const offset = /^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(trimmed);
	const candidate = offset
		? `${offset[1]}${offset[2].padStart(2, '0')}:${offset[3] ?? '00'}`
		: /^(UTC|GMT|Z)$/i.test(trimmed)
			? 'UTC'
			: trimmed;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: candidate });
		return candidate;
	} catch {
		return undefined;
	}
}

const timeZone = z.string().transform((value, ctx) => {
	const zone = normalizeTimeZone(value);
	if (zone === undefined) {
		ctx.addIssue({
			code: 'custom',
			message: `"${value}" is not a time zone (use UTC+8, +08:00 or an IANA name such as Asia/Shanghai)`,
		});
		return z.NEVER;
	}
	return zone;
});

/** A Slack channel id (C..., G...) or a #name; the terminal mode prints whichever is given. */
const channel = z
	.string()
	.regex(
		/^(#[a-z0-9_-]{1,80}|[CGD][A-Z0-9]{6,})$/,
		'a channel id such as C0123456789 or a name such as #drive-alerts',
	);

const idOrName = z.union([z.number().int().positive(), z.string().min(1)]);

/** `30m`, `2h`, `90s`: how long before a reminder or an escalation. */
const duration = z.string().regex(/^\s*(\d+\s*[smhd]\s*)+$/i, 'a duration such as 30m, 2h or 90s');

/** Who a reminder mentions: Slack user ids (U…), user group ids (S…) or user group handles. */
const mentions = z.array(z.string().min(1)).min(1);

const route = z.strictObject({
	organization: idOrName.optional().describe('Organization id or name; absent matches any.'),
	assetGroup: idOrName.optional().describe('Asset group id or name; absent matches any.'),
	plant: z.string().min(1).optional().describe('Plant name; absent matches any.'),
	severity: z
		.array(z.enum(SEVERITIES))
		.min(1)
		.optional()
		.describe(
			'Severities this route takes; CBM Red counts as Fault and Yellow as Warning. Absent: all.',
		),
	channel: channel.describe('Where alerts matching this route are posted.'),
	continue: z
		.boolean()
		.default(false)
		.describe("Keep matching later routes after this one (as Alertmanager's `continue`)."),
	mention: mentions
		.optional()
		.describe("The route's on-call, mentioned by reminders: user ids, user group ids or handles."),
	remindAfter: duration
		.optional()
		.describe('An open Fault nobody acknowledged is re-announced in its thread after this long.'),
	escalateAfter: duration
		.optional()
		.describe(
			'An open Fault nobody acknowledged is escalated (mentioning `escalateMention`) after this long.',
		),
	escalateMention: mentions
		.optional()
		.describe('Who an escalation mentions: user ids, user group ids or handles.'),
});

const envName = z
	.string()
	.regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name such as DRIVE_PUSH_PASSWORD_CP2');

/** One data-subscription user (B49); see `source.pushUsers`. */
const pushUser = z.strictObject({
	name: z.string().min(1).describe('A label for logs: the organization it belongs to.'),
	url: z
		.string()
		.regex(/^(amqps?|mqtts?):\/\//, 'an amqp://, amqps://, mqtt:// or mqtts:// URL')
		.optional()
		.describe(
			'Broker URL (amqp://, amqps://, mqtt://, mqtts://); default DRIVE_MONITORING_PUSH_URL.',
		),
	userName: z
		.string()
		.min(1)
		.optional()
		.describe('The E26 user name (absent until `--create-push-user` made it).'),
	topic: z
		.string()
		.min(1)
		.optional()
		.describe("The topic of this user's data subscription, as `--create-push-user` printed it."),
	passwordEnv: envName.describe("The environment variable holding this user's password."),
	apiKeyEnv: envName
		.optional()
		.describe(
			"For `--create-push-user`: the environment variable with this organization's API key (default the main one).",
		),
	apiSecretEnv: envName
		.optional()
		.describe(
			"For `--create-push-user`: the environment variable with this organization's API secret.",
		),
});

export const botConfigSchema = z.strictObject({
	timeZone: timeZone
		.default('+08:00')
		.describe("Time zone of the times in messages. The platform's own zone is UTC+8."),
	command: z
		.string()
		.regex(/^\/[a-z0-9_-]{1,31}$/, 'a slash command such as /drive')
		.default('/drive')
		.describe('The slash command the app answers (must match the manifest).'),
	respondInChannel: z
		.boolean()
		.default(false)
		.describe('Answers are ephemeral unless this is true.'),
	allow: z
		.strictObject({
			channels: z
				.array(z.string().min(1))
				.default([])
				.describe('Channel ids where the command may be used; absent or empty: everywhere.'),
			users: z
				.array(z.string().min(1))
				.default([])
				.describe('User ids who may use the command; absent or empty: everyone.'),
		})
		.prefault({})
		.describe('Who may use the slash command, and where.'),
	source: z
		.strictObject({
			kind: z
				.enum(['push', 'poll'])
				.default('push')
				.describe(
					'`push`: the data-subscription channel (preferred); `poll`: REST polling of E14/E19.',
				),
			pollIntervalSeconds: z
				.number()
				.int()
				.min(5)
				.max(3600)
				.default(30)
				.describe('Polling source: seconds between polls of events.'),
			initialLookbackMinutes: z
				.number()
				.int()
				.min(1)
				.max(7 * 24 * 60)
				.default(60)
				.describe('On a first start (no watermark yet) polling looks back this far.'),
			concurrency: z
				.number()
				.int()
				.min(1)
				.max(32)
				.default(4)
				.describe('Parallel platform requests while polling.'),
			maxRequestsPerSecond: z
				.number()
				.positive()
				.max(1000)
				.default(20)
				.describe(
					'The platform request budget (B46), shared by polling, commands and asset details; commands go first, and a 429 from the platform lowers it for a while.',
				),
			maxQuietLagMinutes: z
				.number()
				.int()
				.min(1)
				.max(1440)
				.default(15)
				.describe(
					'Polling reads every quiet asset (no open alert, no alert in the last day) at least this often.',
				),
			lagWarningSeconds: z
				.number()
				.int()
				.min(10)
				.default(1200)
				.describe(
					'Above this lag (seconds) the bot warns in its log and once in the default channel.',
				),
			catchUpLookbackMinutes: z
				.number()
				.int()
				.min(1)
				.max(7 * 24 * 60)
				.optional()
				.describe(
					"After a restart, look back at most this far (default: since the state file's last pass, at most 7 days).",
				),
			pushUsers: z
				.array(pushUser)
				.default([])
				.describe(
					'Data-subscription users to receive with (B49), e.g. one per organization credential. Each password comes from the environment variable `passwordEnv`, never from this file.',
				),
		})
		.prefault({})
		.describe('Where alerts come from: pushed data or polling, and the platform request budget.'),
	alerts: z
		.strictObject({
			minSeverity: z
				.enum(SEVERITIES)
				.default('Fault')
				.describe('Lowest event severity that is posted.'),
			defaultChannel: channel
				.default('#drive-alerts')
				.describe('Where an alert goes when no route matches.'),
			routes: z
				.array(route)
				.default([])
				.describe(
					'Alert routes, tried in order; the first match takes the alert unless it sets `continue`.',
				),
			maxMessagesPerSecond: z
				.number()
				.positive()
				.max(10)
				.default(1)
				.describe('Slack allows about one message per second per channel.'),
			stormPerMinute: z
				.number()
				.int()
				.min(1)
				.default(20)
				.describe(
					'Above this many alerts a minute in one channel, alerts are coalesced into digests.',
				),
			digestBacklog: z
				.number()
				.int()
				.min(2)
				.default(3)
				.describe('With this many alerts waiting for one channel, they go out as one digest.'),
		})
		.prefault({})
		.describe('Which events are posted, where, and how fast.'),
	cbm: z
		.strictObject({
			enabled: z
				.boolean()
				.default(true)
				.describe('Post CBM (predictive maintenance) status changes.'),
			pollIntervalMinutes: z
				.number()
				.int()
				.min(1)
				.default(60)
				.describe('Polling interval of E19 when the source is `poll` (CBM results change daily).'),
			dailyDigestAt: z
				.string()
				.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time such as 08:00')
				.optional()
				.describe(
					'Post a daily CBM digest per channel at this local time (`HH:MM` in `timeZone`).',
				),
		})
		.prefault({})
		.describe('Condition-based (predictive) maintenance status changes.'),
	connectivity: z
		.strictObject({
			enabled: z.boolean().default(true).describe('Announce assets going offline and back online.'),
			minOfflineMinutes: z
				.number()
				.int()
				.min(0)
				.max(7 * 24 * 60)
				.default(15)
				.describe(
					'An asset is announced once it has been offline this long (polling: its latest data is this old, at least 5 min).',
				),
			channel: channel
				.optional()
				.describe(
					"Where connectivity messages go; absent: the asset's alert routes (as a Warning).",
				),
			groupBy: z
				.enum(['group', 'plant'])
				.default('group')
				.describe('Assets going offline in the same hour share one message per group (or plant).'),
			pollIntervalMinutes: z
				.number()
				.int()
				.min(1)
				.max(24 * 60)
				.default(5)
				.describe(
					"Polling source: how often E8's latest-data time is read for every drive and motor.",
				),
			maxBudgetShare: z
				.number()
				.min(0.05)
				.max(0.5)
				.default(0.2)
				.describe(
					'Polling source: the most of `source.maxRequestsPerSecond` these reads may take; a fleet that needs more gets a longer interval (B70).',
				),
		})
		.prefault({})
		.describe(
			"Online/offline of every asset (AssetState pushes, or E8's latest-data time when polling).",
		),
	reports: z
		.array(
			z
				.strictObject({
					cron: z
						.string()
						.min(9)
						.describe(
							'Five-field cron (minute hour day month weekday), e.g. `0 8 * * MON`, in `timeZone` below.',
						),
					group: z
						.string()
						.min(1)
						.optional()
						.describe('An asset group (fleet report of its drives and motors)…'),
					asset: z
						.union([z.string().min(1), z.number().int().positive()])
						.optional()
						.describe('…or one asset (drive report): a name, serial number or id.'),
					days: z
						.number()
						.int()
						.min(7)
						.max(90)
						.default(7)
						.describe(
							"Days the report covers, ending today (UTC+8, the platform's report dates): 7 to 90.",
						),
					channel: channel.describe('Where the report is posted.'),
					title: z
						.string()
						.min(1)
						.max(50)
						.optional()
						.describe('Title of the report in its message.'),
					timeZone: timeZone
						.optional()
						.describe("Zone of the cron times; default the bot's `timeZone`."),
				})
				.refine((r) => (r.group === undefined) !== (r.asset === undefined), {
					message: 'name either a group or an asset',
				})
				.superRefine((r, ctx) => {
					const problem = cronProblem(r.cron);
					if (problem)
						ctx.addIssue({
							code: 'custom',
							path: ['cron'],
							message: `${problem} (five fields: minute hour day month weekday, e.g. "0 8 * * MON")`,
						});
				}),
		)
		.default([])
		.describe(
			'Scheduled reports: a drive report of one asset or a fleet report of a group, posted as a PDF.',
		),
	links: z
		.strictObject({
			assetPage: z
				.string()
				.url()
				.optional()
				.describe("The platform's page of an asset, e.g. https://portal.example/assets/{assetId}."),
			runbooks: z
				.record(z.string(), z.string().url())
				.default({})
				.describe('A runbook per event code; `default` for the others (may use `{code}`).'),
		})
		.prefault({})
		.describe('Link buttons on alerts. `{assetId}`, `{serialNumber}` and `{code}` are filled in.'),
	oncall: z
		.strictObject({
			checkIntervalSeconds: z
				.number()
				.min(0.2)
				.max(300)
				.default(15)
				.describe('How often silences, reminders and escalations are checked.'),
		})
		.prefault({})
		.describe('On-call timing.'),
	stateFile: z
		.string()
		.min(1)
		.default('drive-bot.sqlite')
		.describe('The SQLite file holding message ids, CBM statuses, watermarks and the outbox.'),
});

export type BotConfig = z.infer<typeof botConfigSchema>;
export type Route = z.infer<typeof route>;
