import type { Schema } from './schema';
import type { SqlDatabase, SqlExecutor, SqlValue } from './sql';

/**
 * Tables that are state of one running installation and not copied: which replica leads (a new leader is elected
 * on the target) and which Slack payloads were acted on (Slack stops retrying within minutes).
 */
const NOT_COPIED = new Set(['leader_lease', 'slack_payloads']);

/** Every table of the shared schema, in migration order, with whether it has an identity `id` column. */
export function stateTables(schema: Schema): Array<{ table: string; identity: boolean }> {
	return schema.migrations.flatMap((step) =>
		step.ddl.flatMap((statement) => {
			const match = /^\s*CREATE TABLE (\w+) \(([\s\S]*)\)\s*$/.exec(statement);
			if (!match || NOT_COPIED.has(match[1])) return [];
			return [{ table: match[1], identity: /\bid \{\{id\}\}/.test(match[2]) }];
		}),
	);
}

export interface CopyReport {
	/** Rows copied per table. */
	rows: Record<string, number>;
}

/** Refused: the target holds bot state already, and a copy would mix two histories. */
export class TargetNotEmpty extends Error {
	constructor(readonly tables: string[]) {
		super(
			`The target database already holds bot state (in ${tables.join(', ')}). Copy into a new, empty database ` +
				"(createdb), or drop the bot's tables there first; nothing was copied.",
		);
		this.name = 'TargetNotEmpty';
	}
}

async function copyTable(
	from: SqlExecutor,
	to: SqlExecutor,
	table: string,
	identity: boolean,
	dialect: SqlDatabase['dialect'],
): Promise<number> {
	const rows = await from.all<Record<string, SqlValue>>(
		`SELECT * FROM ${table}${identity ? ' ORDER BY id' : ''}`,
	);
	if (rows.length === 0) return 0;
	const columns = Object.keys(rows[0]);
	const insert = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
	for (const row of rows) await to.run(insert, ...columns.map((c) => row[c]));
	// The next id the target hands out must follow the copied ones, or a new outbox row would collide.
	if (identity && dialect === 'postgres')
		await to.get(
			`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT MAX(id) FROM ${table}))`,
		);
	return rows.length;
}

/**
 * Copies the whole state of one bot (open alerts and their messages, on-call state, silences, reminders,
 * watermarks, outbox, connectivity, reports) from one store into another, in one transaction on the target, so
 * a bot started on the target goes on exactly where the source stopped. The source must not be in use.
 */
export async function copyState(
	source: SqlDatabase,
	target: SqlDatabase,
	schema: Schema,
): Promise<CopyReport> {
	const tables = stateTables(schema);
	const busy: string[] = [];
	for (const { table } of tables)
		if (await target.get(`SELECT 1 AS one FROM ${table} LIMIT 1`)) busy.push(table);
	if (busy.length > 0) throw new TargetNotEmpty(busy);
	const rows: Record<string, number> = {};
	await target.transaction(async (tx) => {
		for (const { table, identity } of tables)
			rows[table] = await copyTable(source, tx, table, identity, target.dialect);
	});
	return { rows };
}
