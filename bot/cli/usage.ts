/** What `drive-monitoring-bot --help` prints. */
export const USAGE = `Usage: drive-monitoring-bot [--config bot.yml] [--lenient]
       drive-monitoring-bot migrate --from <state.sqlite> [--to <postgres url>]   (see migrate --help)

--lenient starts even when a route names an organization, asset group or plant the platform
does not have (warned about instead of refused).

Without Slack tokens the bot runs in this terminal; without platform credentials it starts the
simulator in-process. Environment: SLACK_BOT_TOKEN with SLACK_APP_TOKEN (Socket Mode) or
SLACK_SIGNING_SECRET (HTTP, PORT); DRIVE_MONITORING_BASE_URL, _AUTH_URL, _TENANT_ID, _API_KEY,
_API_SECRET, _API_SCOPE_ID; DRIVE_MONITORING_PUSH_URL, _USER, _PASSWORD, _TOPIC; DRIVE_BOT_CONFIG,
DRIVE_BOT_STATE, LOG_LEVEL; DRIVE_BOT_DATABASE_URL (PostgreSQL shared by replicas, with PGPASSWORD and the
other PG* variables for what it leaves out) instead of the SQLite state file; DRIVE_BOT_LEADER_LEASE_MS
and DRIVE_BOT_LEADER_RENEW_MS (the replicas' lease, default 10000 and 2000).

Operations: --ops-port N (or DRIVE_BOT_OPS_PORT; 0 picks a free port) serves GET /healthz,
/readyz and /metrics (Prometheus) on DRIVE_BOT_OPS_HOST (default 0.0.0.0), in every mode.`;
