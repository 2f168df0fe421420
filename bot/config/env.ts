import { z } from 'zod/v4';
import { ConfigError, describeIssues } from './load';

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** The environment the bot reads. Secrets come only from here, never from the config file. */
const envSchema = z.object({
  DRIVE_BOT_CONFIG: optional,
  DRIVE_BOT_STATE: optional,
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).optional(),
  SLACK_BOT_TOKEN: optional,
  SLACK_APP_TOKEN: optional,
  SLACK_SIGNING_SECRET: optional,
  SLACK_API_URL: optional,
  PORT: z.coerce.number().int().min(0).max(65535).optional(),
  DRIVE_MONITORING_BASE_URL: optional,
  DRIVE_MONITORING_AUTH_URL: optional,
  DRIVE_MONITORING_TENANT_ID: optional,
  DRIVE_MONITORING_API_KEY: optional,
  DRIVE_MONITORING_API_SECRET: optional,
  DRIVE_MONITORING_API_SCOPE_ID: optional,
  DRIVE_MONITORING_PUSH_URL: optional,
  DRIVE_MONITORING_PUSH_USER: optional,
  DRIVE_MONITORING_PUSH_PASSWORD: optional,
  DRIVE_MONITORING_PUSH_TOPIC: optional,
  DRIVE_SIM_EVENT_RATE: z.coerce.number().min(0).optional(),
  DRIVE_SIM_TIME_SCALE: z.coerce.number().positive().optional(),
});

export type BotEnv = z.infer<typeof envSchema>;

const PLATFORM = ['BASE_URL', 'AUTH_URL', 'TENANT_ID', 'API_KEY', 'API_SECRET', 'API_SCOPE_ID'] as const;
const PUSH = ['URL', 'USER', 'PASSWORD', 'TOPIC'] as const;

export function readEnv(env: NodeJS.ProcessEnv): BotEnv {
  const result = envSchema.safeParse(env);
  if (!result.success) throw new ConfigError(`Invalid environment:\n${describeIssues(result.error.issues, env)}`);
  const parsed = result.data;
  const partial = (prefix: string, names: readonly string[]) => {
    const set = names.filter((n) => parsed[`${prefix}${n}` as keyof BotEnv] !== undefined);
    if (set.length > 0 && set.length < names.length) {
      const missing = names.filter((n) => !set.includes(n)).map((n) => `${prefix}${n}`);
      throw new ConfigError(`Incomplete environment: ${set.map((n) => `${prefix}${n}`).join(', ')} set but ${missing.join(', ')} missing`);
    }
  };
  partial('DRIVE_MONITORING_', PLATFORM);
  // The URL alone is allowed: it is then the default broker of `source.pushUsers` (B49).
  if (PUSH.slice(1).some((n) => parsed[`DRIVE_MONITORING_PUSH_${n}` as keyof BotEnv] !== undefined)) partial('DRIVE_MONITORING_PUSH_', PUSH);
  if (parsed.SLACK_BOT_TOKEN && !parsed.SLACK_APP_TOKEN && !parsed.SLACK_SIGNING_SECRET) {
    throw new ConfigError('SLACK_BOT_TOKEN is set but neither SLACK_APP_TOKEN (Socket Mode) nor SLACK_SIGNING_SECRET (HTTP mode) is');
  }
  if (!parsed.SLACK_BOT_TOKEN && (parsed.SLACK_APP_TOKEN || parsed.SLACK_SIGNING_SECRET)) {
    throw new ConfigError('SLACK_APP_TOKEN or SLACK_SIGNING_SECRET is set but SLACK_BOT_TOKEN is missing');
  }
  return parsed;
}

/** Every secret value in the environment, for the logger to redact. */
export function secretsOf(env: BotEnv): string[] {
  return [env.SLACK_BOT_TOKEN, env.SLACK_APP_TOKEN, env.SLACK_SIGNING_SECRET, env.DRIVE_MONITORING_API_SECRET, env.DRIVE_MONITORING_PUSH_PASSWORD].filter(
    (s): s is string => s !== undefined,
  );
}
