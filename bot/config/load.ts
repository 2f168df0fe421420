/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod/v4';
import { botConfigSchema, type BotConfig } from './schema';

export class ConfigError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ConfigError';
	}
}

/** One line per problem: the field path, the value found and the rule it breaks. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string {
	return issues
		.map((issue) => {
			const field = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
			const value = valueAt(input, issue.path);
			const shown = value === undefined ? '' : ` (found ${JSON.stringify(value)})`;
			const message =
				issue.code === 'unrecognized_keys'
					? `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`
					: issue.message;
			return `  - ${field}${shown}: ${message}`;
		})
		.join('\n');
}

function valueAt(input: unknown, keys: readonly PropertyKey[]): unknown {
	let current = input;
	for (const key of keys) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as Record<PropertyKey, unknown>)[key];
	}
	return typeof current === 'object' ? undefined : current;
}

export function parseConfig(input: unknown, source = 'configuration'): BotConfig {
	const result = botConfigSchema.safeParse(input ?? {});
	if (!result.success) {
		throw new ConfigError(`Invalid bot ${source}:\n${describeIssues(result.error.issues, input)}`);
	}
	return result.data;
}

/** Reads a YAML (.yml, .yaml) or JSON file; no file at all means every default. */
export function loadConfigFile(file: string | undefined): BotConfig {
	if (file === undefined) return parseConfig({});
	const json = path.extname(file).toLowerCase() === '.json';
	const read = attempt(() => readFileSync(file, 'utf8'));
	if ('error' in read)
		throw new ConfigError(`Cannot read the bot configuration ${file}: ${read.error}`);
	const parsed = attempt(() => (json ? JSON.parse(read.value) : parseYaml(read.value)) as unknown);
	if ('error' in parsed)
		throw new ConfigError(
			`The bot configuration ${file} is not valid ${json ? 'JSON' : 'YAML'}: ${parsed.error}`,
		);
	return parseConfig(parsed.value, `configuration ${file}`);
}

function attempt<T>(work: () => T): { value: T } | { error: string } {
	try {
		return { value: work() };
	} catch (error) {
		return { error: error instanceof Error ? error.message : String(error) };
	}
}
