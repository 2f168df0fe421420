import { ApiError } from './envelope';

/**
 * Request fields looked up case-insensitively (assumption A1: `AssetGroupId`, `assetGroupId` and
 * `assetgroupid` are one field). Every refusal names the field, the value and the rule.
 */
export class Fields {
	private readonly byLowerName = new Map<string, unknown>();

	constructor(
		source: unknown,
		private readonly where = 'body',
	) {
		if (source && typeof source === 'object' && !Array.isArray(source)) {
			for (const [key, value] of Object.entries(source))
				this.byLowerName.set(key.toLowerCase(), value);
		}
	}

	get(name: string): unknown {
		return this.byLowerName.get(name.toLowerCase());
	}

	has(name: string): boolean {
		const value = this.get(name);
		return value !== undefined && value !== null && value !== '';
	}

	fail(name: string, rule: string, value: unknown = this.get(name)): never {
		throw new ApiError(100400, `${this.where} field '${name}' ${rule} (got ${describe(value)})`);
	}

	/** An integer, from a number or a numeral string. */
	int(name: string): number {
		const value = this.get(name);
		const n = toInteger(value);
		if (n === undefined)
			this.fail(name, value === undefined || value === null ? 'is required' : 'must be an integer');
		return n;
	}

	string(
		name: string,
		options: { max?: number; pattern?: RegExp; patternRule?: string; allowEmpty?: boolean } = {},
	): string {
		const value = this.get(name);
		if (value === undefined || value === null) this.fail(name, 'is required');
		if (typeof value !== 'string') this.fail(name, 'must be a string');
		const text = value.trim();
		if (!options.allowEmpty && text === '') this.fail(name, 'must not be empty');
		if (options.max !== undefined && text.length > options.max)
			this.fail(name, `must be at most ${options.max} characters, it has ${text.length}`);
		if (options.pattern && !options.pattern.test(text))
			this.fail(name, options.patternRule ?? `must match ${options.pattern}`);
		return text;
	}

	object(name: string): Fields {
		const value = this.get(name);
		if (!value || typeof value !== 'object' || Array.isArray(value))
			this.fail(name, 'must be an object');
		return new Fields(value, `${this.where} field '${name}':`);
	}

	list(name: string): unknown[] {
		const value = this.get(name);
		if (!Array.isArray(value))
			this.fail(name, value === undefined ? 'is required' : 'must be a list');
		return value;
	}
}

export function toInteger(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
	if (typeof value === 'string' && /^-?\d{1,16}$/.test(value.trim())) return Number(value.trim());
	return undefined;
}

export function describe(value: unknown): string {
	if (value === undefined) return 'nothing';
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A path parameter as an integer, or 100400 naming it. */
export function pathInt(params: Record<string, string>, name: string): number {
	const n = toInteger(params[name]);
	if (n === undefined)
		throw new ApiError(
			100400,
			`path parameter '${name}' must be an integer (got ${describe(params[name])})`,
		);
	return n;
}
