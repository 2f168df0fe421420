import { CLUSTER_MIGRATIONS } from '../cluster/migrations';
import { ALERTS_MIGRATIONS } from '../features/alerts/migrations';
import { CONNECTIVITY_MIGRATIONS } from '../features/connectivity/migrations';
import { ONCALL_MIGRATIONS } from '../features/oncall/migrations';
import { REPORTS_MIGRATIONS } from '../features/reports/migrations';
import { assembleSchema } from '../state/schema';

/**
 * The bot's schema: the steps each piece of state declares beside its store, in one list ordered by version. A new
 * table is the next version in its feature's migrations.ts.
 */
export const BOT_SCHEMA = assembleSchema(
	ALERTS_MIGRATIONS,
	ONCALL_MIGRATIONS,
	CONNECTIVITY_MIGRATIONS,
	REPORTS_MIGRATIONS,
	CLUSTER_MIGRATIONS,
);
