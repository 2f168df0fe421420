// Building blocks of the response schemas: casing-tolerant objects that keep unknown fields
// (assumptions A1, A2), numerals read as numbers, `-` points as null, missing values as null.
//
// Speed: a response is parsed on every call, so the lenient reading (numerals, enum numbers,
// "-" points, missing fields) is done once per object in plain code (`prepare`/`fallback`,
// applied by `model`), and the zod schemas left to check are simple ones. Field helpers below
// are meant for use inside `model()`.
import { z } from 'zod/v4';

type Shape = Record<string, z.ZodType>;

interface FieldMeta {
	/** Turns a present, non-null value into the form the schema checks. */
	prepare?: (value: unknown) => unknown;
	/** The value of an absent field (and of null, when `nullToFallback`). */
	fallback?: () => unknown;
	nullToFallback?: boolean;
	/**
	 * True only for a prepared value the schema accepts and returns unchanged (the fast path of
	 * `parsePayload`); false sends the value to zod, which decides and words the issue.
	 */
	accepts?: (value: unknown) => boolean;
}

const fieldMeta = new WeakMap<z.ZodType, FieldMeta>();

function lenient<T extends z.ZodType>(schema: T, meta: FieldMeta): T {
	fieldMeta.set(schema, meta);
	return schema;
}

/**
 * An object schema whose keys match in any casing (`AssetGroupId`, `assetGroupId`,
 * `assetgroupid`), with aliases (`SubDevices` -> `subAssets`). Output keys are the canonical
 * camelCase names of `shape`; keys the shape does not know are kept verbatim.
 */
export function model<S extends Shape>(shape: S, aliases: Record<string, keyof S & string> = {}) {
	const lookup = new Map<string, string>();
	for (const key of Object.keys(shape)) {
		lookup.set(key, key);
		lookup.set(key.toLowerCase(), key);
	}
	for (const [alias, key] of Object.entries(aliases)) lookup.set(alias.toLowerCase(), key);
	const lenientFields = Object.entries(shape)
		.map(([key, schema]) => [key, fieldMeta.get(schema)] as const)
		.filter((entry): entry is readonly [string, FieldMeta] => entry[1] !== undefined);
	const prepare = (input: unknown): unknown => {
		if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
		const out = canonicalKeys(input as Record<string, unknown>, lookup);
		for (const [key, meta] of lenientFields) {
			const value = out[key];
			if (value === undefined || (value === null && meta.nullToFallback)) {
				if (meta.fallback) out[key] = meta.fallback();
			} else if (value !== null && meta.prepare) {
				out[key] = meta.prepare(value);
			}
		}
		return out;
	};
	const schema = z.preprocess(prepare, z.looseObject(shape));
	models.set(schema, { shape, prepare });
	return schema;
}

// The fast path. zod builds a result object per field and a pipe per model: a third of a call's
// CPU in the core's bench. Payloads are nearly always valid, so `parsePayload` first checks the
// prepared values in plain code against the same rules and builds zod's output (known keys in
// shape order, then the unknown ones); at the first value it is not sure of, it leaves the
// payload to zod, which then gives the result or the issue as before.

/** A payload reader: the parsed output, or MISS when zod must decide. */
type Fast = (value: unknown) => unknown;
const MISS: unique symbol = Symbol('zod decides');

const models = new WeakMap<z.ZodType, { shape: Shape; prepare: (input: unknown) => unknown }>();
const compiled = new WeakMap<z.ZodType, Fast | null>();

/** Parse an answer's payload: the fast path when it is sure, zod otherwise (same output, same issues). */
export function parsePayload<T>(
	schema: z.ZodType<T>,
	value: unknown,
): ReturnType<z.ZodType<T>['safeParse']> {
	const fast = fastOf(schema);
	if (fast) {
		const data = fast(value);
		if (data !== MISS)
			return { success: true, data: data as T } as ReturnType<z.ZodType<T>['safeParse']>;
	}
	return schema.safeParse(value);
}

/** The fast reader of a schema, or undefined where only zod knows (compiled once per schema). */
export function fastOf(schema: z.ZodType): Fast | undefined {
	const known = compiled.get(schema);
	if (known !== undefined) return known ?? undefined;
	// A recursive schema (an asset's sub-assets are assets) reads itself through this thunk.
	const slot: { fast?: Fast } = {};
	compiled.set(schema, (value) => (slot.fast ? slot.fast(value) : MISS));
	slot.fast = compile(schema);
	compiled.set(schema, slot.fast ?? null);
	return slot.fast;
}

function compile(schema: z.ZodType): Fast | undefined {
	const model = models.get(schema);
	if (model) return compileModel(model.shape, model.prepare);
	const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })
		._zod.def;
	switch (def.type) {
		case 'array': {
			const item = fastOf(def.element as z.ZodType);
			if (!item) return undefined;
			return (value) => {
				if (!Array.isArray(value)) return MISS;
				const out = new Array<unknown>(value.length);
				for (let i = 0; i < value.length; i++) {
					const read = item(value[i]);
					if (read === MISS) return MISS;
					out[i] = read;
				}
				return out;
			};
		}
		case 'nullable': {
			const inner = fastOf(def.innerType as z.ZodType);
			return inner && ((value) => (value === null ? null : inner(value)));
		}
		case 'lazy': {
			let inner: Fast | undefined;
			return (value) => {
				inner ??= fastOf((def.getter as () => z.ZodType)()) ?? (() => MISS);
				return inner(value);
			};
		}
		case 'string':
			return (def.checks as unknown[] | undefined)?.length
				? undefined
				: (value) => (typeof value === 'string' ? value : MISS);
		default:
			return undefined;
	}
}

function compileModel(shape: Shape, prepare: (input: unknown) => unknown): Fast | undefined {
	const keys = Object.keys(shape);
	const metas = keys.map((key) => fieldMeta.get(shape[key]));
	const readers: Fast[] = [];
	for (const [i, key] of keys.entries()) {
		const accepts = metas[i]?.accepts;
		const reader = accepts
			? (value: unknown) => (accepts(value) ? value : MISS)
			: fastOf(shape[key]);
		if (!reader) return undefined;
		readers.push(reader);
	}
	const known = new Set(keys);
	// Any casing, alias or unknown key: the values as `prepare` gives them to zod.
	const general = (input: object): unknown => {
		const prepared = prepare(input) as Record<string, unknown>;
		const out: Record<string, unknown> = {};
		for (let i = 0; i < keys.length; i++) {
			const read = readers[i](prepared[keys[i]]);
			if (read === MISS) return MISS;
			out[keys[i]] = read;
		}
		for (const key in prepared) if (!known.has(key)) out[key] = prepared[key];
		return out;
	};
	return (input) => {
		if (input === null || typeof input !== 'object' || Array.isArray(input)) return MISS;
		// The usual answer: every field, spelled and ordered as the spec lists them (A1), nothing
		// else. Its copy then has zod's key order already; only the values reading changed are set.
		const record = input as Record<string, unknown>;
		let i = 0;
		for (const key in record) {
			if (key !== keys[i]) return general(input);
			i++;
		}
		if (i !== keys.length) return general(input);
		const out: Record<string, unknown> = { ...record };
		for (i = 0; i < keys.length; i++) {
			const given = record[keys[i]];
			let value = given;
			const meta = metas[i];
			if (meta) {
				if (value === undefined || (value === null && meta.nullToFallback)) {
					if (meta.fallback) value = meta.fallback();
				} else if (value !== null && meta.prepare) {
					value = meta.prepare(value);
				}
			}
			const read = readers[i](value);
			if (read === MISS) return MISS;
			if (read !== given) out[keys[i]] = read;
		}
		return out;
	};
}

/** A copy with canonical key names; the canonical spelling wins over an alias or another casing. */
function canonicalKeys(
	input: Record<string, unknown>,
	lookup: Map<string, string>,
): Record<string, unknown> {
	let renamed = false;
	for (const key in input) {
		const canonical = lookup.get(key) ?? lookup.get(key.toLowerCase());
		if (canonical !== undefined && canonical !== key) {
			renamed = true;
			break;
		}
	}
	// The usual case: keys already canonical (A1); a plain copy, no bookkeeping.
	if (!renamed) return { ...input };
	const out: Record<string, unknown> = {};
	const exact = new Set<string>();
	for (const key in input) {
		const value = input[key];
		const canonical = lookup.get(key) ?? lookup.get(key.toLowerCase());
		if (canonical === undefined) {
			if (!(key in out)) out[key] = value;
		} else if (key === canonical) {
			out[canonical] = value;
			exact.add(canonical);
		} else if (!exact.has(canonical) && !(canonical in out && value === null)) {
			out[canonical] = value;
		}
	}
	return out;
}

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const toInteger = (v: unknown): unknown =>
	typeof v === 'string' && INTEGER.test(v.trim()) ? Number(v) : v;
const toNumber = (v: unknown): unknown =>
	typeof v === 'string' && NUMBER.test(v.trim()) ? Number(v) : v;
const asNull = (): null => null;

// What the fast path accepts, never more than the zod schemas beside them: a safe integer for
// .int(), a finite number for z.number().
const isInteger = (v: unknown): boolean => Number.isSafeInteger(v);
const isNumber = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const isText = (v: unknown): boolean => typeof v === 'string';
const isTextOrNull = (v: unknown): boolean => v === null || typeof v === 'string';
const isBoolean = (v: unknown): boolean => typeof v === 'boolean';
const orNull =
	(accepts: (v: unknown) => boolean) =>
	(v: unknown): boolean =>
		v === null || accepts(v);

const integerSchema = () =>
	z.number({ error: 'expected an integer' }).int({ error: 'expected an integer' });
const numberSchema = () => z.number({ error: 'expected a number' });

/** An integer, also when sent as a numeral string. */
export const int = lenient(integerSchema(), { prepare: toInteger, accepts: isInteger });
/** A double, also when sent as a numeral string. */
export const num = lenient(numberSchema(), { prepare: toNumber, accepts: isNumber });
/** Optional text: absent or null both read as null. */
export const text = lenient(z.string({ error: 'expected a text' }).nullable(), {
	fallback: asNull,
	accepts: isTextOrNull,
});
/** Text that arrives as a string or a number (ids, parameter values). */
export const textish = lenient(z.string({ error: 'expected a text' }).nullable(), {
	fallback: asNull,
	accepts: isTextOrNull,
	prepare: (v) => (typeof v === 'number' ? String(v) : v),
});
/** Required text that may arrive as a number (ids). */
export const idText = lenient(z.string({ error: 'expected a text id' }), {
	prepare: (v) => (typeof v === 'number' ? String(v) : v),
	accepts: isText,
});
export const optInt = lenient(integerSchema().nullable(), {
	prepare: toInteger,
	fallback: asNull,
	accepts: orNull(isInteger),
});
export const optNum = lenient(numberSchema().nullable(), {
	prepare: toNumber,
	fallback: asNull,
	accepts: orNull(isNumber),
});
/** Empty strings mean "none" in several fields (CBM dates, created-user fields). */
export const textOrEmpty = lenient(z.string({ error: 'expected a text' }).nullable(), {
	fallback: asNull,
	accepts: isTextOrNull,
	prepare: (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
});
export const optIntOrEmpty = lenient(integerSchema().nullable(), {
	fallback: asNull,
	accepts: orNull(isInteger),
	prepare: (v) => (v === '' ? null : toInteger(v)),
});
/** Epoch milliseconds; `-1` (none, A6) and absent read as null. */
export const epochOrNone = lenient(integerSchema().nullable(), {
	fallback: asNull,
	accepts: orNull(isInteger),
	prepare: (v) => {
		const n = toInteger(v);
		return typeof n === 'number' && n < 0 ? null : n;
	},
});
const toBoolean = (v: unknown): unknown =>
	typeof v === 'string' && /^(true|false)$/i.test(v) ? v.toLowerCase() === 'true' : v;
export const bool = lenient(z.boolean({ error: 'expected true or false' }), {
	prepare: toBoolean,
	accepts: isBoolean,
});
/** A flag that is false when absent. */
export const flag = lenient(z.boolean({ error: 'expected true or false' }), {
	prepare: toBoolean,
	fallback: () => false,
	nullToFallback: true,
	accepts: isBoolean,
});

/**
 * A date-time: kept as the ISO text the API sent; an epoch-millisecond numeral (number or
 * string) is turned into ISO 8601 UTC; empty reads as null.
 */
export const dateTime = lenient(z.string({ error: 'expected an ISO 8601 date-time' }).nullable(), {
	fallback: asNull,
	accepts: isTextOrNull,
	prepare: (v) => {
		if (v === '') return null;
		if (typeof v === 'number' || (typeof v === 'string' && /^\d{10,}$/.test(v)))
			return new Date(Number(v)).toISOString().replace('.000Z', 'Z');
		return v;
	},
});

/** A list that may arrive as null or be absent: read as empty. */
export function list<T extends z.ZodType>(item: T) {
	const prepareItem = fieldMeta.get(item)?.prepare;
	return lenient(z.array(item), {
		fallback: () => [],
		nullToFallback: true,
		prepare:
			prepareItem &&
			((v) =>
				Array.isArray(v) ? v.map((x) => (x === null || x === undefined ? x : prepareItem(x))) : v),
	});
}

/** A series: each point a double, or null where the API wrote `-` (no value at that collection point). */
const isSeries = (v: unknown): boolean =>
	Array.isArray(v) && v.every((p) => p === null || (typeof p === 'number' && Number.isFinite(p)));
export const series = lenient(
	z.custom<Array<number | null>>(isSeries, {
		error: 'expected a list of numbers or "-"',
	}),
	{
		accepts: isSeries,
		fallback: () => [],
		nullToFallback: true,
		prepare: (v) =>
			Array.isArray(v) ? v.map((p) => (p === '-' || p === '' ? null : toNumber(p))) : v,
	},
);

/** Epoch-millisecond timestamps, sent as integer numerals (A6). */
const isTimestamps = (v: unknown): boolean =>
	Array.isArray(v) && v.every((t) => Number.isSafeInteger(t));
export const timestamps = lenient(
	z.custom<number[]>(isTimestamps, { error: 'expected a list of integer timestamps' }),
	{
		accepts: isTimestamps,
		fallback: () => [],
		nullToFallback: true,
		prepare: (v) => (Array.isArray(v) ? v.map(toInteger) : v),
	},
);

/**
 * An enum kept open: the spec's names type-check, and a value the platform adds later still
 * parses instead of failing the whole response. Numbers map through `byNumber` when given.
 */
export function openEnum<const T extends readonly string[]>(
	values: T,
	byNumber?: Record<number, T[number]>,
) {
	return lenient(
		z.custom<T[number] | (string & {})>(isText, { error: `expected one of ${values.join(', ')}` }),
		{
			accepts: isText,
			prepare: (v) => (typeof v === 'number' ? (byNumber?.[v] ?? String(v)) : v),
		},
	);
}

/** The same, null when absent. */
export function optionalEnum<const T extends readonly string[]>(
	values: T,
	byNumber?: Record<number, T[number]>,
) {
	return lenient(
		z.custom<T[number] | (string & {}) | null>(isTextOrNull, {
			error: `expected one of ${values.join(', ')}`,
		}),
		{
			fallback: asNull,
			accepts: isTextOrNull,
			prepare: (v) => (typeof v === 'number' ? (byNumber?.[v] ?? String(v)) : v),
		},
	);
}

/** A nested object that may be absent or null: null then. */
export function optionalObject<T extends z.ZodType>(schema: T) {
	return lenient(schema.nullable(), { fallback: asNull });
}
