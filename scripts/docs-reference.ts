/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- a build script, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Writes the references in docs/reference/ from the real objects (no parsing of source text), so they cannot drift:
// `npm run docs:reference`. test/docs/reference.test.ts fails when a checked-in file differs from what this renders.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties, INodeType } from 'n8n-workflow';
import { z } from 'zod/v4';
import { ASSET_NOTE, SUBCOMMANDS } from '../bot/blocks/command';
import { envSchema } from '../bot/config/env';
import { botConfigSchema } from '../bot/config/schema';
import { CODE_INFO } from '../shared/errorCatalog';
import { DeadlineError } from '../shared/errors';
import * as R from '../shared/schemas/resources';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderErrors(): string {
	const rows = Object.entries(CODE_INFO)
		.sort(([a], [b]) => Number(a) - Number(b))
		.map(
			([code, info]) => `| ${code} | ${info.kind} | ${cell(info.summary)} | ${cell(info.hint)} |`,
		);
	return [
		'# Error codes',
		'',
		'Generated from shared/errorCatalog.ts by `npm run docs:reference`; do not edit by hand.',
		'',
		'| Code | Kind | Meaning | What to do |',
		'| --- | --- | --- | --- |',
		...rows,
		'',
		...renderDeadlines(),
	].join('\n');
}

/** What a call that runs out of time says, rendered from DeadlineError itself with example values. */
function renderDeadlines(): string[] {
	const single = new DeadlineError({
		operation: 'Get asset detail',
		deadlineMs: 90_000,
		elapsedMs: 90_000,
		setting: "raise the client's deadlineMs option (now 90 s)",
	});
	const node = new DeadlineError({
		operation: 'Reading the events of asset 100029',
		deadlineMs: 54_000,
		elapsedMs: 54_004,
		setting:
			'raise Timeout Workflow in the workflow settings (now 60 s, of which a call of this node gets 90%)',
		range: {
			start: '2025-11-25T00:00:00Z',
			end: '2026-11-25T00:00:00Z',
			done: 31,
			total: 53,
			daysDone: 217,
			pending: { start: '2026-06-30T00:00:00Z', end: '2026-07-07T00:00:00Z' },
		},
	});
	const bot = new DeadlineError({
		operation: 'Reading the events of asset 100029',
		deadlineMs: 90_000,
		elapsedMs: 90_002,
		range: {
			start: '2026-08-27T00:00:00Z',
			end: '2026-11-25T00:00:00Z',
			done: 9,
			total: 13,
			daysDone: 63,
			pending: { start: '2026-10-29T00:00:00Z', end: '2026-11-05T00:00:00Z' },
		},
	});
	const row = (where: string, error: DeadlineError): string =>
		`| ${where} | ${cell(error.message)} | ${cell(error.hint)} |`;
	return [
		'## When a call runs out of time',
		'',
		"Every call has a total deadline, retries, token requests and waits included; a read of a long time range in several requests is one call. Past it, the call fails with `DeadlineError` (kind `unavailable`, reason `DEADLINE`), which says which operation, after how long, how far a ranged read came, and how to give it more time where the reader can: programs with the client's `deadlineMs` option (default 90 s), n8n with Timeout Workflow in the workflow settings (each call of the node gets 90% of it, so that it ends before n8n cancels the execution; 90 s when it is off). The Slack bot's users cannot change it.",
		'',
		'| Where | Message | What to do |',
		'| --- | --- | --- |',
		row('A program, one request', single),
		row('n8n, a year of events', node),
		row('Slack bot, 90 days of events', bot),
		'',
	];
}

// The node files sit next to their codex (X.node.json), which plain resolution of 'X.node' would load instead.
const NODE_FILES = [
	'nodes/DriveMonitoring/DriveMonitoring',
	'nodes/DriveMonitoringTrigger/DriveMonitoringTrigger',
	'n8n-push/nodes/DriveMonitoringPushTrigger/DriveMonitoringPushTrigger',
];

function loadNode(file: string): INodeType {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const exports = require(join('..', `${file}.node.ts`)) as Record<string, new () => INodeType>;
	return new (Object.values(exports)[0])();
}

const shown = (p: INodeProperties, skip: string[]): string =>
	Object.entries(p.displayOptions?.show ?? {})
		.filter(([key]) => !skip.includes(key))
		.map(([key, values]) => `${key} = ${(values ?? []).map(String).join(' or ')}`)
		.join('; ');

const value = (v: unknown): string =>
	v === '' || v === undefined ? '' : `\`${JSON.stringify(v)}\``;

function parameterRows(props: INodeProperties[], skip: string[], prefix = ''): string[] {
	return props.flatMap((p) => {
		const options =
			p.type === 'options' || p.type === 'multiOptions'
				? ` Options: ${(p.options ?? []).map((o) => ('value' in o ? `${o.name} (\`${String(o.value)}\`)` : o.name)).join(', ')}.`
				: '';
		const row = `| ${cell(prefix + p.displayName)} | \`${p.name}\` | ${p.type} | ${cell(value(p.default))} | ${p.required ? 'yes' : ''} | ${cell(shown(p, skip))} | ${cell(`${p.description ?? ''}${options}`.trim())} |`;
		const nested = (p.options ?? []).flatMap((o) =>
			'type' in o
				? parameterRows([o as INodeProperties], skip, `${prefix}${p.displayName} › `)
				: 'values' in o
					? parameterRows(o.values, skip, `${prefix}${p.displayName} › ${o.displayName} › `)
					: [],
		);
		return [row, ...nested];
	});
}

const TABLE_HEAD = [
	'| Parameter | Name | Type | Default | Required | Shown when | Description |',
	'| --- | --- | --- | --- | --- | --- | --- |',
];

const matches = (p: INodeProperties, key: string, v: string): boolean => {
	const values = p.displayOptions?.show?.[key];
	return values === undefined || values.includes(v);
};

/**
 * What each operation of the action node returns: the response schema of the endpoint it calls (shared/schemas/resources.ts,
 * the type the client hands the operation), how its items are cut, and the fields the operation adds. Keyed
 * `resource.operation`; an operation without an entry fails test/docs/reference.test.ts.
 */
interface Output {
	/** What one output item is. */
	item: string;
	schema?: z.ZodType;
	/** Fields the operation adds to (or, without a schema, returns instead of) the schema's. */
	adds?: Record<string, string>;
	note?: string;
}

const done = (fields: Record<string, string>): Output => ({
	item: 'one item confirming the change',
	adds: { success: 'boolean, always true', ...fields },
});
const SIMPLIFY = 'With Simplify on (the default), only the main fields are kept.';

export const OUTPUTS: Record<string, Output> = {
	'asset.bindSubscriptionCode': done({ assetId: 'number', subscriptionCode: 'string' }),
	'asset.createDrive': { item: 'the created drive', schema: R.AssetDetail },
	'asset.delete': done({ assetId: 'number', deleted: 'boolean, true' }),
	'asset.get': { item: 'the asset', schema: R.AssetDetail, note: SIMPLIFY },
	'asset.getManyInGroup': { item: 'one item per asset', schema: R.Asset, note: SIMPLIFY },
	'asset.getManyInOrganization': { item: 'one item per asset', schema: R.Asset, note: SIMPLIFY },
	'asset.getSubscriptions': { item: 'one item per subscription', schema: R.AssetSubscription },
	'asset.move': done({ assetId: 'number', assetGroupId: 'number' }),
	'asset.rename': done({ assetId: 'number', name: 'string' }),
	'assetGroup.create': { item: 'the created asset group', schema: R.AssetGroup },
	'cbm.getResults': {
		item: 'one item per drive unit (fan, capacitor, IGBT...)',
		schema: R.CbmResult,
		adds: {
			assetId: 'number',
			predictedNoPlanAt: 'string (ISO 8601 UTC) or null',
			predictedStartPlanAt: 'string (ISO 8601 UTC) or null',
			predictedRunPlanAt: 'string (ISO 8601 UTC) or null',
		},
		note: "The platform's dates are UTC+8; each plan date also comes as a UTC instant (`...At`). With Simplify on (the default), `deviceDayKPIs` is replaced by `latestKpiDate` and `latestKpi`.",
	},
	'cbm.setCommissioningDate': { item: 'the date set', schema: R.CommissioningDate },
	'dataSubscription.createUser': {
		item: 'the new user',
		schema: R.DataSubscriptionUser,
		adds: { passwordNotice: 'string: the password is shown only this once' },
	},
	'dataSubscription.deleteUser': done({ subCustomerId: 'string', deleted: 'boolean, true' }),
	'dataSubscription.getUser': {
		item: 'one item per user (the password is never shown)',
		schema: R.DataSubscriptionUser,
	},
	'dataSubscription.resetPassword': {
		item: 'the user with its new password',
		schema: R.DataSubscriptionUser,
		adds: { passwordNotice: 'string: the password is shown only this once' },
	},
	'dataSubscription.setDataTypes': { item: 'the updated user', schema: R.DataSubscriptionUser },
	'event.getLoggerFile': {
		item: 'one item per logger file, the file as binary data when downloaded',
		schema: R.EventLoggerFile,
		adds: { loggerFileExpiresAt: 'string, when the temporary link expires' },
	},
	'event.getMany': { item: 'one item per event', schema: R.Event },
	'health.getConditions': {
		item: 'one item per condition (Overall, Availability, Environment, Reliability, Stress)',
		schema: R.Condition,
		adds: { assetId: 'number' },
	},
	'organization.get': { item: 'the organization', schema: R.Organization },
	'organization.getAssetStatistics': { item: 'the statistics', schema: R.AssetStatistics },
	'organization.getTree': {
		item: 'one item per asset group and plant (Output: Flat, the default), or the tree',
		schema: R.OrganizationNode,
		note: 'Flat items have `orgId`, `orgName`, `orgType`, `kind` (`assetGroup` or `plant`), `id` and `name`; the fields below are the tree.',
	},
	'parameterBackup.getContent': {
		item: 'one item per parameter (its group in `group`), or per group',
		schema: R.ParameterGroup,
		note: 'One item per parameter has the fields of `parameters[]` below plus `group`.',
	},
	'parameterBackup.getMany': {
		item: 'one item per backup',
		schema: R.ParameterBackupItem,
		adds: { backupAt: 'string (ISO 8601 UTC): `backupTime` (UTC+8) as a UTC instant' },
	},
	'report.create': {
		item: 'the report (with its download link and file when waiting)',
		schema: R.Report,
		adds: {
			fileTemplink: 'string, when waiting until ready',
			fileTemplinkExpiresAt: 'string, when the link expires',
		},
	},
	'report.download': {
		item: 'the download link, the file as binary data when downloaded',
		schema: R.ReportDownload,
		adds: { assetId: 'number', fileTemplinkExpiresAt: 'string, when the link expires' },
	},
	'report.getMany': { item: 'one item per report', schema: R.Report },
	'trendSignal.getConfiguration': {
		item: 'one item per trend or signal',
		schema: R.ParameterConfig,
		adds: { kind: '`trend` or `signal`' },
	},
	'trendSignal.getData': {
		item: 'one item per point (Output: One Item per Point, the default) or per parameter',
		schema: R.ParamData,
		note: 'Per point, each item is a timestamp with one value per parameter; per parameter, the fields are those below (with Simplify on, its unit, minimum, maximum, mean and last value with the series).',
	},
};

/** The poll trigger's items, by Watch value: the record the API returned plus where it came from (nodes/DriveMonitoringTrigger/items.ts). */
const TRIGGER_ENVELOPE = {
	dataType: 'string: AssetEvent, AssetCondition, AssetCBM or AssetReport',
	messageId: 'string',
	assetId: 'number',
	orgId: 'number, when known',
	time: 'string (ISO 8601)',
	raw: 'object, with Include Raw Message',
};
export const TRIGGER_OUTPUTS: Record<string, Output> = {
	events: { item: 'one item per new event', schema: R.Event, adds: TRIGGER_ENVELOPE },
	conditions: {
		item: 'one item per condition whose status changed',
		schema: R.Condition,
		adds: { previousStatus: 'string or null', ...TRIGGER_ENVELOPE },
	},
	cbm: {
		item: 'one item per asset whose CBM units changed, the changed units under `results`',
		schema: z.object({ results: z.array(R.CbmResult) }),
		adds: TRIGGER_ENVELOPE,
	},
	reports: {
		item: 'one item per report that became Created or Failed',
		schema: R.Report,
		adds: TRIGGER_ENVELOPE,
	},
};

/** The object a response schema describes: through arrays, preprocessing (model()) and wrappers. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
	const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
	if (def.type === 'object') return def.shape as Record<string, z.ZodType>;
	if (def.type === 'array') return objectShape(def.element as z.ZodType);
	if (def.type === 'pipe')
		return objectShape(
			((def.in as z.ZodType)._zod.def.type === 'transform' ? def.out : def.in) as z.ZodType,
		);
	if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default')
		return objectShape(def.innerType as z.ZodType);
	if (def.type === 'lazy') return undefined; // recursive (sub-assets, sub-organizations): same fields as the parent
	return undefined;
}

function outputType(schema: z.ZodType): string {
	const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
	if (def.type === 'pipe')
		return outputType(
			((def.in as z.ZodType)._zod.def.type === 'transform' ? def.out : def.in) as z.ZodType,
		);
	if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default')
		return outputType(def.innerType as z.ZodType);
	if (def.type === 'array') return `array of ${outputType(def.element as z.ZodType)}`;
	if (def.type === 'lazy') return 'object (same fields)';
	if (def.type === 'union')
		return [...new Set((def.options as z.ZodType[]).map(outputType))]
			.filter((t) => t !== 'null')
			.join(' or ');
	if (def.type === 'enum')
		return Object.values(def.entries as Record<string, string>)
			.map((v) => `\`${v}\``)
			.join(', ');
	if (def.type === 'custom') {
		// openEnum/optionalEnum (shared/schemas/model.ts) name their values only in their refusal.
		const message = schema.safeParse({}).error?.issues[0]?.message ?? '';
		return message.startsWith('expected one of ')
			? `string: ${message.slice('expected one of '.length)}`
			: 'string';
	}
	return def.type === 'transform' ? 'any' : def.type;
}

function outputRows(schema: z.ZodType, prefix = ''): string[] {
	return Object.entries(objectShape(schema) ?? {}).flatMap(([key, field]) => {
		const inner = objectShape(field);
		return [
			`| \`${prefix}${key}\` | ${cell(outputType(field))} |`,
			...(inner
				? outputRows(field, `${prefix}${key}${outputType(field).startsWith('array') ? '[]' : ''}.`)
				: []),
		];
	});
}

function renderOutput(key: string, outputs: Record<string, Output> = OUTPUTS): string[] {
	const output = outputs[key];
	if (!output) return [];
	const rows = [
		...(output.schema ? outputRows(output.schema) : []),
		...Object.entries(output.adds ?? {}).map(([name, type]) => `| \`${name}\` | ${cell(type)} |`),
	];
	return [
		`Output: ${output.item}.${output.note ? ` ${output.note}` : ''}`,
		'',
		'| Output field | Type |',
		'| --- | --- |',
		...rows,
		'',
	];
}

export function renderNodes(): string {
	const out = [
		'# n8n nodes',
		'',
		'Generated from the node descriptions by `npm run docs:reference`; do not edit by hand.',
		'',
	];
	for (const file of NODE_FILES) {
		const d = loadNode(file).description;
		out.push(
			`## ${d.displayName}`,
			'',
			`\`${d.name}\`, from ${file}.node.ts. ${d.description}`,
			'',
		);
		const resource = d.properties.find((p) => p.name === 'resource');
		if (!resource) {
			out.push(...TABLE_HEAD, ...parameterRows(d.properties, []), '');
			const watch = d.properties.find((p) => p.name === 'watch');
			for (const o of watch?.options ?? [])
				if ('value' in o && TRIGGER_OUTPUTS[String(o.value)])
					out.push(`### Watch: ${o.name}`, '', ...renderOutput(String(o.value), TRIGGER_OUTPUTS));
			continue;
		}
		const operationProps = d.properties.filter((p) => p.name === 'operation');
		const rest = d.properties.filter((p) => p !== resource && p.name !== 'operation');
		for (const r of resource.options ?? []) {
			if (!('value' in r)) continue;
			const rv = String(r.value);
			out.push(`### ${r.name}`, '', ...(r.description ? [r.description, ''] : []));
			for (const opProp of operationProps.filter((p) => matches(p, 'resource', rv)))
				for (const o of opProp.options ?? []) {
					if (!('value' in o)) continue;
					const ov = String(o.value);
					const params = rest.filter(
						(p) => matches(p, 'resource', rv) && matches(p, 'operation', ov),
					);
					out.push(
						`#### ${r.name}: ${o.name}`,
						'',
						`${o.action ?? o.name} (\`resource=${rv}\`, \`operation=${ov}\`). ${o.description ?? ''}`.trimEnd(),
						'',
					);
					out.push(
						...(params.length
							? [...TABLE_HEAD, ...parameterRows(params, ['resource', 'operation'])]
							: ['No parameters.']),
						'',
					);
					out.push(...renderOutput(`${rv}.${ov}`));
				}
		}
	}
	return out.join('\n');
}

interface ZodInfo {
	type: string;
	default?: unknown;
	required: boolean;
	description?: string;
	inner?: z.ZodType;
}

/** Unwraps optional/default/transform layers to the value's type, collecting default, optionality and description. */
function describeZod(schema: z.ZodType): ZodInfo {
	const info: ZodInfo = { type: '', required: true };
	let current: z.ZodType = schema;
	for (;;) {
		info.description ??= current.description;
		const def = current._zod.def as unknown as Record<string, unknown> & { type: string };
		if (def.type === 'optional') info.required = false;
		else if (def.type === 'default' || def.type === 'prefault') {
			info.required = false;
			info.default ??= def.defaultValue;
		} else if (def.type === 'pipe') {
			current = def.in as z.ZodType;
			continue;
		} else {
			info.type =
				def.type === 'enum'
					? Object.values(def.entries as Record<string, string>)
							.map((v) => `\`${v}\``)
							.join(' \\| ')
					: def.type === 'array'
						? `array of ${describeZod(def.element as z.ZodType).type}`
						: def.type === 'union'
							? (def.options as z.ZodType[]).map((o) => describeZod(o).type).join(' or ')
							: def.type;
			if (
				def.type === 'object' ||
				(def.type === 'array' && (def.element as z.ZodType)._zod.def.type === 'object')
			)
				info.inner = current;
			return info;
		}
		current = def.innerType as z.ZodType;
	}
}

function configRows(schema: z.ZodType, path: string): string[] {
	const def = schema._zod.def as unknown as {
		type: string;
		shape?: Record<string, z.ZodType>;
		element?: z.ZodType;
	};
	const object = def.type === 'array' ? (def.element as z.ZodType) : schema;
	const shape = (object._zod.def as unknown as { shape: Record<string, z.ZodType> }).shape;
	const prefix = def.type === 'array' ? `${path}[].` : path ? `${path}.` : '';
	return Object.entries(shape).flatMap(([key, field]) => {
		const info = describeZod(field);
		const row = `| \`${prefix}${key}\` | ${info.type} | ${info.default === undefined ? '' : cell(`\`${JSON.stringify(info.default)}\``)} | ${info.required ? 'yes' : ''} | ${cell(info.description ?? '')} |`;
		return [row, ...(info.inner ? configRows(info.inner, `${prefix}${key}`) : [])];
	});
}

export function renderBotConfiguration(): string {
	const env = (envSchema._zod.def as unknown as { shape: Record<string, z.ZodType> }).shape;
	return [
		'# Slack bot configuration',
		'',
		'Generated from bot/config/schema.ts and bot/config/env.ts by `npm run docs:reference`; do not edit by hand.',
		'',
		'## Configuration file keys',
		'',
		'| Key | Type | Default | Required | Meaning |',
		'| --- | --- | --- | --- | --- |',
		...configRows(botConfigSchema, ''),
		'',
		'## Environment variables',
		'',
		'Secrets come only from the environment, never from the configuration file.',
		'',
		'| Variable | Type | Meaning |',
		'| --- | --- | --- |',
		...Object.entries(env).map(([name, field]) => {
			const info = describeZod(field);
			return `| \`${name}\` | ${info.type} | ${cell(info.description ?? '')} |`;
		}),
		'',
	].join('\n');
}

export function renderBotCommands(): string {
	const command = botConfigSchema.parse({}).command;
	return [
		'# Slack bot commands',
		'',
		`Generated from the bot's help list (bot/blocks/command.ts) by \`npm run docs:reference\`; do not edit by hand. The command is \`${command}\` unless the configuration key \`command\` names another. ${ASSET_NOTE}`,
		'',
		'| Command | What it does |',
		'| --- | --- |',
		...SUBCOMMANDS.map(
			(s) =>
				`| \`${cell(`${command} ${s.usage}`)}\` | ${cell(s.meaning === 'this list' ? 'the list of commands' : s.meaning)} |`,
		),
		'',
	].join('\n');
}

export const REFERENCES: Record<string, () => string> = {
	'errors.md': renderErrors,
	'n8n-nodes.md': renderNodes,
	'bot-configuration.md': renderBotConfiguration,
	'bot-commands.md': renderBotCommands,
};

if (require.main === module) {
	for (const [name, render] of Object.entries(REFERENCES))
		writeFileSync(join(__dirname, '..', 'docs', 'reference', name), render());
}
