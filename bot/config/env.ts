import { z } from 'zod/v4';
import { ConfigError, describeIssues } from './load';

const optional = z
	.string()
	.optional()
	.transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** The environment the bot reads. Secrets come only from here, never from the config file. */
export const envSchema = z.object({
	DRIVE_BOT_CONFIG: optional.describe(
		'Path of the configuration file (YAML or JSON); `--config` takes precedence.',
	),
	DRIVE_BOT_STATE: optional.describe('Path of the SQLite state file; overrides `stateFile`.'),
	LOG_LEVEL: z
		.enum(['debug', 'info', 'warn', 'error'])
		.optional()
		.describe('Lowest level written to the log.'),
	SLACK_BOT_TOKEN: optional.describe(
		'The bot token (xoxb-...); without it the bot runs in the terminal.',
	),
	SLACK_APP_TOKEN: optional.describe('The app-level token (xapp-...) for Socket Mode.'),
	SLACK_SIGNING_SECRET: optional.describe(
		'The signing secret for HTTP mode (instead of SLACK_APP_TOKEN).',
	),
	SLACK_API_URL: optional.describe("Base URL of the Slack Web API (default Slack's own)."),
	PORT: z.coerce
		.number()
		.int()
		.min(0)
		.max(65535)
		.optional()
		.describe("HTTP mode: the port Slack's requests arrive on."),
	DRIVE_MONITORING_BASE_URL: optional.describe(
		'Platform API base URL; with the other five DRIVE_MONITORING_ values, or none (then the embedded simulator runs).',
	),
	DRIVE_MONITORING_AUTH_URL: optional.describe('Platform token URL.'),
	DRIVE_MONITORING_TENANT_ID: optional.describe('Platform tenant id.'),
	DRIVE_MONITORING_API_KEY: optional.describe('Platform API key.'),
	DRIVE_MONITORING_API_SECRET: optional.describe('Platform API secret.'),
	DRIVE_MONITORING_API_SCOPE_ID: optional.describe('Platform API scope id.'),
	DRIVE_MONITORING_PUSH_URL: optional.describe(
		'Broker URL of the data subscription; alone, the default broker of `source.pushUsers`.',
	),
	DRIVE_MONITORING_PUSH_USER: optional.describe(
		'Data-subscription user name (with the URL, password and topic).',
	),
	DRIVE_MONITORING_PUSH_PASSWORD: optional.describe('Data-subscription password.'),
	DRIVE_MONITORING_PUSH_TOPIC: optional.describe('Data-subscription topic.'),
	// Declared here so the configuration reference lists them; bot/ops/server.ts and bot/state/database-url.ts read and check them.
	DRIVE_BOT_OPS_PORT: optional.describe(
		'Port of the operations server (/healthz, /readyz, /metrics); 0 picks a free port (logged); unset: no server. `--ops-port` takes precedence.',
	),
	DRIVE_BOT_OPS_HOST: optional.describe(
		'Address the operations server listens on (default 0.0.0.0).',
	),
	DRIVE_BOT_DATABASE_URL: optional.describe(
		'PostgreSQL URL of the shared state (postgres://user@host:5432/database), for several bot instances; unset: the SQLite state file.',
	),
	PGHOST: optional.describe(
		'PostgreSQL host when DRIVE_BOT_DATABASE_URL leaves it out (default localhost).',
	),
	PGPORT: optional.describe(
		'PostgreSQL port when DRIVE_BOT_DATABASE_URL leaves it out (default 5432).',
	),
	PGUSER: optional.describe(
		'PostgreSQL user when DRIVE_BOT_DATABASE_URL leaves it out (default the system user).',
	),
	PGDATABASE: optional.describe(
		'PostgreSQL database when DRIVE_BOT_DATABASE_URL leaves it out (default the user name).',
	),
	PGPASSWORD: optional.describe('PostgreSQL password, rather than in DRIVE_BOT_DATABASE_URL.'),
	DRIVE_BOT_LEADER_LEASE_MS: z.coerce
		.number()
		.int()
		.min(1_000)
		.max(600_000)
		.optional()
		.describe(
			'Replicas on PostgreSQL: a leader whose lease is not renewed for this long is taken over (default 10000); it stops acting after 70% of it. Shorter: faster failover after a freeze, more renewals.',
		),
	DRIVE_BOT_LEADER_RENEW_MS: z.coerce
		.number()
		.int()
		.min(100)
		.max(300_000)
		.optional()
		.describe(
			'Replicas on PostgreSQL: how often the leader renews its lease (default 2000); a standby tries to lead twice as often. Must stay under 70% of DRIVE_BOT_LEADER_LEASE_MS.',
		),
	DRIVE_SIM_EVENT_RATE: z.coerce
		.number()
		.min(0)
		.optional()
		.describe('Embedded simulator: events per minute (default 6).'),
	DRIVE_SIM_TIME_SCALE: z.coerce
		.number()
		.positive()
		.optional()
		.describe('Embedded simulator: how much faster than real time it runs (default 1).'),
});

export type BotEnv = z.infer<typeof envSchema>;

const PLATFORM = [
	'BASE_URL',
	'AUTH_URL',
	'TENANT_ID',
	'API_KEY',
	'API_SECRET',
	'API_SCOPE_ID',
] as const;
const PUSH = ['URL', 'USER', 'PASSWORD', 'TOPIC'] as const;

export function readEnv(env: NodeJS.ProcessEnv): BotEnv {
	const result = envSchema.safeParse(env);
	if (!result.success)
		throw new ConfigError(`Invalid environment:\n${describeIssues(result.error.issues, env)}`);
	const parsed = result.data;
	const partial = (prefix: string, names: readonly string[]) => {
		const set = names.filter((n) => parsed[`${prefix}${n}` as keyof BotEnv] !== undefined);
		if (set.length > 0 && set.length < names.length) {
			const missing = names.filter((n) => !set.includes(n)).map((n) => `${prefix}${n}`);
			throw new ConfigError(
				`Incomplete environment: ${set.map((n) => `${prefix}${n}`).join(', ')} set but ${missing.join(', ')} missing`,
			);
		}
	};
	partial('DRIVE_MONITORING_', PLATFORM);
	// The URL alone is allowed: it is then the default broker of `source.pushUsers` (B49).
	if (PUSH.slice(1).some((n) => parsed[`DRIVE_MONITORING_PUSH_${n}` as keyof BotEnv] !== undefined))
		partial('DRIVE_MONITORING_PUSH_', PUSH);
	if (leaderTimingsProblem(parsed)) throw new ConfigError(leaderTimingsProblem(parsed) as string);
	if (parsed.SLACK_BOT_TOKEN && !parsed.SLACK_APP_TOKEN && !parsed.SLACK_SIGNING_SECRET) {
		throw new ConfigError(
			'SLACK_BOT_TOKEN is set but neither SLACK_APP_TOKEN (Socket Mode) nor SLACK_SIGNING_SECRET (HTTP mode) is',
		);
	}
	if (!parsed.SLACK_BOT_TOKEN && (parsed.SLACK_APP_TOKEN || parsed.SLACK_SIGNING_SECRET)) {
		throw new ConfigError(
			'SLACK_APP_TOKEN or SLACK_SIGNING_SECRET is set but SLACK_BOT_TOKEN is missing',
		);
	}
	return parsed;
}

const DEFAULT_LEASE_MS = 10_000;
const DEFAULT_RENEW_MS = 2_000;
/** The share of the lease after which a leader that could not renew stops acting (production: 3 s of 10 s). */
const MARGIN_SHARE = 0.3;

function leaderTimingsProblem(env: BotEnv): string | undefined {
	const lease = env.DRIVE_BOT_LEADER_LEASE_MS ?? DEFAULT_LEASE_MS;
	const renew = env.DRIVE_BOT_LEADER_RENEW_MS ?? DEFAULT_RENEW_MS;
	const acting = lease - Math.round(lease * MARGIN_SHARE);
	if (renew < acting) return undefined;
	return `DRIVE_BOT_LEADER_RENEW_MS (${renew} ms) must be shorter than 70% of DRIVE_BOT_LEADER_LEASE_MS (${lease} ms, so ${acting} ms): a leader stops acting when it has not renewed for that long. Lower the renewal interval or lengthen the lease.`;
}

/**
 * The replicas' lease timings the environment asks for, as startLeadership takes them; undefined: the
 * defaults of bot/cluster/leadership.ts (a 10 s lease renewed every 2 s). The margin is 30% of the lease and a standby
 * tries to lead every half renewal interval, the proportions of the defaults.
 */
export function leaderTimingsOf(
	env: BotEnv,
): { ttlMs: number; renewEveryMs: number; marginMs: number; tryEveryMs: number } | undefined {
	if (env.DRIVE_BOT_LEADER_LEASE_MS === undefined && env.DRIVE_BOT_LEADER_RENEW_MS === undefined)
		return undefined;
	const ttlMs = env.DRIVE_BOT_LEADER_LEASE_MS ?? DEFAULT_LEASE_MS;
	const renewEveryMs = env.DRIVE_BOT_LEADER_RENEW_MS ?? DEFAULT_RENEW_MS;
	return {
		ttlMs,
		renewEveryMs,
		marginMs: Math.round(ttlMs * MARGIN_SHARE),
		tryEveryMs: Math.max(50, Math.round(renewEveryMs / 2)),
	};
}

/** Every secret value in the environment, for the logger to redact. */
export function secretsOf(env: BotEnv): string[] {
	return [
		env.SLACK_BOT_TOKEN,
		env.SLACK_APP_TOKEN,
		env.SLACK_SIGNING_SECRET,
		env.DRIVE_MONITORING_API_SECRET,
		env.DRIVE_MONITORING_PUSH_PASSWORD,
	].filter((s): s is string => s !== undefined);
}
